import { afterAll, beforeAll } from 'vitest';
import { spawn, type ChildProcess } from 'node:child_process';
import { mkdtempSync, rmSync } from 'node:fs';
import { tmpdir } from 'node:os';
import { join } from 'node:path';
import { randomBytes } from 'node:crypto';
import { connectRedis, type RedisConnection } from '@trawl/redis';
import { freePort } from './free-port.ts';

export interface RedisServer {
  url: string;
  port: number;
  process: ChildProcess;
  stop(): Promise<void>;
}

/** Starts a real, throw-away redis-server on a free loopback port (no persistence). */
export async function startRedisServer(): Promise<RedisServer> {
  const port = await freePort();
  const dir = mkdtempSync(join(tmpdir(), 'trawl-redis-'));
  const child = spawn(
    'redis-server',
    ['--port', String(port), '--bind', '127.0.0.1', '--save', '', '--appendonly', 'no', '--dir', dir],
    { stdio: 'ignore' },
  );
  const url = `redis://127.0.0.1:${port}`;
  const deadline = Date.now() + 10_000;
  for (;;) {
    try {
      const c = await connectRedis(url, 'probe');
      await c.ping();
      await c.quit();
      break;
    } catch (err) {
      if (Date.now() > deadline || child.exitCode !== null) throw new Error(`redis-server did not start: ${err}`);
      await new Promise((r) => setTimeout(r, 50));
    }
  }
  return {
    url,
    port,
    process: child,
    async stop() {
      if (child.exitCode === null) {
        const exited = new Promise((r) => child.once('exit', r));
        child.kill('SIGKILL');
        await exited;
      }
      rmSync(dir, { recursive: true, force: true });
    },
  };
}

/** A key prefix no other test uses, so tests can share one server. */
export function randomPrefix(): string {
  return `t${randomBytes(6).toString('hex')}:`;
}

export async function connect(url: string): Promise<RedisConnection> {
  return connectRedis(url, 'test');
}

/**
 * One redis-server and connection for a test file, started before its tests and stopped after them. The
 * returned object's `conn` is valid inside tests (and in factories they call).
 */
export function useRedis(): { readonly server: RedisServer; readonly conn: RedisConnection } {
  let server: RedisServer | undefined;
  let conn: RedisConnection | undefined;
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
