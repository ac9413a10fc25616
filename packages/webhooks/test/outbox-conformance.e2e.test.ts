import { useRedisBackend } from '@trawl/test-support/backends.ts';
import { RedisWebhookOutbox } from '../src/index.ts';
import { outboxConformance } from './outbox-suite.ts';

const redis = useRedisBackend();

outboxConformance([['redis', () => new RedisWebhookOutbox(redis.conn, redis.prefix())]]);
