export * from './types.ts';
export { newId, hashSecret, newApiKeySecret } from './ids.ts';
export { ARTIFACT_TOMBSTONE_S } from './retention.ts';
export { RedisStore } from './redis/redis-store.ts';
export { moveTeamKeysUnderTag } from './redis/team-keys-layout.ts';
export { KvStore } from './kv/kv-store.ts';
export { KV_CHARGE_MARK_TTL_S } from './kv/kv-ledger.ts';
export { quotaMonth, QUOTA_USAGE_MONTHS_KEPT } from './quota-rule.ts';
