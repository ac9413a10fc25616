import { it } from 'vitest';
import { useRedisClusterBackend } from '@trawl/test-support/backends.ts';
import { expectEachScriptRanInOneSlot, scriptsIn } from '@trawl/test-support/script-slots.ts';
import { RedisCrawlStore, RedisShardDirectory } from '../src/index.ts';
import { clusterViewCases } from './cluster-views-suite.ts';
import { crawlStoreConformance } from './crawl-store-suite.ts';
import { shardDirectoryConformance, TTL } from './shard-directory-suite.ts';

// Every frontier conformance suite on a real Redis Cluster: a crawl's keys and scripts stay on its slot, and the
// views across crawls and workers read every master.
const cluster = useRedisClusterBackend();

crawlStoreConformance([['redis cluster', () => new RedisCrawlStore(cluster.conn, cluster.prefix())]]);
shardDirectoryConformance([
  [
    'redis cluster',
    () => {
      const prefix = cluster.prefix();
      return [new RedisShardDirectory(cluster.conn, prefix, TTL), new RedisShardDirectory(cluster.conn, prefix, TTL)];
    },
  ],
]);
clusterViewCases([
  [
    'redis cluster',
    () => {
      const prefix = cluster.prefix();
      return { crawls: new RedisCrawlStore(cluster.conn, prefix), directory: new RedisShardDirectory(cluster.conn, prefix) };
    },
  ],
]);

// Last, once the suites above have run every script: each ran, and each run's keys were in one slot (computed).
it('ran every script of the package on the cluster, each with all its keys in one slot', () => {
  expectEachScriptRanInOneSlot(cluster.scriptRuns, scriptsIn([new URL('../src/redis/lua/', import.meta.url), new URL('../../redis/src/lua/', import.meta.url)]));
});
