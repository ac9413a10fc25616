export * from './types.ts';
export { RedisCrawlStore, MAX_LEASE_MEMBERS } from './redis/redis-crawl-store.ts';
export { RedisShardDirectory } from './redis/redis-shard-directory.ts';
export { FrontierKeys } from './redis/keys.ts';
export { KvCrawlStore } from './kv/kv-crawl-store.ts';
export { KvShardDirectory } from './kv/kv-shard-directory.ts';
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
