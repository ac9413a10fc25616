import { it } from 'vitest';
import { useRedisClusterBackend } from '@trawl/test-support/backends.ts';
import { expectEachScriptRanInOneSlot, scriptsIn } from '@trawl/test-support/script-slots.ts';
import { RedisStore } from '../src/index.ts';
import { quotaConformance } from './quota-suite.ts';
import { rateLimitConformance } from './rate-limit-suite.ts';
import { redisStores } from './store-backends.ts';
import { storeConformance } from './store-suite.ts';
import { teamAdminConformance } from './team-admin-suite.ts';

// Every store conformance suite on a real Redis Cluster: each multi-key command and script stays in one slot.
const cluster = useRedisClusterBackend();
const stores = redisStores(cluster, 'redis cluster');

storeConformance(stores);
rateLimitConformance(stores);
quotaConformance([['redis cluster', () => new RedisStore(cluster.conn, cluster.prefix())]]);
teamAdminConformance(stores);

// Last, once the suites above have run every script: each ran, and each run's keys were in one slot (computed).
it('ran every script of the package on the cluster, each with all its keys in one slot', () => {
  expectEachScriptRanInOneSlot(cluster.scriptRuns, scriptsIn([new URL('../src/redis/lua/', import.meta.url)]));
});
