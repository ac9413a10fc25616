import { useRedisBackend } from '@trawl/test-support/backends.ts';
import { RedisCrawlStore, RedisShardDirectory } from '../src/index.ts';
import { clusterViewCases } from './cluster-views-suite.ts';

const redis = useRedisBackend();

clusterViewCases([
  [
    'redis',
    () => {
      const prefix = redis.prefix();
      return { crawls: new RedisCrawlStore(redis.conn, prefix), directory: new RedisShardDirectory(redis.conn, prefix) };
    },
  ],
]);
