import { redisTarget, type TrawlConfig } from '@trawl/config';
import { CrawlWorker, WebhookDispatcher, type WebhookSettings, type WorkerSettings } from '@trawl/crawler';
import { KvWebhookOutbox, RedisWebhookOutbox, sendWebhook, type SendResult, type WebhookOutbox, type WebhookRequestOut } from '@trawl/webhooks';
import { createBrowserPool, type BrowserPool } from '@trawl/browser';
import { createLightEngine, type LightEngine } from '@trawl/light-engine';
import {
  KvCrawlStore,
  KvShardDirectory,
  RedisCrawlStore,
  RedisShardDirectory,
  type CrawlStore,
  type ShardDirectory,
} from '@trawl/frontier';
import { HostResolverRules, SsrfGuard } from '@trawl/net';
import { closeConnection, connectRedis, isClusterConnection, isStoreUnavailable, type RedisConnection } from '@trawl/redis';
import { startMetricsServer, type MetricsServer } from '@trawl/metrics';
import { countStoreUnavailable, MetricsPortError, runtimeGauges } from './metrics.ts';
import { contentPoolSettings, createContentProcessor, type ContentProcessor } from '@trawl/scrape';
import { ARTIFACT_TOMBSTONE_S, KvStore, moveTeamKeysUnderTag, RedisStore, type Store } from '@trawl/store';
import { DataDirSpace, MEMORY_DIR, openKv, openMemoryKv, startExpirySweeper, type Kv } from '@trawl/kv';
import { createFaultLog, type FaultLog } from './fault-log.ts';
import { createLogger, type Logger } from './logger.ts';
import { createTrendsBackends, TrendsClient, TrendsRunner, type TrendsBackends, type TrendsRunnerSettings, type TrendsState } from '@trawl/trends';

/** TRAWL_DATA_DIR's value for an embedded store in the process's memory. */
export const IN_MEMORY = MEMORY_DIR;

/** The shared parts of a Trawl process: state backends (on a Kv, or Redis) and the light engine. */
export interface Runtime {
  config: TrawlConfig;
  store: Store;
  crawls: CrawlStore;
  directory: ShardDirectory;
  light: LightEngine;
  /** The Chromium pool (launched on first use). */
  browser: BrowserPool;
  /** Parsing and Markdown, off the event loop when threads are configured. */
  content: ContentProcessor;
  redis: RedisConnection | null;
  /** Crawl webhooks waiting to be delivered (the mode's store). */
  webhooks: WebhookOutbox;
  /** POSTs one webhook delivery through the process's SSRF guard (direct, never the proxy). */
  sendWebhook(req: WebhookRequestOut): Promise<SendResult>;
  /** Delivers webhooks where crawl workers run (started by startWorkers), stopped before the rest at close. */
  dispatcher: WebhookDispatcher | null;
  /** Search-trends jobs and the upstream rate limiter (in memory, or in Redis shared by the cluster). */
  trends: TrendsBackends;
  now: () => number;
  /** Embedded mode (on disk or in memory): what the store takes against TRAWL_DATA_MAX_BYTES; null in cluster mode. */
  space: DataDirSpace | null;
  /** Embedded mode: the Kv every backend shares (LMDB in the data directory, or in memory); null in cluster mode. */
  kv: Kv | null;
  /** The plain metrics listener (TRAWL_METRICS_PORT), or null when not configured. */
  metrics: MetricsServer | null;
  /** The process's logger (README "Logging"), handed to the workers and the gateway. */
  log: Logger;
  close(): Promise<void>;
}

