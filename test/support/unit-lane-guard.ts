import childProcess from 'node:child_process';
import dgram from 'node:dgram';
import { syncBuiltinESMExports } from 'node:module';
import net from 'node:net';
import { afterAll, afterEach } from 'vitest';

/**
 * Setup file of the unit lane (vitest.config.ts, project `unit`): a test there starts no process and listens on no
 * socket. Every way to start a child process (child_process spawn/fork/exec/execFile and their Sync forms) and to
 * listen (net.Server#listen, which http, https and tls servers inherit; dgram binds) throws instead, and a test
 * that caught the error still fails after it ran. Worker threads are allowed (content threads).
 * test/lanes/unit-lane-guard.e2e.test.ts proves it.
 */
export const UNIT_LANE_RULE = 'unit lane: this test starts a process/server; name it *.e2e.test.ts';

const CHILD_PROCESS = ['spawn', 'spawnSync', 'fork', 'exec', 'execSync', 'execFile', 'execFileSync'] as const;
type Restore = () => void;

const blocked: string[] = [];
const restores: Restore[] = [];

function refuse(what: string): never {
  const err = new Error(`${UNIT_LANE_RULE} (${what})`);
  blocked.push(err.message);
  throw err;
}

function replace<T extends object, K extends keyof T>(owner: T, key: K, make: (original: T[K]) => T[K]): void {
  const original = owner[key];
  owner[key] = make(original);
  restores.push(() => {
    owner[key] = original;
  });
}

for (const name of CHILD_PROCESS) {
  replace(childProcess, name, () => ((command: unknown) => refuse(`child_process.${name}(${JSON.stringify(command)})`)) as never);
}
replace(net.Server.prototype, 'listen', () => function listen(this: net.Server, ...args: unknown[]) {
  return refuse(`server.listen(${args.filter((a) => typeof a !== 'function').map((a) => JSON.stringify(a)).join(', ')})`);
} as never);
replace(dgram.Socket.prototype, 'bind', () => function bind() {
  return refuse('dgram socket.bind');
} as never);
// The named exports of `node:child_process` (import { spawn } from ...) follow the module object's properties.
syncBuiltinESMExports();

// A test that caught the error (a helper that falls back, a `try` around a probe) fails all the same.
afterEach((ctx) => {
  const caught = blocked.splice(0);
  if (caught.length === 0) return;
  const failed = ctx.task.result?.errors?.some((e) => String(e?.message).includes(UNIT_LANE_RULE));
  if (!failed) throw new Error(caught[0]);
});

afterAll(() => {
  const caught = blocked.splice(0);
  for (const restore of restores.splice(0).reverse()) restore();
  syncBuiltinESMExports();
  if (caught.length > 0) throw new Error(caught[0]);
});
