import { mkdtempSync, rmSync } from 'node:fs';
import { tmpdir } from 'node:os';
import { join } from 'node:path';
import { afterAll } from 'vitest';
import { openKv, type Kv } from '@trawl/kv';
import { DiskStore, MemoryStore, RedisStore, type Store } from '../src/index.ts';
import { randomPrefix, type useRedis } from '@trawl/test-support/redis-server.ts';

/** A test's clock: every backend is given its time (Redis too, the disk store's Kv too), so they see the same instants. */
export interface Clock {
  t: number;
}

const opened: Kv[] = [];
afterAll(async () => {
  for (const kv of opened.splice(0)) {
    await kv.close();
    rmSync(kv.dir, { recursive: true, force: true });
  }
});

/** A Kv on a fresh temporary directory, closed and removed after the file's tests. */
export function tempKv(now?: () => number): Kv {
  const kv = openKv({ dir: mkdtempSync(join(tmpdir(), 'trawl-store-')), now });
  opened.push(kv);
  return kv;
}

/** The backends every conformance suite runs on; each call makes a fresh store (Redis: a new key prefix; disk: a new Kv). */
export function storeBackends(redis: ReturnType<typeof useRedis>): [string, (clock: Clock) => Store][] {
  return [
    ['memory', (clock) => new MemoryStore(() => clock.t)],
    ['redis', (clock) => new RedisStore(redis.conn, randomPrefix(), () => clock.t)],
    [
      'disk',
      (clock) => {
        const now = () => clock.t;
        return new DiskStore(tempKv(now), randomPrefix(), now);
      },
    ],
  ];
}