/** `log`: the process's logger (runProcess makes it); without one, a logger of LOG_LEVEL named `name` on stdout. */
export async function createRuntime(config: TrawlConfig, opts: { now?: () => number; name?: string; log?: Logger } = {}): Promise<Runtime> {
  const now = opts.now ?? Date.now;
  const log = opts.log ?? createLogger(config, { name: opts.name ?? 'trawl' });
  const rules = HostResolverRules.parse(config.TRAWL_HOST_RESOLVER_RULES);
  const guard = new SsrfGuard({ allowPrivate: config.TRAWL_ALLOW_PRIVATE, rules });
  const light = createLightEngine({ guard, proxyUrl: config.TRAWL_PROXY_URL });
  const browser = createBrowserPool({
    guard,
    rules,
    executablePath: config.TRAWL_CHROMIUM_PATH,
    maxPages: config.TRAWL_BROWSER_PAGES,
    acquireTimeoutMs: config.TRAWL_BROWSER_ACQUIRE_MS,
    recyclePagesPerBrowser: config.TRAWL_BROWSER_RECYCLE_PAGES,
    settleMaxMs: config.TRAWL_BROWSER_SETTLE_MAX_MS,
  });
  // Content threads in two lanes under per-page deadlines, sized from cores and memory (packages/scrape content-pool.ts).
  const content = createContentProcessor(contentPoolSettings(config));
  let redis: RedisConnection | null = null;
  let store: Store;
  let crawls: CrawlStore;
  let directory: ShardDirectory;
  let kv: Kv | null = null;
  let webhooks: WebhookOutbox;
  let state: TrendsState;
  const target = redisTarget(config);
  if (target) {
    redis = await connectRedis(target, opts.name ?? 'trawl', config.TRAWL_REDIS_STARTUP_TIMEOUT_MS);
    // Teams and keys written by a version before the `{teams}` hash tag (only a single server can hold them).
    if (!isClusterConnection(redis)) {
      const moved = await moveTeamKeysUnderTag(redis, config.REDIS_PREFIX);
      if (moved > 0) log.info({ records: moved }, 'moved team and API-key records under the {teams} hash tag');
    }
    store = new RedisStore(redis, config.REDIS_PREFIX, now);
    crawls = new RedisCrawlStore(redis, config.REDIS_PREFIX);
    directory = new RedisShardDirectory(redis, config.REDIS_PREFIX, config.TRAWL_SHARD_TTL_MS * 2);
    webhooks = new RedisWebhookOutbox(redis, config.REDIS_PREFIX);
    state = { redis, prefix: config.REDIS_PREFIX };
  } else {
    // One process owns the directory (openKv refuses a second, naming the holder); every backend shares the Kv.
    // `:memory:` runs the same backends on a Kv in the process's memory, lost at exit.
    kv = config.TRAWL_DATA_DIR === IN_MEMORY ? openMemoryKv({ now }) : openKv({ dir: config.TRAWL_DATA_DIR, now });
    store = new KvStore(kv, '', now);
    crawls = new KvCrawlStore(kv, '', now);
    directory = new KvShardDirectory(kv, '', config.TRAWL_SHARD_TTL_MS * 2, now);
    webhooks = new KvWebhookOutbox(kv, '');
    state = { kv, now };
  }
  const trends = createTrendsBackends(
    state,
    { perWindow: config.TRAWL_TRENDS_RPM, windowMs: config.TRAWL_TRENDS_RATE_WINDOW_MS },
    { retentionMs: config.TRAWL_TRENDS_JOB_RETENTION_S * 1000 },
  );
  // Expired keys leave the Kv in the background (reads already treat them as absent).
  const stopSweeper = kv ? startExpirySweeper(kv, { onError: (err) => log.error({ err }, 'expiry sweep failed') }) : () => undefined;
  const space = kv ? dataDirSpace(kv, config, log) : null;
  const stopGauges = runtimeGauges({ browser, crawls, directory, space, now });
  let metrics: MetricsServer | null = null;
  if (config.TRAWL_METRICS_PORT !== undefined) {
    try {
      metrics = await startMetricsServer(config.TRAWL_METRICS_PORT, config.TRAWL_METRICS_HOST);
    } catch (err) {
      stopGauges();
      await Promise.allSettled([light.close(), browser.close(), content.close(), store.close()]);
      if (redis) await closeConnection(redis);
      stopSweeper();
      await kv?.close();
      throw metricsListenFailure(err, config);
    }
  }
  const rt: Runtime = {
    config,
    store,
    crawls,
    directory,
    light,
    browser,
    content,
    redis,
    webhooks,
    sendWebhook: (req) => sendWebhook(guard, req),
    dispatcher: null,
    trends,
    now,
    space,
    kv,
    metrics,
    log,
    async close() {
      await rt.dispatcher?.stop();
      stopGauges();
      await metrics?.close();
      await light.close();
      await browser.close();
      await content.close();
      await store.close();
      // Bounded: a process told to stop while Redis is down stops anyway.
      if (redis) await closeConnection(redis);
      stopSweeper();
      await kv?.close();
    },
  };
  return rt;
}

