import { it } from 'vitest';
import { useRedisClusterBackend } from '@trawl/test-support/backends.ts';
import { expectEachScriptRanInOneSlot, scriptsIn } from '@trawl/test-support/script-slots.ts';
import { RedisRateLimiter, RedisTrendsJobStore } from '../src/index.ts';
import { jobStoreConformance } from './job-store-suite.ts';
import { operatorJobCases } from './operator-jobs-suite.ts';
import { rateLimiterConformance } from './rate-limiter-suite.ts';

// Every trends conformance suite on a real Redis Cluster.
const cluster = useRedisClusterBackend();

jobStoreConformance([['redis cluster', (opts) => new RedisTrendsJobStore(cluster.conn, cluster.prefix(), opts)]]);
operatorJobCases([['redis cluster', () => new RedisTrendsJobStore(cluster.conn, cluster.prefix())]]);
rateLimiterConformance([['redis cluster', (s) => new RedisRateLimiter(cluster.conn, cluster.prefix(), s)]]);

// Last, once the suites above have run every script: each ran, and each run's keys were in one slot (computed).
it('ran every script of the package on the cluster, each with all its keys in one slot', () => {
  expectEachScriptRanInOneSlot(cluster.scriptRuns, scriptsIn([new URL('../src/redis/lua/', import.meta.url), new URL('../../redis/src/lua/', import.meta.url)]));
});
