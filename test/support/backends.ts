import { mkdtempSync, rmSync } from 'node:fs';
import { tmpdir } from 'node:os';
import { join } from 'node:path';
import { afterAll, beforeAll } from 'vitest';
import { openKv, openMemoryKv, type Kv } from '@trawl/kv';
import { isClusterConnection, type RedisConnection, type RedisServerConnection } from '@trawl/redis';
import { useRedisCluster, type RedisCluster, type RedisClusterOptions } from './redis-cluster.ts';
import { randomPrefix, useRedis, type RedisServer } from './redis-server.ts';
import { recordScriptRuns, type ScriptRuns } from './script-slots.ts';

/**
 * The backends every conformance suite runs on, from this one module: the two Kvs (in memory, and LMDB on a
 * temporary directory) that every Kv backend (KvStore, KvCrawlStore, ...) runs on in the unit lane, and Redis (a
 * real redis-server, a random key prefix per store) in the e2e lane. A suite's shared cases live in a module of its
 * own, run by a `*.test.ts` on `useKvBackends()` and a `*.e2e.test.ts` on `useRedisBackend()`.
 */

export { randomPrefix };

/** Opens a fresh, empty Kv on the given clock. */
export type OpenKv = (now?: () => number) => Kv;

/** A fresh Kv in memory: nothing on disk, nothing to remove (dropped with the last reference to it). */
export const memoryKv: OpenKv = (now) => openMemoryKv({ now });

/**
 * LMDB Kvs on fresh temporary directories for a test file: each call opens one; all are closed and their
 * directories removed after the file's tests.
 */
export function useLmdbKvs(): OpenKv {
  const opened: Kv[] = [];
  afterAll(async () => {
    for (const kv of opened.splice(0)) {
      await kv.close().catch(() => undefined);
      rmSync(kv.dir, { recursive: true, force: true });
    }
  });
  return (now) => {
    const kv = openKv({ dir: mkdtempSync(join(tmpdir(), 'trawl-kv-test-')), now });
    opened.push(kv);
    return kv;
  };
}

/** The unit lane's backends: both Kvs, by name (`describe.each` titles). */
export function useKvBackends(): [name: string, open: OpenKv][] {
  return [
    ['memory Kv', memoryKv],
    ['LMDB Kv', useLmdbKvs()],
  ];
}

export interface RedisBackend {
  readonly conn: RedisConnection;
  /** A key prefix no other store uses, so every store of the file shares the one server (or cluster). */
  prefix(): string;
}

/** The e2e lane's backend: one redis-server and connection for the test file (redis-server.ts `useRedis`). */
export function useRedisBackend(): RedisBackend & { readonly server: RedisServer; readonly conn: RedisServerConnection } {
  const redis = useRedis();
  return {
    get server() {
      return redis.server;
    },
    get conn() {
      return redis.conn;
    },
    prefix: randomPrefix,
  };
}

/**
 * The same backends on a real Redis Cluster (3 masters, 3 replicas by default; redis-cluster.ts): one cluster and
 * cluster connection for the test file. Each store's keys carry its crawl, team or job hash tag, so they land on
 * every master; a script whose keys span two slots fails here, as it would in production. `scriptRuns` holds the
 * slots of every script run's keys (script-slots.ts).
 */
export function useRedisClusterBackend(opts?: RedisClusterOptions): RedisBackend & { readonly cluster: RedisCluster; readonly scriptRuns: ScriptRuns } {
  const redis = useRedisCluster(opts);
  let runs: ScriptRuns | undefined;
  beforeAll(() => {
    const conn = redis.conn;
    if (!isClusterConnection(conn)) throw new Error('useRedisClusterBackend: not a cluster connection');
    runs = recordScriptRuns(conn);
  });
  return {
    get cluster() {
      return redis.cluster;
    },
    get conn() {
      return redis.conn;
    },
    get scriptRuns() {
      if (!runs) throw new Error('useRedisClusterBackend: used outside a test');
      return runs;
    },
    prefix: randomPrefix,
  };
}
