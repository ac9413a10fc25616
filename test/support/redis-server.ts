import { afterAll, beforeAll } from 'vitest';
import { spawn, type ChildProcess } from 'node:child_process';
import { mkdirSync, mkdtempSync, rmSync } from 'node:fs';
import { tmpdir } from 'node:os';
import { createConnection } from 'node:net';
import { join } from 'node:path';
import { randomBytes } from 'node:crypto';
import { connectRedis, isClusterConnection, type RedisConnection, type RedisServerConnection } from '@trawl/redis';
import { freePort } from './free-port.ts';

export interface RedisServer {
  url: string;
  port: number;
  process: ChildProcess;
  /** SIGKILL, then the data directory is removed. */
  stop(): Promise<void>;
  /**
   * Outage drills: SIGTERM (with `appendonly` Redis writes its AOF before it exits); the data directory stays, so
   * `restart` can bring the same server back on the same port with or without its data.
   */
  halt(): Promise<void>;
  /** Starts redis-server again on the same port and directory; `empty: true` first wipes the directory. */
  restart(opts?: { empty?: boolean }): Promise<void>;
}

export interface RedisServerOptions {
  /** `appendonly yes` (AOF, fsync every second): a restart comes back with the data. Default: no persistence. */
  appendonly?: boolean;
}

/** Starts a real, throw-away redis-server on a free loopback port (no persistence unless asked for). */
export async function startRedisServer(opts: RedisServerOptions = {}): Promise<RedisServer> {
  const port = await freePort();
  const dir = mkdtempSync(join(tmpdir(), 'trawl-redis-'));
  const args = ['--port', String(port), '--bind', '127.0.0.1', '--save', '', '--appendonly', opts.appendonly ? 'yes' : 'no', '--dir', dir];
  let child = await launch(args, `redis://127.0.0.1:${port}`);
  const url = `redis://127.0.0.1:${port}`;
  const kill = async (signal: NodeJS.Signals) => {
    if (child.exitCode === null && child.signalCode === null) {
      const exited = new Promise((r) => child.once('exit', r));
      child.kill(signal);
      await exited;
    }
  };
  return {
    url,
    port,
    get process() {
      return child;
    },
    async stop() {
      await kill('SIGKILL');
      rmSync(dir, { recursive: true, force: true });
    },
    halt: () => kill('SIGTERM'),
    async restart(o = {}) {
      await kill('SIGTERM');
      if (o.empty) {
        rmSync(dir, { recursive: true, force: true });
        mkdirSync(dir, { recursive: true });
      }
      child = await launch(args, url);
    },
  };
}

/** Spawns redis-server and resolves once it answers PING (after loading any AOF). */
async function launch(args: string[], url: string): Promise<ChildProcess> {
  const child = spawn('redis-server', args, { stdio: 'ignore' });
  const deadline = Date.now() + 10_000;
  const port = Number(new URL(url).port);
  for (;;) {
    try {
      // node-redis waits for ever for a first connection (it reconnects for ever): ask it only once the port is open.
      if (!(await portOpen(port))) throw new Error('port closed');
      const c = await connectRedis(url, 'probe');
      try {
        await c.ping();
      } finally {
        await c.quit().catch(() => c.destroy());
      }
      break;
    } catch (err) {
      if (Date.now() > deadline || child.exitCode !== null) throw new Error(`redis-server did not start: ${err}`);
      await new Promise((r) => setTimeout(r, 50));
    }
  }
  return child;
}

function portOpen(port: number): Promise<boolean> {
  return new Promise((resolve) => {
    const s = createConnection({ port, host: '127.0.0.1' });
    s.once('connect', () => {
      s.destroy();
      resolve(true);
    });
    s.once('error', () => resolve(false));
  });
}

/** A key prefix no other test uses, so tests can share one server. */
export function randomPrefix(): string {
  return `t${randomBytes(6).toString('hex')}:`;
}

/** A connection to one server (a Redis URL, never a cluster). */
export async function connect(url: string): Promise<RedisServerConnection> {
  const c = await connectRedis(url, 'test');
  if (isClusterConnection(c)) throw new Error('connect: a server URL gave a cluster connection');
  return c;
}

/**
 * What `op` rejects with once its Redis is halted (null if it resolved): a fresh server and connection, `setup` run
 * while it answers (what it returns is handed to `op`), then the server halted and `op` run.
 */
export async function rejectionWhileHalted<T>(setup: (conn: RedisConnection) => Promise<T>, op: (ready: T) => Promise<unknown>): Promise<unknown> {
  const server = await startRedisServer();
  const conn = await connect(server.url);
  try {
    const ready = await setup(conn);
    await server.halt();
    return await op(ready).then(
      () => null,
      (e: unknown) => e,
    );
  } finally {
    conn.destroy();
    await server.stop();
  }
}

/**
 * One redis-server and connection for a test file, started before its tests and stopped after them. The
 * returned object's `conn` is valid inside tests (and in factories they call).
 */
export function useRedis(): { readonly server: RedisServer; readonly conn: RedisServerConnection } {
  let server: RedisServer | undefined;
  let conn: RedisServerConnection | undefined;
  beforeAll(async () => {
    server = await startRedisServer();
    conn = await connect(server.url);
  });
  afterAll(async () => {
    await conn?.quit();
    await server?.stop();
  });
  return {
    get server() {
      if (!server) throw new Error('useRedis: used outside a test');
      return server;
    },
    get conn() {
      if (!conn) throw new Error('useRedis: used outside a test');
      return conn;
    },
  };
}
