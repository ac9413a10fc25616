export * from './types.ts';
export { MemoryCrawlStore } from './memory/memory-crawl-store.ts';
export { MemoryShardDirectory } from './memory/memory-shard-directory.ts';
export { RedisCrawlStore } from './redis/redis-crawl-store.ts';
export { RedisShardDirectory } from './redis/redis-shard-directory.ts';
export { FrontierKeys } from './redis/keys.ts';
export * from './url/index.ts';
