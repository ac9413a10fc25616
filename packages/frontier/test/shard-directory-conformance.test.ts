import { afterAll, beforeAll, describe, expect, it } from 'vitest';
import type { RedisConnection } from '@trawl/redis';
import { MemoryShardDirectory, RedisShardDirectory, type ShardDirectory } from '../src/index.ts';
import { connect, randomPrefix, useRedis } from '@trawl/test-support/redis-server.ts';

const redis = useRedis();
// A second connection, as a second process would have.
let other: RedisConnection;
beforeAll(async () => {
  other = await connect(redis.server.url);
});
afterAll(async () => {
  await other?.quit();
});

/** Two handles on one directory, as two processes would hold them (Redis: two connections). */
const backends: [string, () => [ShardDirectory, ShardDirectory]][] = [
  [
    'memory',
    () => {
      const d = new MemoryShardDirectory();
      return [d, d];
    },
  ],
  [
    'redis',
    () => {
      const prefix = randomPrefix();
      return [new RedisShardDirectory(redis.conn, prefix), new RedisShardDirectory(other, prefix)];
    },
  ],
];

describe.each(backends)('shard directory conformance: %s', (_name, make) => {
  it('gives a shard to one worker at a time, renews it for its owner only, and frees it on release', async () => {
    const [a, b] = make();
    await a.registerHost('a.test', 'crawl_1');
    expect(await b.shards()).toEqual(['a.test']);
    expect(await a.claimShard('a.test', 'w1', 10_000)).toBe(true);
    expect(await b.claimShard('a.test', 'w2', 10_000)).toBe(false);
    expect(await b.renewShards(['a.test'], 'w2', 10_000)).toEqual(['a.test']);
    expect(await a.renewShards(['a.test'], 'w1', 10_000)).toEqual([]);
    await b.releaseShard('a.test', 'w2'); // not the owner: no effect
    expect(await b.claimShard('a.test', 'w2', 10_000)).toBe(false);
    await a.releaseShard('a.test', 'w1');
    expect(await b.claimShard('a.test', 'w2', 10_000)).toBe(true);
    await a.unregisterCrawl('a.test', 'crawl_1');
    expect(await b.shards()).toEqual([]);
  });

  it('shares host slow-downs, never moving one earlier', async () => {
    const [a, b] = make();
    const now = Date.now();
    await a.slowHost('slow.test', now + 5_000, now);
    await b.slowHost('slow.test', now + 1_000, now);
    expect(await b.slowUntil('slow.test')).toBe(now + 5_000);
    expect(await a.slowUntil('other.test')).toBe(0);
  });

  it('delivers an announcement of work to every watcher, and none after it stops watching', async () => {
    const [a, b] = make();
    let seenByB = 0;
    let seenByA = 0;
    const stopB = await b.watchWork(() => seenByB++);
    const stopA = await a.watchWork(() => seenByA++);
    await a.announceWork();
    await expect.poll(() => seenByB, { timeout: 2_000 }).toBe(1);
    await expect.poll(() => seenByA, { timeout: 2_000 }).toBe(1);
    await stopB();
    await a.announceWork();
    await expect.poll(() => seenByA, { timeout: 2_000 }).toBe(2);
    expect(seenByB).toBe(1);
    await stopA();
  });
});
