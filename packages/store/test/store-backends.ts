import { randomPrefix, useKvBackends, type RedisBackend } from '@trawl/test-support/backends.ts';
import { KvStore, RedisStore, type Store } from '../src/index.ts';

/** A test's clock: every backend is given its time (Redis too, the Kv store's Kv too), so they see the same instants. */
export interface Clock {
  t: number;
}

/** Makes a fresh, empty store on the test's clock. */
export type MakeStore = (clock: Clock) => Store;

/** The Kv store on each Kv of @trawl/test-support/backends.ts (the unit lane): a fresh Kv per store. */
export function useKvStores(): [string, MakeStore][] {
  return useKvBackends().map(([name, open]) => [
    name,
    (clock) => {
      const now = () => clock.t;
      return new KvStore(open(now), randomPrefix(), now);
    },
  ]);
}

/** The Redis store (the e2e lane): a new key prefix per store on the file's redis-server. */
export function redisStores(redis: RedisBackend, name = 'redis'): [string, MakeStore][] {
  return [[name, (clock) => new RedisStore(redis.conn, redis.prefix(), () => clock.t)]];
}