/**
 * TRAWL_DATA_MAX_BYTES on the embedded Kv (the data directory's, or the in-memory one's bytes held). Becoming full and having room again are each logged once, when a
 * measure (a creation request, a metrics scrape) first sees it.
 */
function dataDirSpace(kv: Kv, config: TrawlConfig, log: Logger): DataDirSpace {
  return new DataDirSpace(kv, {
    maxBytes: config.TRAWL_DATA_MAX_BYTES ?? null,
    onChange: (u) => {
      const figures = { kind: u.full ? 'data_dir_full' : 'data_dir_has_room', used_bytes: u.usedBytes, file_bytes: u.fileBytes, max_bytes: u.maxBytes };
      if (u.full) log.warn(figures, 'data directory full (TRAWL_DATA_MAX_BYTES): new work is refused until retention frees space');
      else log.info(figures, 'data directory has room again: new work is accepted');
    },
  });
}

/**
 * How long an ended crawl stays readable. By default like a crawl page's artifacts: readable for the retention,
 * answered 410 for a grace period, then gone.
 */
export function crawlRetentionMs(config: TrawlConfig): number {
  return (config.TRAWL_CRAWL_RETENTION_S ?? config.TRAWL_ARTIFACT_RETENTION_S + ARTIFACT_TOMBSTONE_S) * 1000;
}

export function workerSettings(config: TrawlConfig): Partial<WorkerSettings> {
  return {
    concurrency: config.TRAWL_WORKER_CONCURRENCY,
    hostConcurrency: config.TRAWL_HOST_CONCURRENCY,
    leaseMs: config.TRAWL_LEASE_MS,
    heartbeatMs: config.TRAWL_HEARTBEAT_MS,
    shardTtlMs: config.TRAWL_SHARD_TTL_MS,
    fetchTimeoutMs: config.TRAWL_FETCH_TIMEOUT_MS,
    crawlTimeoutMs: config.TRAWL_CRAWL_TIMEOUT_S * 1000,
    robots: config.TRAWL_ROBOTS,
    crawlRetentionMs: crawlRetentionMs(config),
    storeOutageMs: config.TRAWL_STORE_OUTAGE_MS,
    selectorMemoryTtlS: config.TRAWL_SELECTOR_MEMORY_TTL_S,
    shutdownGraceMs: config.TRAWL_SHUTDOWN_GRACE_S * 1000,
  };
}

export function webhookSettings(config: TrawlConfig): WebhookSettings {
  return {
    concurrency: config.TRAWL_WEBHOOK_CONCURRENCY,
    timeoutMs: config.TRAWL_WEBHOOK_TIMEOUT_MS,
    retry: { maxAttempts: config.TRAWL_WEBHOOK_MAX_ATTEMPTS, backoffMs: config.TRAWL_WEBHOOK_BACKOFF_MS, maxBackoffMs: config.TRAWL_WEBHOOK_BACKOFF_MAX_MS },
    pollMs: 250,
    sweepMs: 1_000,
  };
}

