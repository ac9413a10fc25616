import { randomBytes } from 'node:crypto';
import { BasicCrawler } from '@crawlee/basic';
import { Configuration, log, LogLevel } from '@crawlee/core';
import { isStoreUnavailable, type CrawlStore, type ShardDirectory } from '@trawl/frontier';
import type { BrowserRenderer, ContentProcessor, LightFetcher } from '@trawl/scrape';
import type { Store } from '@trawl/store';
import { BUDGET_BLOCK, reserveCrawlCredits } from '../crawl-service.ts';
import { CrawlContexts } from './crawl-context.ts';
import { finalizeCrawl } from './finalize.ts';
import { FrontierRequestManager } from './frontier-request-manager.ts';
import { durable, runPageTask, type PageTaskDeps } from './page-task.ts';
import { RobotsCache } from './robots.ts';
import { DEFAULT_WORKER_SETTINGS, type WorkerSettings } from './settings.ts';
import { ShardKeeper } from './shard-keeper.ts';

export interface CrawlWorkerDeps {
  store: Store;
  crawls: CrawlStore;
  directory: ShardDirectory;
  light: LightFetcher;
  /** Renders pages of crawls that ask for browser controls. */
  browser: BrowserRenderer;
  content: ContentProcessor;
  settings?: Partial<WorkerSettings>;
  workerId?: string;
  onError?: (err: unknown) => void;
}

// Crawlee's own logging would print per-request noise (and URLs) to stdout; ours is the job record.
log.setLevel(LogLevel.ERROR);

/**
 * A worker actor: one Crawlee BasicCrawler whose request source is the shared frontier. It owns a fair share of
 * the hostname shards, runs pages through the light engine and content normalization, and settles crawls.
 */
export class CrawlWorker {
  readonly id: string;
  readonly settings: WorkerSettings;
  private readonly manager: FrontierRequestManager;
  private readonly keeper: ShardKeeper;
  private readonly crawler: BasicCrawler;
  private readonly deps: PageTaskDeps;
  private running: Promise<unknown> | null = null;
  private unwatch: Promise<() => Promise<void>> | null = null;
  private readonly onError: (err: unknown) => void;

