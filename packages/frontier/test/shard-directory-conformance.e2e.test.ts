import { afterAll, beforeAll } from 'vitest';
import type { RedisConnection } from '@trawl/redis';
import { useRedisBackend } from '@trawl/test-support/backends.ts';
import { connect } from '@trawl/test-support/redis-server.ts';
import { RedisShardDirectory } from '../src/index.ts';
import { shardDirectoryConformance, TTL } from './shard-directory-suite.ts';

const redis = useRedisBackend();
// A second connection, as a second process would have.
let other: RedisConnection;
beforeAll(async () => {
  other = await connect(redis.server.url);
});
afterAll(async () => {
  await other?.quit();
});

shardDirectoryConformance([
  [
    'redis',
    () => {
      const prefix = redis.prefix();
      return [new RedisShardDirectory(redis.conn, prefix, TTL), new RedisShardDirectory(other, prefix, TTL)];
    },
  ],
]);
