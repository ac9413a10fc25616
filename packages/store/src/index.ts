export * from './types.ts';
export { newId, hashSecret, newApiKeySecret } from './ids.ts';
export { ARTIFACT_TOMBSTONE_S } from './retention.ts';
export { MemoryStore, MAX_MEMORY_CHARGE_MARKS, MAX_MEMORY_SELECTOR_MEMORIES, MAX_MEMORY_IDEMPOTENCY_KEYS, MAX_MEMORY_LEDGER_ENTRIES, MAX_MEMORY_RATE_WINDOWS, MAX_MEMORY_QUOTA_RETURN_MARKS } from './memory/memory-store.ts';
export { RedisStore } from './redis/redis-store.ts';
export { DiskStore } from './disk/disk-store.ts';
export { DISK_CHARGE_MARK_TTL_S } from './disk/disk-ledger.ts';
export { quotaMonth, QUOTA_USAGE_MONTHS_KEPT } from './quota-rule.ts';