  constructor(private readonly d: CrawlWorkerDeps) {
    this.id = d.workerId ?? `worker_${randomBytes(6).toString('base64url')}`;
    this.settings = { ...DEFAULT_WORKER_SETTINGS, ...d.settings };
    const onError = d.onError ?? ((err: unknown) => process.stderr.write(`crawl worker: ${(err as Error).message}\n`));
    this.onError = onError;
    this.manager = new FrontierRequestManager(d.crawls, this.settings, onError);
    const contexts = new CrawlContexts(d.crawls);
    const finalize = async (crawlId: string) => {
      const snap = await d.crawls.getCrawl(crawlId);
      const deps = { ...d, retentionMs: this.settings.crawlRetentionMs, storeOutageMs: this.settings.storeOutageMs };
      if (snap && (await finalizeCrawl(deps, snap))) contexts.forget(crawlId);
    };
    this.deps = {
      crawls: d.crawls,
      contexts,
      light: d.light,
      browser: d.browser,
      content: d.content,
      robots: this.settings.robots
        ? new RobotsCache(d.light, d.directory, this.settings.robotsTtlMs, Math.min(10_000, this.settings.fetchTimeoutMs))
        : null,
      settings: this.settings,
      onFinished: (crawlId) => {
        finalize(crawlId).catch(onError);
      },
      onNewHosts: async (crawlId, hosts) => {
        for (const h of hosts) await d.directory.registerHost(h, crawlId);
        await d.directory.announceWork();
      },
      onLinksAdmitted: (hosts) => {
        for (const h of hosts) this.manager.wakeHost(h);
      },
      onHostBackoff: async (host, until) => {
        const slot = this.manager.slot(host);
        if (slot) slot.slowUntil = Math.max(slot.slowUntil, until);
        await d.directory.slowHost(host, until, Date.now());
      },
      topUpBudget: async (crawlId) => {
        const snap = await d.crawls.getCrawl(crawlId);
        if (!snap) return false;
        const want = Math.min(BUDGET_BLOCK, snap.plan.max_pages - snap.counters.completed);
        const got = await reserveCrawlCredits(
          { store: d.store, crawls: d.crawls, directory: d.directory, billingMode: 'enforce', artifactRetentionS: 0, now: Date.now },
          snap.plan.team_id,
          snap.plan.run_id,
          Math.max(1, want),
        );
        if (got > 0) await d.crawls.addBudget(crawlId, got);
        return got > 0;
      },
    };
    this.keeper = new ShardKeeper({
      workerId: this.id,
      crawls: d.crawls,
      directory: d.directory,
      manager: this.manager,
      settings: this.settings,
      finalize,
      onError,
    });
    this.crawler = new BasicCrawler(
      {
        keepAlive: true,
        maxConcurrency: this.settings.concurrency,
        minConcurrency: this.settings.concurrency,
        maxRequestRetries: 0,
        useSessionPool: false,
        retryOnBlocked: false,
        // A browser-rendered page may queue for a browser up to one fetch timeout before its own, and its result
        // may wait up to storeOutageMs for an unreachable store.
        requestHandlerTimeoutSecs: Math.ceil((2 * this.settings.fetchTimeoutMs + this.settings.storeOutageMs) / 1000) + 30,
        statusMessageLoggingInterval: 86_400,
        autoscaledPoolOptions: { desiredConcurrency: this.settings.concurrency, maybeRunIntervalSecs: 0.02 },
        requestHandler: async ({ request }) => {
          const held = this.manager.heldLease(request.uniqueKey);
          if (!held) return;
          try {
            await runPageTask(this.deps, held.crawlId, held.lease);
          } catch (err) {
            onError(err);
            // The store stayed unreachable past storeOutageMs: nothing more can be written now. The lease lapses
            // and the page is crawled again, by whichever worker owns its host then.
            if (isStoreUnavailable(err)) return;
            // An internal fault is retried like a transient failure, then given up on as failed.
            const { crawlId, lease } = held;
            const last = lease.request.attempt + 1 >= this.settings.maxAttempts;
            // Never rejects: Crawlee would log the failed request (with its URL) and count it as its own.
            await durable<unknown>(this.deps, () =>
              last
                ? d.crawls.complete(crawlId, lease, { kind: 'failed', reason: 'internal_error' }, [], Date.now())
                : d.crawls.requeue(crawlId, lease, 'internal'),
            ).catch(onError);
          }
        },
      },
      // Concurrency is fixed (min = max), so Crawlee's system-info sampling steers nothing; at its default it
      // spawns `ps -A` every second in every worker. Sample once an hour instead.
      new Configuration({ persistStorage: false, purgeOnStart: false, systemInfoIntervalMillis: 3_600_000 }),
    );
    // BasicCrawler 3.18.1 documents a `requestManager` option but its exact-shape option check rejects it.
    // Set the two fields its constructor would set from that option; run() then uses our manager as is.
    Object.assign(this.crawler, { requestManager: this.manager, requestQueue: this.manager });
  }

  start(): void {
    this.keeper.start();
    // Crawlee's run only ends when stopped; should it fail, that is logged rather than left unhandled.
    this.running = this.crawler.run().catch((err: unknown) => this.onError(err));
    // New crawls and hosts are announced: react at once rather than at the next heartbeat.
    this.unwatch = this.d.directory.watchWork(() => this.nudge()).catch((err: unknown) => {
      this.onError(err);
      return async () => undefined;
    });
  }

  /** Stops taking work, lets in-flight pages finish, gives back shards and buffered leases. */
  async stop(): Promise<void> {
    await (await this.unwatch)?.();
    await this.keeper.stop();
    this.crawler.stop();
    await this.crawler.autoscaledPool?.abort();
    await this.running?.catch(() => undefined);
    await this.manager.shutdown();
  }

  /** Wakes idle hosts at once (e.g. a crawl was just created in this process). */
  nudge(): void {
    this.manager.wake();
    this.keeper.poke();
  }
}
