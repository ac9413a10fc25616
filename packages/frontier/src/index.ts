export * from './types.ts';
export { MemoryCrawlStore } from './memory/memory-crawl-store.ts';
export { MemoryShardDirectory, MAX_MEMORY_ROBOTS, MAX_MEMORY_SLOW_HOSTS } from './memory/memory-shard-directory.ts';
export { RedisCrawlStore, MAX_LEASE_MEMBERS } from './redis/redis-crawl-store.ts';
export { RedisShardDirectory } from './redis/redis-shard-directory.ts';
export { FrontierKeys } from './redis/keys.ts';
export { DiskCrawlStore } from './disk/disk-crawl-store.ts';
export { DiskShardDirectory } from './disk/disk-shard-directory.ts';
export {
  frontierStats,
  listWorkers,
  FrontierStatsInput,
  type FrontierStats,
  type FrontierStatsQuery,
  type FrontierViewDeps,
  type HostShardStats,
} from './cluster-views.ts';
export * from './url/index.ts';
// Outage handling for the crawl worker, which reaches Redis only through the frontier and the store.
export { isStoreUnavailable, whileStoreUnavailable, type OutageRetry } from '@trawl/redis';
