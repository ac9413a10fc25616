import type { RedisConnection } from '@trawl/redis';
import { MemoryTrendsJobStore } from './jobs/memory-job-store.ts';
import { RedisTrendsJobStore } from './jobs/redis-job-store.ts';
import type { TrendsJobStore, TrendsJobStoreOptions } from './jobs/types.ts';
import { MemoryRateLimiter, type RateLimitSettings, type UpstreamRateLimiter } from './rate-limit/rate-limiter.ts';
import { RedisRateLimiter } from './rate-limit/redis-rate-limiter.ts';

export interface TrendsBackends {
  jobs: TrendsJobStore;
  limiter: UpstreamRateLimiter;
}

/** Embedded (no Redis): in-process jobs and bucket. Cluster: both in Redis, shared by every process. */
export function createTrendsBackends(
  redis: RedisConnection | null,
  prefix: string,
  rate: RateLimitSettings,
  jobs: TrendsJobStoreOptions = {},
): TrendsBackends {
  if (!redis) return { jobs: new MemoryTrendsJobStore(jobs), limiter: new MemoryRateLimiter(rate) };
  return { jobs: new RedisTrendsJobStore(redis, prefix, jobs), limiter: new RedisRateLimiter(redis, prefix, rate) };
}
