import { MemoryStore, RedisStore, type Store } from '../src/index.ts';
import { randomPrefix, type useRedis } from '@trawl/test-support/redis-server.ts';

/** A test's clock: both backends are given its time (Redis too), so they see the same instants. */
export interface Clock {
  t: number;
}

/** The two backends every conformance suite runs on; each call makes a fresh store (Redis: a new key prefix). */
export function storeBackends(redis: ReturnType<typeof useRedis>): [string, (clock: Clock) => Store][] {
  return [
    ['memory', (clock) => new MemoryStore(() => clock.t)],
    ['redis', (clock) => new RedisStore(redis.conn, randomPrefix(), () => clock.t)],
  ];
}