/** Starts `count` crawl workers on a runtime, and (with any) the process's webhook dispatcher. */
export function startWorkers(rt: Runtime, count: number, onError?: (err: unknown) => void): CrawlWorker[] {
  const workers: CrawlWorker[] = [];
  if (count > 0 && !rt.dispatcher) {
    rt.dispatcher = new WebhookDispatcher({
      outbox: rt.webhooks,
      crawls: rt.crawls,
      send: rt.sendWebhook,
      settings: webhookSettings(rt.config),
      artifactRetentionS: rt.config.TRAWL_ARTIFACT_RETENTION_S,
      keepMs: crawlRetentionMs(rt.config),
      now: rt.now,
      log: rt.log,
      onError: onError ?? ((err) => rt.log.error({ err }, 'webhook dispatcher error')),
    });
    rt.dispatcher.start();
  }
  const dispatcher = rt.dispatcher;
  for (let i = 0; i < count; i++) {
    const w = new CrawlWorker({
      store: rt.store,
      crawls: rt.crawls,
      directory: rt.directory,
      light: rt.light,
      browser: rt.browser,
      content: rt.content,
      settings: workerSettings(rt.config),
      onError,
      log: rt.log,
      onCrawlEvent: dispatcher ? (crawlId) => dispatcher.poke(crawlId) : undefined,
    });
    w.start();
    workers.push(w);
  }
  return workers;
}

export function trendsSettings(config: TrawlConfig): TrendsRunnerSettings {
  return {
    concurrency: config.TRAWL_TRENDS_CONCURRENCY,
    leaseMs: config.TRAWL_TRENDS_LEASE_MS,
    maxAttempts: config.TRAWL_TRENDS_MAX_ATTEMPTS,
    backoff: { baseMs: config.TRAWL_TRENDS_BACKOFF_MS, maxMs: config.TRAWL_TRENDS_BACKOFF_MAX_MS },
    cacheTtlMs: config.TRAWL_TRENDS_CACHE_S * 1000,
    // A safety net only: new and handed-back jobs are announced to every runner (TrendsJobStore.watch), and a
    // runner looks again when a retry it set is due. What it finds is a lapsed lease (15 s by default) of a runner
    // that died.
    pollMs: 5_000,
    storeOutageMs: config.TRAWL_STORE_OUTAGE_MS,
  };
}

/** Starts `count` search-trends job runners on a runtime; they share one upstream client (and its NID cookie). */
export function startTrendsRunners(rt: Runtime, count: number, onError: (err: unknown) => void): TrendsRunner[] {
  const client = new TrendsClient({
    http: rt.light,
    baseUrl: rt.config.TRAWL_TRENDS_BASE_URL,
    limiter: rt.trends.limiter,
    timeoutMs: rt.config.TRAWL_TRENDS_TIMEOUT_MS,
  });
  const runners: TrendsRunner[] = [];
  for (let i = 0; i < count; i++) {
    const r = new TrendsRunner({ jobs: rt.trends.jobs, client, limiter: rt.trends.limiter, settings: trendsSettings(rt.config), now: rt.now, onError });
    r.start();
    runners.push(r);
  }
  return runners;
}
export { runProcess } from './process-main.ts';
export { createLogger, prettyLines, type Logger, type LoggerTarget } from './logger.ts';
export type { FaultLog } from './fault-log.ts';

/**
 * The error sink for a runtime's background work: outages are logged once when they begin (the connection's own
 * error, or the first command that failed) and once when the connection is ready again (node-redis emits `ready`
 * after every reconnection), so a gateway without workers reports them too.
 */
export function runtimeFaultLog(rt: Runtime): FaultLog {
  const log = createFaultLog(rt.log);
  rt.redis?.on('error', (err: unknown) => {
    countStoreUnavailable('connection', err, isStoreUnavailable);
    log(err);
  });
  rt.redis?.on('ready', () => log.recovered());
  return Object.assign((err: unknown) => {
    countStoreUnavailable('background', err, isStoreUnavailable);
    log(err);
  }, { recovered: log.recovered });
}

/** A metrics port that cannot be bound is named as such (not as PORT) in the one start-up line. */
function metricsListenFailure(err: unknown, config: TrawlConfig): unknown {
  const code = (err as NodeJS.ErrnoException)?.code;
  if (code === 'EADDRINUSE' || code === 'EADDRNOTAVAIL') {
    return new MetricsPortError(`TRAWL_METRICS_PORT ${config.TRAWL_METRICS_PORT} on ${config.TRAWL_METRICS_HOST} cannot be bound (${code}): free it or set another`);
  }
  return err;
}
