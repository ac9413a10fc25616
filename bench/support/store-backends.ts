import { mkdtempSync, rmSync, statSync } from 'node:fs';
import { tmpdir } from 'node:os';
import { join } from 'node:path';
import { connectRedis } from '@trawl/redis';
import { startNodeProcess, startWorkerProcess, stop } from './processes.ts';
import { baseEnv, startRedis } from './trawl-cases.ts';

/**
 * The three stores of the embedded-store benchmark, each behind the gateway as an operator runs it: embedded on a
 * data directory (the default), embedded in memory (`TRAWL_DATA_DIR=:memory:`), and cluster mode on Redis with one
 * worker process. The admin token turns on /metrics, where the disk store's bytes in use are read.
 */
export const BACKENDS = ['memory', 'disk', 'redis'] as const;
export type BackendName = (typeof BACKENDS)[number];
export const ADMIN_TOKEN = 'bench-admin-0123456789abcdef';

const here = (p: string) => new URL(p, import.meta.url).pathname;
const root = new URL('../../', import.meta.url).pathname;

export interface Backend {
  name: BackendName;
  /** What points a Trawl process at this store's state: TRAWL_DATA_DIR or REDIS_URL. */
  stateEnv: Record<string, string>;
  url: string;
  /** The Trawl processes: the gateway, and the worker in cluster mode. */
  pids: number[];
  redis: { url: string; pid: number } | null;
  dataDir: string | null;
  /** Stops the Trawl processes; the state (directory, redis-server) stays. */
  stop(): Promise<void>;
  /** Removes the state. */
  remove(): void;
}

export async function startBackend(name: BackendName): Promise<Backend> {
  const redis = name === 'redis' ? await startRedis() : null;
  const dataDir = name === 'disk' ? mkdtempSync(join(tmpdir(), 'trawl-bench-store-')) : null;
  const stateEnv: Record<string, string> = redis ? { REDIS_URL: redis.url } : { TRAWL_DATA_DIR: dataDir ?? ':memory:' };
  const env = baseEnv({ ...stateEnv, TRAWL_ADMIN_TOKEN: ADMIN_TOKEN });
  const gw = await startNodeProcess<{ url: string }>(here('./gateway-server.ts'), { ...env, TRAWL_WORKERS: redis ? '0' : '1' });
  const worker = redis ? await startWorkerProcess(join(root, 'apps/worker/src/main.ts'), env) : null;
  // Let the worker register and take its shards before any clock starts (as crawl-light does).
  if (worker) await new Promise((r) => setTimeout(r, 2500));
  return {
    name,
    stateEnv,
    url: gw.info.url,
    pids: [gw.child.pid!, ...(worker ? [worker.pid!] : [])],
    redis: redis ? { url: redis.url, pid: redis.child.pid! } : null,
    dataDir,
    async stop() {
      if (worker) await stop(worker);
      await stop(gw.child);
    },
    remove() {
      if (redis) {
        redis.child.kill('SIGKILL');
        rmSync(redis.dir, { recursive: true, force: true });
      }
      if (dataDir) rmSync(dataDir, { recursive: true, force: true });
    },
  };
}

/**
 * What the store holds, in bytes: on disk the bytes in use (the product's own gauge) and the data file; in Redis
 * its used_memory (RAM: the benchmark's Redis persists nothing); null in memory (inside the gateway's RSS).
 */
export async function storedBytes(b: Backend): Promise<{ used: number; file: number | null } | null> {
  if (b.dataDir) {
    const text = await (await fetch(`${b.url}/metrics`, { headers: { authorization: `Bearer ${ADMIN_TOKEN}` } })).text();
    const used = Number(/^trawl_data_dir_used_bytes (\S+)$/m.exec(text)?.[1]);
    return { used, file: statSync(join(b.dataDir, 'trawl.mdb')).size };
  }
  if (b.redis) {
    const c = await connectRedis(b.redis.url, 'bench-stats');
    const info = await c.info('memory');
    await c.quit();
    return { used: Number(/^used_memory:(\d+)/m.exec(info)?.[1]), file: null };
  }
  return null;
}
