import { afterAll, beforeAll, describe, expect, it } from 'vitest';
import { connectRedis, type RedisConnection } from '@trawl/redis';
import { RedisShardDirectory } from '../src/index.ts';
import { randomPrefix, startRedisServer, type RedisServer } from '@trawl/test-support/redis-server.ts';

/**
 * The wake-up channel across a Redis restart (a real redis-server stopped and started again): the subscription
 * comes back by itself, and stopping the watch while Redis is down returns instead of waiting for ever.
 */
let server: RedisServer;
let conn: RedisConnection;

beforeAll(async () => {
  server = await startRedisServer();
  conn = await connectRedis(server.url, 'outage-test');
});
afterAll(async () => {
  conn?.destroy();
  await server?.stop();
});

async function until(check: () => boolean | Promise<boolean>, timeoutMs = 10_000): Promise<void> {
  const started = Date.now();
  while (!(await check())) {
    if (Date.now() - started > timeoutMs) throw new Error('condition not reached in time');
    await new Promise((r) => setTimeout(r, 50));
  }
}

describe('RedisShardDirectory through a Redis restart', () => {
  it('hears announcements again once Redis is back, and unwatches promptly while it is down', async () => {
    const dir = new RedisShardDirectory(conn, randomPrefix());
    let heard = 0;
    const unwatch = await dir.watchWork(() => heard++);
    await dir.announceWork();
    await until(() => heard === 1);

    await server.restart();
    // Announce until one is heard: the subscriber reconnects (and resubscribes) on its own backoff.
    await until(async () => {
      await dir.announceWork().catch(() => undefined);
      return heard > 1;
    });

    await server.halt();
    const started = Date.now();
    await unwatch();
    expect(Date.now() - started).toBeLessThan(3_000);
    await server.restart();
  });
});
