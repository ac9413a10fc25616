export * from './types.ts';
export { KvWebhookOutbox } from './kv/kv-outbox.ts';
export { RedisWebhookOutbox } from './redis/redis-outbox.ts';
export { OutboxKeys } from './redis/keys.ts';
export { signPayload, verifySignature, SIGNATURE_HEADER } from './signature.ts';
export { sendWebhook, type WebhookRequestOut, type SendResult } from './send.ts';
export { nextAttemptAt, type RetryPolicy } from './retry-policy.ts';
