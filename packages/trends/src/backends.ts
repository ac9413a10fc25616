import type { Kv } from '@trawl/kv';
import type { RedisConnection } from '@trawl/redis';
import { DiskTrendsJobStore } from './disk/disk-trends-job-store.ts';
import { MemoryTrendsJobStore } from './jobs/memory-job-store.ts';
import { RedisTrendsJobStore } from './jobs/redis-job-store.ts';
import type { TrendsJobStore, TrendsJobStoreOptions } from './jobs/types.ts';
import { MemoryRateLimiter, type RateLimitSettings, type UpstreamRateLimiter } from './rate-limit/rate-limiter.ts';
import { RedisRateLimiter } from './rate-limit/redis-rate-limiter.ts';

export interface TrendsBackends {
  jobs: TrendsJobStore;
  limiter: UpstreamRateLimiter;
}

/**
 * Embedded: jobs in memory, or on disk given the process's Kv (and its clock); the bucket in process either way (it
 * holds nothing worth keeping across a restart). Cluster: both in Redis, shared by every process.
 */
export function createTrendsBackends(
  redis: RedisConnection | null,
  prefix: string,
  rate: RateLimitSettings,
  jobs: TrendsJobStoreOptions = {},
  disk?: { kv: Kv; now: () => number },
): TrendsBackends {
  if (!redis && disk) return { jobs: new DiskTrendsJobStore(disk.kv, '', jobs, disk.now), limiter: new MemoryRateLimiter(rate) };
  if (!redis) return { jobs: new MemoryTrendsJobStore(jobs), limiter: new MemoryRateLimiter(rate) };
  return { jobs: new RedisTrendsJobStore(redis, prefix, jobs), limiter: new RedisRateLimiter(redis, prefix, rate) };
}
