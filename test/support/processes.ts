import { spawn, type ChildProcess } from 'node:child_process';
import { mkdtempSync, rmSync } from 'node:fs';
import { tmpdir } from 'node:os';
import { join } from 'node:path';
import { fileURLToPath } from 'node:url';
import { BUNDLES } from '../../scripts/build.mjs';
import { RATE_LIMITS_OFF, TEST_KEY } from './gateway.ts';

/**
 * Real Trawl processes for cluster-mode tests (what `npm start` and `npm run worker` run: the bundles of
 * scripts/build.mjs, built once per test run by test/support/build-setup.ts; any other script through tsx), with their output kept for the
 * failure message, readiness by a line they print, kill -9, and a registry so every process a test file started
 * is gone when it ends, even when the test failed half-way (afterAll) or the test process itself exits.
 */
export interface ManagedProcess {
  name: string;
  pid: number;
  child: ChildProcess;
  /** stdout and stderr so far (the tail, for failure messages). */
  output(): string;
  /** stdout alone so far (the tail): the process's log lines. */
  stdout(): string;
  /** Resolves with the first output line matching `re`; rejects when the process exits first or on timeout. */
  waitForLine(re: RegExp, timeoutMs?: number): Promise<string>;
  /** SIGKILL: no shutdown code runs, leases and shards are simply abandoned. */
  kill9(): Promise<void>;
  /** SIGTERM, then SIGKILL after `graceMs`. */
  stop(graceMs?: number): Promise<void>;
  exited(): boolean;
  /** Resolves with the exit code (null when killed by a signal) once the process has exited; rejects after timeoutMs. */
  waitForExit(timeoutMs?: number): Promise<number | null>;
}

const ROOT = fileURLToPath(new URL('../../', import.meta.url));
const live = new Set<ManagedProcess>();
const MAX_OUTPUT = 64 * 1024;

// Last resort: a test process that exits (or crashes) never leaves workers behind.
process.once('exit', () => {
  for (const p of live) if (!p.exited()) p.child.kill('SIGKILL');
});

/** Environment of the test runner minus anything that would configure Trawl behind the test's back. */
function baseEnv(): Record<string, string> {
  const out: Record<string, string> = {};
  for (const [k, v] of Object.entries(process.env)) {
    if (v === undefined || k.startsWith('TRAWL_') || k.startsWith('REDIS_') || k === 'PORT' || k === 'HOST') continue;
    out[k] = v;
  }
  return out;
}

// The entries `npm start` and `npm run worker` run from their bundles, as a user's processes do.
const BUNDLED: Record<string, string> = Object.fromEntries(Object.values(BUNDLES).map((b) => [b.entry, b.out]));

