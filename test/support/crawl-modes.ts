import { startTestGateway, type TestGateway } from './gateway.ts';
import { startWorkerProcess, stopAllProcesses, type ManagedProcess } from './processes.ts';
import { connectRedis, type RedisConnection } from '@trawl/redis';
import { startRedisCluster, type RedisCluster } from './redis-cluster.ts';
import { randomPrefix, startRedisServer, type RedisServer } from './redis-server.ts';

/**
 * The mode matrix of the crawl suites: every suite runs once embedded (in-memory state, crawl workers inside
 * the gateway process) and once in cluster mode (state in a real redis-server, an in-process gateway that runs
 * no workers, and real `apps/worker` processes).
 */
export const MODES = ['embedded', 'cluster'] as const;
/**
 * The suites issue 31 names (caps across workers, kill -9 a worker, leases, politeness) also run on a real Redis
 * Cluster (3 masters, 3 replicas): the same processes with REDIS_CLUSTER_NODES in place of REDIS_URL.
 */
export const MODES_WITH_REDIS_CLUSTER = [...MODES, 'redis-cluster'] as const;
export type Mode = (typeof MODES_WITH_REDIS_CLUSTER)[number];

/**
 * Settings every crawl test shares. Fixture hostnames (*.test, *.co.uk) map to 127.0.0.1, which the SSRF guard
 * lets through (only that address). Leases, shard TTLs and heartbeats are short so a killed worker's work moves
 * within a couple of seconds.
 */
export const CRAWL_TEST_ENV: Record<string, string> = {
  TRAWL_HOST_RESOLVER_RULES: 'MAP *.test 127.0.0.1, MAP *.co.uk 127.0.0.1',
  TRAWL_ALLOW_PRIVATE: '127.0.0.1/32',
  TRAWL_LEASE_MS: '2000',
  TRAWL_SHARD_TTL_MS: '1000',
  TRAWL_HEARTBEAT_MS: '200',
  TRAWL_FETCH_TIMEOUT_MS: '10000',
  LOG_LEVEL: 'warn',
};

export type WorkerProcess = ManagedProcess & { workerIds: string[] };

export interface CrawlEnv {
  mode: Mode;
  gw: TestGateway;
  /** Cluster mode only. */
  redis: RedisServer | null;
  /** Redis-cluster mode only. */
  cluster: RedisCluster | null;
  /** Cluster modes: a new connection to the backend (one server or the cluster); the caller closes it. */
  connectRedis(): Promise<RedisConnection>;
  prefix: string | null;
  /** Cluster mode: the settings every process of this cluster runs with (for extra gateway or worker processes). */
  processEnv: Record<string, string> | null;
  /** Worker processes (cluster mode), in start order; killed ones stay listed. */
  workers: WorkerProcess[];
  /** Cluster mode: starts `n` more worker processes against the same Redis and prefix. */
  addWorkers(n: number): Promise<WorkerProcess[]>;
  /**
   * Another gateway on the same backend with other settings (cluster: same Redis and prefix, no workers of its
   * own; embedded: a separate in-memory gateway with its own workers). Closed with the environment.
   */
  extraGateway(env: Record<string, string>): Promise<TestGateway>;
  close(): Promise<void>;
}

export interface CrawlEnvOptions {
  /** Embedded: TRAWL_WORKERS of the gateway; cluster: worker processes (each runs one worker). Default 1. */
  workers?: number;
  /** Extra settings for the gateway and the workers. */
  env?: Record<string, string>;
}

export async function startCrawlEnv(mode: Mode, opts: CrawlEnvOptions = {}): Promise<CrawlEnv> {
  const count = opts.workers ?? 1;
  const extra: TestGateway[] = [];
  if (mode === 'embedded') {
    const gw = await startTestGateway({ ...CRAWL_TEST_ENV, TRAWL_WORKERS: String(count), ...opts.env });
    return {
      mode,
      gw,
      redis: null,
      cluster: null,
      connectRedis: () => Promise.reject(new Error('embedded mode has no Redis')),
      prefix: null,
      processEnv: null,
      workers: [],
      addWorkers: () => Promise.reject(new Error('embedded mode has no worker processes')),
      async extraGateway(env) {
        const g = await startTestGateway({ ...CRAWL_TEST_ENV, TRAWL_WORKERS: String(count), ...opts.env, ...env });
        extra.push(g);
        return g;
      },
      async close() {
        for (const g of [...extra, gw]) await g.close();
      },
    };
  }
  const redis = mode === 'cluster' ? await startRedisServer() : null;
  const cluster = mode === 'redis-cluster' ? await startRedisCluster() : null;
  const backend: Record<string, string> = redis ? { REDIS_URL: redis.url } : { REDIS_CLUSTER_NODES: cluster!.nodesEnv };
  const stopBackend = async () => {
    await redis?.stop();
    await cluster?.stop();
  };
  const prefix = randomPrefix();
  const shared = { ...CRAWL_TEST_ENV, ...backend, REDIS_PREFIX: prefix, ...opts.env };
  const workers: WorkerProcess[] = [];
  let gw: TestGateway | null = null;
  const addWorkers = async (n: number) => {
    const started = await Promise.all(
      Array.from({ length: n }, (_, i) => startWorkerProcess(`worker ${workers.length + i + 1}`, { ...shared, TRAWL_WORKERS: '1' })),
    );
    workers.push(...started);
    return started;
  };
  try {
    gw = await startTestGateway({ ...shared, TRAWL_WORKERS: '0' });
    await addWorkers(count);
  } catch (err) {
    await gw?.close();
    await stopAllProcesses();
    await stopBackend();
    throw err;
  }
  const gateway = gw;
  return {
    mode,
    gw: gateway,
    redis,
    cluster,
    connectRedis: () => connectRedis(redis ? redis.url : { clusterNodes: cluster!.urls }, 'test'),
    prefix,
    processEnv: shared,
    workers,
    addWorkers,
    async extraGateway(env) {
      const g = await startTestGateway({ ...shared, TRAWL_WORKERS: '0', ...env });
      extra.push(g);
      return g;
    },
    async close() {
      for (const g of [...extra, gateway]) await g.close();
      await Promise.all(workers.map((w) => w.stop(5_000)));
      // Anything else the test spawned against this cluster (e.g. a gateway process).
      await stopAllProcesses();
      await stopBackend();
    },
  };
}

/** Worker output for a failure message (cluster mode). */
export function workerLogs(env: CrawlEnv): string {
  return env.workers.map((w) => `--- ${w.name} (pid ${w.pid})\n${w.output()}`).join('\n');
}
