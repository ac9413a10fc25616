import { describe } from 'vitest';
import { RedisCrawlStore } from '@trawl/frontier';
import { RedisTrendsJobStore } from '@trawl/trends';
import { randomPrefix, useRedis } from '@trawl/test-support/redis-server.ts';
import { retentionViewCases } from './retention-view-suite.ts';

const redis = useRedis();

describe('retention upcoming: redis', () => {
  retentionViewCases((retentionMs) => {
    const prefix = randomPrefix();
    return { crawls: new RedisCrawlStore(redis.conn, prefix), trends: new RedisTrendsJobStore(redis.conn, prefix, { retentionMs }) };
  });
});
