import { describe, expect, it } from 'vitest';
import { isStoreUnavailable, sendCommand } from '@trawl/redis';
import { QUOTA_USAGE_MONTHS_KEPT, RedisStore } from '../src/index.ts';
import { useRedisBackend } from '@trawl/test-support/backends.ts';
import { randomPrefix, rejectionWhileHalted } from '@trawl/test-support/redis-server.ts';
import { MONTH, quotaConformance } from './quota-suite.ts';

const redis = useRedisBackend();

quotaConformance([['redis', () => new RedisStore(redis.conn, redis.prefix())]]);

describe('quota keys in Redis', () => {
  it("expire with their month's usage, on the team's hash slot", async () => {
    const prefix = randomPrefix();
    const store = new RedisStore(redis.conn, prefix);
    await store.takeQuota('team_k', 'scrape', MONTH, 1);
    await store.returnQuota('team_k', 'scrape', MONTH, 1, 'run_k');
    const expected = Date.UTC(2031, 4 + 1 + QUOTA_USAGE_MONTHS_KEPT, 1);
    for (const key of [`${prefix}quota:{team_k}:used:${MONTH}`, `${prefix}quota:{team_k}:returned:${MONTH}`]) {
      expect(Number(await sendCommand(redis.conn, ['PEXPIRETIME', key])), key).toBe(expected);
    }
  });
});

describe('quotas on a Redis that cannot be reached', () => {
  it('reject with a store-unavailable error (the gateway answers 503), never a take let through', async () => {
    const err = await rejectionWhileHalted(
      async (conn) => {
        const store = new RedisStore(conn, randomPrefix());
        await store.setQuota('team_u', 'scrape', 5);
        expect((await store.takeQuota('team_u', 'scrape', MONTH, 1)).ok).toBe(true);
        return store;
      },
      (store) => store.takeQuota('team_u', 'scrape', MONTH, 1),
    );
    expect(isStoreUnavailable(err)).toBe(true);
  });
});
