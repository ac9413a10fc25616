import { spawn, type ChildProcess } from 'node:child_process';
import { mkdtempSync, rmSync } from 'node:fs';
import { tmpdir } from 'node:os';
import { join } from 'node:path';
import { createInterface } from 'node:readline';
import { fileURLToPath } from 'node:url';
import { afterAll, describe, expect, it } from 'vitest';
import { TEST_KEY } from '@trawl/test-support/gateway.ts';
import { childProcesses } from './child-processes.ts';

/**
 * The quick start runs `npm start &` and stops it with `kill $!`: the signal goes to npm, which passes SIGINT and
 * SIGTERM to its child. The child must be the gateway itself (`exec` in package.json's script): through a `sh -c`
 * in between, the shell died and left the gateway running, orphaned, holding the data directory's lock.
 */
const ROOT = fileURLToPath(new URL('../../', import.meta.url));
const dataDir = mkdtempSync(join(tmpdir(), 'trawl-npm-start-'));
const started: ChildProcess[] = [];
afterAll(() => {
  for (const c of started) if (c.exitCode === null && c.signalCode === null) c.kill('SIGKILL');
  rmSync(dataDir, { recursive: true, force: true });
});

/** `npm start` on the shared data directory; resolves with npm's process and the gateway's URL once it listens. */
async function npmStart(): Promise<{ npm: ChildProcess; url: string }> {
  const npm = spawn('npm', ['start', '--silent'], {
    cwd: ROOT,
    env: { ...process.env, PORT: '0', TRAWL_DATA_DIR: dataDir, TRAWL_BOOTSTRAP_KEY: TEST_KEY, LOG_LEVEL: 'warn' },
    stdio: ['ignore', 'ignore', 'pipe'],
  });
  started.push(npm);
  const url = await new Promise<string>((resolve, reject) => {
    const timer = setTimeout(() => reject(new Error('npm start: no "Trawl listening" line in 60 s')), 60_000);
    createInterface({ input: npm.stderr! }).on('line', (line) => {
      const m = /Trawl listening on (\S+)/.exec(line);
      if (m) {
        clearTimeout(timer);
        resolve(m[1]!);
      }
    });
    npm.once('exit', (code) => reject(new Error(`npm start exited ${code} before listening`)));
  });
  return { npm, url };
}

const exited = (c: ChildProcess) => new Promise<number | null>((resolve) => (c.exitCode !== null || c.signalCode !== null ? resolve(c.exitCode) : c.once('exit', (code) => resolve(code))));
const alive = (pid: number) => {
  try {
    process.kill(pid, 0);
    return true;
  } catch {
    return false;
  }
};

describe('stopping `npm start`', () => {
  for (const signal of ['SIGTERM', 'SIGINT'] as const) {
    it(`${signal} to npm's process reaches the gateway: it shuts down, nothing is left, the next start takes the directory`, async () => {
      const { npm, url } = await npmStart();
      // npm's one child is the gateway (no shell in between).
      const children = childProcesses(npm.pid!);
      expect(children.map((c) => c.name)).toEqual(['node']);
      const gateway = children[0]!.pid;
      expect((await fetch(`${url}/healthz`)).status).toBe(200);

      npm.kill(signal);
      expect(await exited(npm)).toBe(0);
      expect(alive(gateway)).toBe(false);
      await expect(fetch(`${url}/healthz`)).rejects.toThrow();
    });
  }
});
