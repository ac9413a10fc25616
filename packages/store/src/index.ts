export * from './types.ts';
export { newId, hashSecret, newApiKeySecret } from './ids.ts';
export { ARTIFACT_TOMBSTONE_S } from './retention.ts';
export { MemoryStore } from './memory/memory-store.ts';
export { RedisStore } from './redis/redis-store.ts';
