import type { FastifyInstance } from 'fastify';
import { redisTarget, type TrawlConfig } from '@trawl/config';
import { crawlRunSource, type CrawlServices, type CrawlWorker } from '@trawl/crawler';
import { crawlRetentionMs, createRuntime, runtimeFaultLog, startTrendsRunners, startWorkers, type Logger, type Runtime } from '@trawl/process';
import type { TrendsRunner } from '@trawl/trends';
import { buildApp } from './app.ts';
import { BootstrapKeeper, bootstrapDefaultTeam, type Bootstrap } from './bootstrap.ts';
import type { GatewayContext } from './context.ts';

export interface RunningGateway {
  app: FastifyInstance;
  url: string;
  ctx: GatewayContext;
  runtime: Runtime;
  workers: CrawlWorker[];
  trendsRunners: TrendsRunner[];
  bootstrap: Bootstrap | null;
  close(): Promise<void>;
}

export interface GatewayOptions {
  now?: () => number;
  /** The process's logger (runProcess makes it; tests pass one writing to a stream); by default one on stdout. */
  log?: Logger;
}

/**
 * Builds a gateway from a parsed configuration. Embedded (neither REDIS_URL nor REDIS_CLUSTER_NODES): in-memory state and TRAWL_WORKERS
 * (default 1) crawl workers in this process. Cluster: state in Redis; workers run as `npm run worker` unless
 * TRAWL_WORKERS asks for some here too.
 */
export async function createGateway(config: TrawlConfig, opts: GatewayOptions = {}) {
  const runtime = await createRuntime(config, { now: opts.now, name: 'trawl-gateway', log: opts.log });
  const { store, now } = runtime;
  const workerCount = config.TRAWL_WORKERS ?? (redisTarget(config) ? 0 : 1);
  // Faults of background work: one JSON line each, a Redis outage once when it begins and once when it ends.
  const onError = runtimeFaultLog(runtime);
  const workers = startWorkers(runtime, workerCount, onError);
  // Search-trends jobs run wherever worker actors run: one runner per such process.
  const trendsRunners = startTrendsRunners(runtime, workerCount > 0 ? 1 : 0, onError);
  const keeper = new BootstrapKeeper(store, config, onError);
  const crawl: CrawlServices = {
    store,
    crawls: runtime.crawls,
    directory: runtime.directory,
    billingMode: config.TRAWL_BILLING_MODE,
    artifactRetentionS: config.TRAWL_ARTIFACT_RETENTION_S,
    crawlRetentionMs: crawlRetentionMs(config),
    now,
    log: runtime.log,
    webhooks: runtime.webhooks,
  };
  const ctx: GatewayContext = {
    config,
    store,
    light: runtime.light,
    browser: runtime.browser,
    content: runtime.content,
    now,
    space: runtime.space,
    runs: { store, billingMode: config.TRAWL_BILLING_MODE, artifactRetentionS: config.TRAWL_ARTIFACT_RETENTION_S, now },
    crawl,
    runAccess: { store, crawls: crawlRunSource(crawl), artifactRetentionS: config.TRAWL_ARTIFACT_RETENTION_S, now },
    trends: runtime.trends.jobs,
    onTrendsJobCreated: () => {
      for (const r of trendsRunners) r.nudge();
    },
    recoverKey: (secret) => keeper.recover(secret),
  };
  const bootstrap = await bootstrapDefaultTeam(store, config);
  // A Redis without persistence comes back empty: the bootstrap team and key are there again at reconnection.
  runtime.redis?.on('ready', () => void keeper.ensure());
  const app = await buildApp(ctx, runtime.log);
  // Requests in flight get TRAWL_SHUTDOWN_GRACE_S to finish (new ones are refused at once); then the engines close
  // under those still running (a render queued behind slow pages would otherwise hold the stop for minutes),
  // and they answer with the error of a closed engine.
  const close = async () => {
    const closing = app.close();
    let timer: NodeJS.Timeout | undefined;
    await Promise.race([closing, new Promise<void>((resolve) => (timer = setTimeout(resolve, config.TRAWL_SHUTDOWN_GRACE_S * 1000)))]);
    clearTimeout(timer);
    for (const w of workers) await w.stop();
    for (const r of trendsRunners) await r.stop();
    await runtime.close();
    // Requests have had their grace and their engines are gone: the ones still running now answer with the error of
    // a closed engine, which takes a few turns of the event loop (on a loaded machine, more than one at once); they
    // get up to ANSWER_AFTER_CLOSE_MS to write it. Then keep-alive connections that went idle after the close began,
    // which would otherwise hold it for the server's keep-alive timeout (72 s), are closed.
    app.server.closeIdleConnections();
    await Promise.race([closing, new Promise<void>((resolve) => (timer = setTimeout(resolve, ANSWER_AFTER_CLOSE_MS)))]);
    clearTimeout(timer);
    app.server.closeAllConnections();
    await closing;
  };
  return { app, ctx, runtime, workers, trendsRunners, bootstrap, close };
}

/** How long requests whose engines closed under them get to write their error answer before sockets close. */
const ANSWER_AFTER_CLOSE_MS = 2000;

export async function startGateway(config: TrawlConfig, opts: GatewayOptions = {}): Promise<RunningGateway> {
  const g = await createGateway(config, opts);
  const address = await g.app.listen({ port: config.PORT, host: config.HOST });
  return { ...g, url: address };
}
