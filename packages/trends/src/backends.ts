import type { Kv } from '@trawl/kv';
import type { RedisConnection } from '@trawl/redis';
import { KvTrendsJobStore } from './kv/kv-job-store.ts';
import { RedisTrendsJobStore } from './redis/redis-job-store.ts';
import type { TrendsJobStore, TrendsJobStoreOptions } from './jobs/types.ts';
import { MemoryRateLimiter, type RateLimitSettings, type UpstreamRateLimiter } from './rate-limit/rate-limiter.ts';
import { RedisRateLimiter } from './redis/redis-rate-limiter.ts';

export interface TrendsBackends {
  jobs: TrendsJobStore;
  limiter: UpstreamRateLimiter;
}

/** Where the process keeps its state: Redis under a key prefix (cluster mode), or its Kv and clock (embedded). */
export type TrendsState = { redis: RedisConnection; prefix: string } | { kv: Kv; now: () => number };

/**
 * Embedded: jobs in the process's Kv (on disk or in memory), the bucket in process (it holds nothing worth keeping
 * across a restart). Cluster: both in Redis, shared by every process.
 */
export function createTrendsBackends(state: TrendsState, rate: RateLimitSettings, jobs: TrendsJobStoreOptions = {}): TrendsBackends {
  if ('kv' in state) return { jobs: new KvTrendsJobStore(state.kv, '', jobs, state.now), limiter: new MemoryRateLimiter(rate) };
  return { jobs: new RedisTrendsJobStore(state.redis, state.prefix, jobs), limiter: new RedisRateLimiter(state.redis, state.prefix, rate) };
}
