import { describe, expect, it } from 'vitest';
import { isStoreUnavailable } from '@trawl/redis';
import { RedisStore } from '../src/index.ts';
import { useRedisBackend } from '@trawl/test-support/backends.ts';
import { randomPrefix, rejectionWhileHalted } from '@trawl/test-support/redis-server.ts';
import { rateLimitConformance } from './rate-limit-suite.ts';
import { redisStores } from './store-backends.ts';

rateLimitConformance(redisStores(useRedisBackend()));

describe('rate limits on a Redis that cannot be reached', () => {
  it('reject with a store-unavailable error (the gateway answers 503), never a wrong decision', async () => {
    const err = await rejectionWhileHalted(
      async (conn) => {
        const store = new RedisStore(conn, randomPrefix());
        expect((await store.takeRateLimit('team_u', 'reads', 5)).allowed).toBe(true);
        return store;
      },
      (store) => store.takeRateLimit('team_u', 'reads', 5),
    );
    expect(isStoreUnavailable(err)).toBe(true);
  });
});
