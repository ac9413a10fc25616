import { afterAll, beforeAll, describe, expect, it } from 'vitest';
import { ClientOfflineError } from 'redis';
import { connectRedis, isStoreUnavailable, whileStoreUnavailable, type RedisConnection } from '../src/index.ts';
import { randomPrefix, startRedisServer, type RedisServer } from '@trawl/test-support/redis-server.ts';

/** Outage handling against a real redis-server that is stopped and started again under a live connection. */
let server: RedisServer;
let conn: RedisConnection;
const prefix = randomPrefix();

beforeAll(async () => {
  server = await startRedisServer({ appendonly: true });
  conn = await connectRedis(server.url, 'unavailable-test');
  conn.on('error', () => undefined);
});
afterAll(async () => {
  conn?.destroy();
  await server?.stop();
});

/** Resolves once the connection has seen the server go (commands fail fast from then on). */
async function waitOffline(): Promise<void> {
  for (let i = 0; i < 100 && conn.isReady; i++) await new Promise((r) => setTimeout(r, 20));
}

/** Resolves once node-redis has reconnected by itself (its backoff is at most 2 s). */
async function waitReady(): Promise<void> {
  for (let i = 0; i < 250 && !conn.isReady; i++) await new Promise((r) => setTimeout(r, 20));
  expect(conn.isReady).toBe(true);
}

describe('isStoreUnavailable', () => {
  it('is true for what a command meets while Redis is down, false for a bad command', async () => {
    await conn.set(`${prefix}str`, 'x');
    const wrongType = await conn.lPush(`${prefix}str`, 'y').catch((e: unknown) => e);
    expect(isStoreUnavailable(wrongType)).toBe(false);
    expect(isStoreUnavailable(new Error('boom'))).toBe(false);
    expect(isStoreUnavailable(new ClientOfflineError())).toBe(true);

    await server.halt();
    await waitOffline();
    const offline = await conn.get(`${prefix}str`).catch((e: unknown) => e);
    expect(isStoreUnavailable(offline)).toBe(true);
    await server.restart();
    await waitReady();
  });
});

describe('whileStoreUnavailable', () => {
  it('carries a write across an outage: it lands once Redis is back (with its AOF data)', async () => {
    await conn.set(`${prefix}before`, '1');
    await server.halt();
    await waitOffline();
    let attempts = 0;
    const started = Date.now();
    const write = whileStoreUnavailable(
      async () => {
        attempts++;
        return conn.incr(`${prefix}counter`);
      },
      { maxMs: 15_000, delayMs: 50, maxDelayMs: 200 },
    );
    await new Promise((r) => setTimeout(r, 1_500));
    await server.restart();
    expect(await write).toBe(1);
    expect(Date.now() - started).toBeGreaterThanOrEqual(1_500);
    expect(attempts).toBeGreaterThan(1);
    // The data written before the outage survived the restart (appendonly), and the write landed once.
    expect(await conn.get(`${prefix}before`)).toBe('1');
    expect(await conn.get(`${prefix}counter`)).toBe('1');
  });

  it('gives up after maxMs with the store error', async () => {
    await server.halt();
    await waitOffline();
    const started = Date.now();
    const err = await whileStoreUnavailable(() => conn.get(`${prefix}x`), { maxMs: 600, delayMs: 50, maxDelayMs: 100 }).catch((e: unknown) => e);
    const took = Date.now() - started;
    expect(isStoreUnavailable(err)).toBe(true);
    expect(took).toBeGreaterThanOrEqual(400);
    expect(took).toBeLessThan(2_000);
    await server.restart();
    await waitReady();
  });

  it('throws any other failure at once, without repeating the operation', async () => {
    await conn.set(`${prefix}s`, 'x');
    let attempts = 0;
    const err = await whileStoreUnavailable(
      async () => {
        attempts++;
        return conn.lPush(`${prefix}s`, 'y');
      },
      { maxMs: 5_000 },
    ).catch((e: unknown) => e);
    expect(isStoreUnavailable(err)).toBe(false);
    expect(attempts).toBe(1);
  });
});