/** Starts a script (a path relative to the repository root): a bundled entry as built, anything else through tsx. */
export function spawnTrawl(name: string, script: string, env: Record<string, string>): ManagedProcess {
  // An embedded process gets a data directory of its own, removed when it exits, unless the test names one.
  const ownDir = env.TRAWL_DATA_DIR === undefined && env.REDIS_URL === undefined ? mkdtempSync(join(tmpdir(), 'trawl-proc-data-')) : null;
  const bundle = BUNDLED[script];
  const child = spawn(process.execPath, bundle ? ['--enable-source-maps', bundle] : ['--import', 'tsx', script], {
    cwd: ROOT,
    env: { ...baseEnv(), ...(ownDir ? { TRAWL_DATA_DIR: ownDir } : {}), ...env },
    stdio: ['ignore', 'pipe', 'pipe'],
  });
  if (ownDir) child.once('close', () => rmSync(ownDir, { recursive: true, force: true }));
  let out = '';
  let stdout = '';
  let pending = '';
  const waiters: { re: RegExp; resolve(line: string): void }[] = [];
  const onData = (chunk: Buffer) => {
    const text = chunk.toString('utf8');
    out = (out + text).slice(-MAX_OUTPUT);
    pending += text;
    const lines = pending.split('\n');
    pending = lines.pop() ?? '';
    for (const line of lines) {
      for (const w of [...waiters]) {
        if (w.re.test(line)) {
          waiters.splice(waiters.indexOf(w), 1);
          w.resolve(line);
        }
      }
    }
  };
  child.stdout!.on('data', (chunk: Buffer) => {
    stdout = (stdout + chunk.toString('utf8')).slice(-MAX_OUTPUT);
    onData(chunk);
  });
  child.stderr!.on('data', onData);
  let exitedFlag = false;
  const exit = new Promise<void>((resolve) => {
    child.once('exit', () => {
      exitedFlag = true;
      live.delete(p);
      resolve();
    });
  });
  const p: ManagedProcess = {
    name,
    pid: child.pid ?? -1,
    child,
    output: () => out,
    stdout: () => stdout,
    exited: () => exitedFlag,
    waitForExit(timeoutMs = 30_000) {
      return new Promise<number | null>((resolve, reject) => {
        const timer = setTimeout(() => reject(new Error(`${name}: still running after ${timeoutMs} ms\n${out}`)), timeoutMs);
        void exit.then(() => {
          clearTimeout(timer);
          resolve(child.exitCode);
        });
      });
    },
    waitForLine(re, timeoutMs = 30_000) {
      return new Promise<string>((resolve, reject) => {
        const timer = setTimeout(() => reject(new Error(`${name}: no line matching ${re} within ${timeoutMs} ms\n${out}`)), timeoutMs);
        const w = {
          re,
          resolve: (line: string) => {
            clearTimeout(timer);
            resolve(line);
          },
        };
        waiters.push(w);
        void exit.then(() => {
          clearTimeout(timer);
          if (waiters.includes(w)) reject(new Error(`${name} exited (${child.exitCode ?? child.signalCode}) before printing ${re}\n${out}`));
        });
      });
    },
    async kill9() {
      if (!exitedFlag) child.kill('SIGKILL');
      await exit;
    },
    async stop(graceMs = 10_000) {
      if (exitedFlag) return;
      child.kill('SIGTERM');
      const t = setTimeout(() => child.kill('SIGKILL'), graceMs);
      await exit;
      clearTimeout(t);
    },
  };
  live.add(p);
  return p;
}

/** A worker process (`apps/worker/src/main.ts`), resolved once its banner (stderr) names its crawl workers and trends runners. */
export async function startWorkerProcess(
  name: string,
  env: Record<string, string>,
): Promise<ManagedProcess & { workerIds: string[]; trendsRunnerIds: string[] }> {
  const p = spawnTrawl(name, 'apps/worker/src/main.ts', env);
  const line = await p.waitForLine(/^Trawl worker running /, 60_000);
  const ids = (label: string) => (new RegExp(`${label}: (\\S*)`).exec(line)?.[1] ?? '').split(',').filter((id) => id !== '');
  return Object.assign(p, { workerIds: ids('crawl workers'), trendsRunnerIds: ids('trends runners') });
}

/** A gateway process (`apps/gateway/src/main.ts`, PORT 0, rate limits off unless `env` sets them), resolved with its URL once it listens. */
export async function startGatewayProcess(
  name: string,
  env: Record<string, string>,
): Promise<ManagedProcess & { url: string; call(method: string, path: string, body?: unknown, headers?: Record<string, string>): Promise<Response> }> {
  const p = spawnTrawl(name, 'apps/gateway/src/main.ts', { PORT: '0', TRAWL_BOOTSTRAP_KEY: TEST_KEY, ...RATE_LIMITS_OFF, ...env });
  const line = await p.waitForLine(/Trawl listening on /, 60_000);
  const url = /Trawl listening on (\S+)/.exec(line)![1];
  return Object.assign(p, {
    url,
    call(method: string, path: string, body?: unknown, headers: Record<string, string> = {}) {
      const h: Record<string, string> = { authorization: `Bearer ${TEST_KEY}`, ...headers };
      if (body !== undefined && !h['content-type']) h['content-type'] = 'application/json';
      return fetch(`${url}${path}`, { method, headers: h, body: body === undefined ? undefined : JSON.stringify(body) });
    },
  });
}

/** Kills every process still running (afterAll of each file that spawns). */
export async function stopAllProcesses(): Promise<void> {
  await Promise.all([...live].map((p) => p.kill9()));
}
