import { randomBytes } from 'node:crypto';
import { INTERNAL_FAILURE, type Log } from '@trawl/contract';
import { isStoreUnavailable, type CrawlStore, type ShardDirectory } from '@trawl/frontier';
import { crawlBudgetWant, reserveCrawlCredits } from '@trawl/runs';
import type { BrowserRenderer, ContentProcessor, LightFetcher } from '@trawl/scrape';
import type { Store } from '@trawl/store';
import { CrawlContexts } from './crawl-context.ts';
import type { PageRunner } from './crawlee-adapter.ts';
import { logCrawlEvent } from '../crawl-log.ts';
import { finalizeCrawl } from './finalize.ts';
import { HostScheduler } from './host-scheduler.ts';
import { durable, runPageTask, type PageTaskDeps } from './page-task.ts';
import { RobotsCache } from './robots.ts';
import { DEFAULT_WORKER_SETTINGS, type WorkerSettings } from './settings.ts';
import { ShardKeeper } from './shard-keeper.ts';
import { WorkerReporter } from './worker-report.ts';

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
  /** Start and shutdown (info), shard claims and releases (debug), and the crawl lifecycle lines seen here. */
  log: Log;
  /** Told when a crawl this worker serves started, delivered a page or ended (the webhook dispatcher queues its events). */
  onCrawlEvent?: (crawlId: string) => void;
}

/**
 * A worker actor: one Crawlee BasicCrawler (crawlee-adapter.ts) whose request source is the shared frontier, through
 * the host scheduler. It owns a fair share of the hostname shards, runs pages through the light engine and content
 * normalization, and settles crawls.
 */
export class CrawlWorker {
  readonly id: string;
  readonly settings: WorkerSettings;
  private readonly manager: HostScheduler;
  private readonly keeper: ShardKeeper;
  /** Made when the engine has loaded (loadEngine): Crawlee loads with the first host, not with this module. */
  private crawler: PageRunner | null = null;
  private readonly runPage: (token: string) => Promise<void>;
  private stopping = false;
  private engineLoaded: Promise<void> | undefined;
  private readonly deps: PageTaskDeps;
  private running: Promise<unknown> | null = null;
  private unwatch: Promise<() => Promise<void>> | null = null;
  private readonly onError: (err: unknown) => void;

  constructor(private readonly d: CrawlWorkerDeps) {
    this.id = d.workerId ?? `worker_${randomBytes(6).toString('base64url')}`;
    this.settings = { ...DEFAULT_WORKER_SETTINGS, ...d.settings };
    const onError = d.onError ?? ((err: unknown) => d.log.error({ worker_id: this.id, err }, 'crawl worker error'));
    this.onError = onError;
    // The lease call that started a crawl reads it once more, for the ids and counts of its one "started" line.
    const notify = d.onCrawlEvent ?? (() => undefined);
    const started = (crawlId: string) => {
      notify(crawlId);
      d.crawls
        .getCrawl(crawlId)
        .then((snap) => snap && logCrawlEvent(d.log, 'started', snap, 'running'))
        .catch(onError);
    };
    this.manager = new HostScheduler(d.crawls, this.settings, onError, started, () => this.loadEngine());
    const contexts = new CrawlContexts(d.crawls);
    const finalize = async (crawlId: string) => {
      const snap = await d.crawls.getCrawl(crawlId);
      const deps = { ...d, retentionMs: this.settings.crawlRetentionMs, storeOutageMs: this.settings.storeOutageMs };
      if (snap && (await finalizeCrawl(deps, snap))) contexts.forget(crawlId);
      notify(crawlId);
    };
    this.deps = {
      crawls: d.crawls,
      contexts,
      light: d.light,
      browser: d.browser,
      content: d.content,
      memory: d.store,
      robots: this.settings.robots
        ? new RobotsCache(d.light, d.directory, this.settings.robotsTtlMs, Math.min(10_000, this.settings.fetchTimeoutMs))
        : null,
      settings: this.settings,
      onDelivered: notify,
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
        const want = crawlBudgetWant(snap.plan.max_pages, snap.counters.completed);
        const got = await reserveCrawlCredits({ store: d.store, now: Date.now }, snap.plan.team_id, snap.plan.run_id, want);
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
      reporter: new WorkerReporter(this.manager, Date.now()),
      finalize,
      onError,
      log: d.log,
    });
    this.runPage = async (token) => {
      const held = this.manager.heldLease(token);
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
            ? d.crawls.complete(crawlId, lease, { kind: 'failed', reason: INTERNAL_FAILURE }, [], Date.now())
            : d.crawls.requeue(crawlId, lease, 'internal'),
        ).catch(onError);
      }
    };
  }

  start(): void {
    this.d.log.info({ worker_id: this.id, concurrency: this.settings.concurrency }, 'crawl worker started');
    this.keeper.start();
    // New crawls and hosts are announced: react at once rather than at the next heartbeat.
    this.unwatch = this.d.directory.watchWork(() => this.nudge()).catch((err: unknown) => {
      this.onError(err);
      return async () => undefined;
    });
  }

  /**
   * Stops taking pages, lets the pages in flight finish (up to `shutdownGraceMs`) while this worker still owns
   * their hosts and keeps their shards alive, and only then gives back its shards and buffered leases. Without the
   * wait the process closed its engines under pages still running, and they came back as network retries.
   */
  async stop(): Promise<void> {
    const { log } = this.d;
    const handledBefore = this.manager.handledCount();
    log.info({ worker_id: this.id, in_flight: this.manager.inFlightCount(), grace_ms: this.settings.shutdownGraceMs }, 'crawl worker draining');
    this.stopping = true;
    await (await this.unwatch)?.();
    await this.crawler?.stop();
    await this.running?.catch(() => undefined);
    await this.manager.drain(this.settings.shutdownGraceMs);
    const finished = this.manager.handledCount() - handledBefore;
    // Still running past the grace: their leases lapse and another worker crawls them again.
    const unfinished = this.manager.inFlightCount();
    const returned = await this.keeper.stop();
    returned.leases += await this.manager.shutdown();
    log.info(
      { worker_id: this.id, pages_finished: finished, pages_unfinished: unfinished, leases_given_back: returned.leases, shards_released: returned.shards },
      'crawl worker stopped',
    );
  }

  /**
   * Crawlee (about 500 files with its dependencies) loads in the background when this worker takes on its first
   * host, or when a process asks for it (`loaded`), not with the process: a gateway answers at once after a
   * restart, and a module graph that size evaluated while a request waits would hold its answer (it did, by up
   * to half a second). Its run only ends when stopped; should it fail, that is logged rather than left unhandled.
   */
  private loadEngine(): Promise<void> {
    if (this.engineLoaded) return this.engineLoaded;
    const adapter = import('./crawlee-adapter.ts');
    this.engineLoaded = adapter.then(
      () => undefined,
      () => undefined,
    );
    this.running = adapter
      .then(({ createPageRunner }) => {
        if (this.stopping) return;
        this.crawler = createPageRunner(this.manager, this.settings, this.d.log, this.runPage);
        return this.crawler.run();
      })
      .catch((err: unknown) => this.onError(err));
    return this.engineLoaded;
  }

  /**
   * Loads the crawl engine and resolves once it has, so a process that says it is running can take a page at
   * once: a worker process waits for it before its banner; a gateway does not (it loads with its first host).
   */
  loaded(): Promise<void> {
    return this.loadEngine();
  }

  /** Wakes idle hosts at once (e.g. a crawl was just created in this process). */
  nudge(): void {
    this.manager.wake();
    this.keeper.poke();
  }
}
