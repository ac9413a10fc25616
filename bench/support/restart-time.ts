import { spawn } from 'node:child_process';
import { join } from 'node:path';
import { freePort } from '@trawl/test-support/free-port.ts';
import { cpuMsOf } from './proc-stats.ts';
import { stop } from './processes.ts';
import { baseEnv, KEY } from './trawl-cases.ts';

const START = join(new URL('../../', import.meta.url).pathname, 'scripts/start.mjs');

/**
 * Starts what `npm start` runs (scripts/start.mjs gateway: the bundle, rebuilt first only if a source changed) on a store and measures the time from spawning the process
 * to the first answer of an authenticated read (`path`, expected to answer `status`), polling every 5 ms, and the
 * CPU the process had used by then (steadier than wall time on a loaded machine); then stops it. What it reads is
 * checked by `check`.
 */
export async function timeRestart(
  env: Record<string, string>,
  path: string,
  status: number,
  check: (body: unknown) => void = () => undefined,
): Promise<{ ms: number; cpuMs: number }> {
  const port = await freePort();
  const t0 = performance.now();
  const child = spawn(process.execPath, [START, 'gateway'], {
    env: { ...process.env, ...baseEnv(env), PORT: String(port), HOST: '127.0.0.1' },
    stdio: ['ignore', 'ignore', 'pipe'],
  });
  let stderr = '';
  child.stderr!.on('data', (c: Buffer) => (stderr += c.toString()));
  try {
    for (;;) {
      if (child.exitCode !== null) throw new Error(`gateway exited ${child.exitCode}: ${stderr}`);
      const res = await fetch(`http://127.0.0.1:${port}${path}`, { headers: { authorization: `Bearer ${KEY}` } }).catch(() => null);
      if (res) {
        const ms = performance.now() - t0;
        const cpuMs = cpuMsOf(child.pid!);
        const body = await res.json();
        if (res.status !== status) throw new Error(`GET ${path} answered ${res.status} after restart: ${JSON.stringify(body).slice(0, 300)}`);
        check(body);
        return { ms, cpuMs };
      }
      await new Promise((r) => setTimeout(r, 5));
    }
  } finally {
    await stop(child);
  }
}
