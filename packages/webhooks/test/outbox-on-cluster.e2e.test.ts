import { it } from 'vitest';
import { useRedisClusterBackend } from '@trawl/test-support/backends.ts';
import { expectEachScriptRanInOneSlot, scriptsIn } from '@trawl/test-support/script-slots.ts';
import { RedisWebhookOutbox } from '../src/index.ts';
import { outboxConformance } from './outbox-suite.ts';

// The outbox conformance suite on a real Redis Cluster.
const cluster = useRedisClusterBackend();

outboxConformance([['redis cluster', () => new RedisWebhookOutbox(cluster.conn, cluster.prefix())]]);

// Last, once the suites above have run every script: each ran, and each run's keys were in one slot (computed).
it('ran every script of the package on the cluster, each with all its keys in one slot', () => {
  expectEachScriptRanInOneSlot(cluster.scriptRuns, scriptsIn([new URL('../src/redis/lua/', import.meta.url)]));
});
