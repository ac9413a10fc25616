import { describe } from 'vitest';
import { RedisCrawlStore, RedisShardDirectory } from '@trawl/frontier';
import { RedisStore } from '@trawl/store';
import { randomPrefix, useRedis } from '@trawl/test-support/redis-server.ts';
import { operatorCrawlCases } from './operator-crawls-suite.ts';

const redis = useRedis();

describe('operator crawls: redis', () => {
  operatorCrawlCases(() => {
    const prefix = randomPrefix();
    return {
      store: new RedisStore(redis.conn, prefix),
      crawls: new RedisCrawlStore(redis.conn, prefix),
      directory: new RedisShardDirectory(redis.conn, prefix),
    };
  });
});
