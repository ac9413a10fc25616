import { BasicCrawler } from '@crawlee/basic';
import { Configuration, log, Logger, LogLevel, Request, type IRequestManager } from '@crawlee/core';
import type { Log } from '@trawl/contract';
import type { HostScheduler } from './host-scheduler.ts';
import type { WorkerSettings } from './settings.ts';

// The only file that imports @crawlee/* (packages/crawler/test/crawlee-boundary.test.ts checks it): a Crawlee
// upgrade is read and tested here, against crawlee-adapter.test.ts (and .e2e.test.ts: run()), and nowhere else.

// Crawlee's own logging would print per-request noise (and URLs) to stdout; ours is the job record.
log.setLevel(LogLevel.ERROR);

/**
 * What Crawlee still logs (its own errors) goes to the process log as one line, never as its plain text on stdout:
 * the text may quote a request URL, so it travels as the `err` whose message the process logger scrubs.
 */
class ProcessLogger extends Logger {
  constructor(private readonly target: Log) {
    super({});
  }
  override _log(_level: LogLevel, message: string, _data?: unknown, exception?: unknown): void {
    this.target.error({ source: 'crawlee', err: asError(exception) ?? message }, 'crawlee error');
  }
}

/** Crawlee hands an exception over as a plain copy of its fields: an Error again, for the process logger's `err`. */
function asError(exception: unknown): Error | null {
  const e = exception as { name?: unknown; message?: unknown; stack?: unknown } | null | undefined;
  if (!e || typeof e.message !== 'string') return null;
  const err = new Error(e.message);
  err.name = typeof e.name === 'string' ? e.name : 'Error';
  err.stack = typeof e.stack === 'string' ? e.stack : err.stack;
  return err;
}

/** The only shared piece between a scheduler page and a Crawlee request is the lease token (its uniqueKey). */
function toRequest(url: string, token: string): Request {
  return new Request({ url, uniqueKey: token });
}

/**
 * Presents a HostScheduler as the request manager BasicCrawler pulls from. The worker never finishes by itself
 * (keepAlive), and pages enter the frontier only through crawl completions, never through Crawlee.
 */
export class SchedulerRequestManager implements IRequestManager {
  private wakeTimer: NodeJS.Timeout | null = null;
  private wakeAt = Number.POSITIVE_INFINITY;

  /** `onReady`: makes the pool look for a page now (AutoscaledPool.notify). */
  constructor(
    private readonly scheduler: HostScheduler,
    private readonly onReady: () => void = () => undefined,
  ) {}

  async isFinished(): Promise<boolean> {
    return false;
  }
  async isEmpty(): Promise<boolean> {
    const empty = this.scheduler.isEmpty();
    if (empty) this.wakeWhenDue();
    return empty;
  }
  /**
   * Nothing can start now: look again when a backoff or pause runs out. News (a host taken on or woken, a page
   * ended) reaches the pool without this; an idle worker with nothing waiting on time sets no timer at all.
   */
  private wakeWhenDue(): void {
    const at = this.scheduler.nextReadyAt();
    if (at === null || at >= this.wakeAt) return;
    if (this.wakeTimer) clearTimeout(this.wakeTimer);
    this.wakeAt = at;
    this.wakeTimer = setTimeout(() => {
      this.wakeTimer = null;
      this.wakeAt = Number.POSITIVE_INFINITY;
      this.onReady();
    }, Math.max(0, at - Date.now()));
    this.wakeTimer.unref();
  }
  /** Drops a pending wake-up (the runner stopped). */
  close(): void {
    if (this.wakeTimer) clearTimeout(this.wakeTimer);
    this.wakeTimer = null;
    this.wakeAt = Number.POSITIVE_INFINITY;
  }
  async handledCount(): Promise<number> {
    return this.scheduler.handledCount();
  }
  getTotalCount(): number {
    return this.scheduler.totalCount();
  }
  getPendingCount(): number {
    return this.scheduler.pendingCount();
  }
  async fetchNextRequest<T extends Record<string, any> = Record<string, any>>(): Promise<Request<T> | null> {
    const h = await this.scheduler.next();
    return h ? (toRequest(h.lease.request.url, h.lease.token) as Request<T>) : null;
  }
  async markRequestHandled(request: Request): Promise<null> {
    this.scheduler.markHandled(request.uniqueKey);
    return null;
  }
  async reclaimRequest(request: Request): Promise<null> {
    await this.scheduler.reclaim(request.uniqueKey);
    return null;
  }
  async addRequest(): Promise<never> {
    throw new Error('the frontier admits requests through crawl completions only');
  }
  async addRequestsBatched(): Promise<never> {
    throw new Error('the frontier admits requests through crawl completions only');
  }
  async *[Symbol.asyncIterator](): AsyncGenerator<Request> {
    for (;;) {
      const r = await this.fetchNextRequest();
      if (!r) return;
      yield r;
    }
  }
}

/**
 * BasicCrawler 3.18.1 documents a `requestManager` option but its exact-shape option check rejects it. Set the
 * two fields its constructor would set from that option; run() then uses our manager as is. Relies on private
 * fields: crawlee-adapter.test.ts fails if an upgrade renames them, crawlee-adapter.e2e.test.ts if run() stops
 * using them.
 */
export function attachRequestManager(crawler: BasicCrawler, manager: IRequestManager): void {
  Object.assign(crawler, { requestManager: manager, requestQueue: manager });
}

/** What a worker needs of its crawler: start pulling pages, and stop. */
export interface PageRunner {
  /** Runs until stopped; rejects only if Crawlee itself fails. */
  run(): Promise<unknown>;
  /** Stops taking pages and aborts the pool; pages in flight end on their own. */
  stop(): Promise<void>;
}

/**
 * A BasicCrawler pulling from `scheduler`, at a fixed concurrency, running `handle(token)` for each page (token:
 * the page's lease token). `handle` must settle page outcomes itself and never reject: Crawlee's retries are off.
 */
export function createPageRunner(
  scheduler: HostScheduler,
  settings: WorkerSettings,
  processLog: Log,
  handle: (token: string) => Promise<void>,
): PageRunner {
  // Process-wide in Crawlee: every worker of a process hands the same process log.
  log.setOptions({ logger: new ProcessLogger(processLog) });
  const crawler = createBasicCrawler(settings, handle);
  // The pool runs on news, not on a poll: a host taken on or woken, a backoff run out (the manager's timer), or a
  // page ended (the pool's own look after each task).
  const notify = () => void crawler.autoscaledPool?.notify();
  const manager = new SchedulerRequestManager(scheduler, notify);
  scheduler.onReady(notify);
  attachRequestManager(crawler, manager);
  let ended: Promise<void> | null = null;
  return {
    run: () => {
      const run = crawler.run();
      ended = run.then(
        () => undefined,
        () => undefined,
      );
      return run;
    },
    stop: async () => {
      manager.close();
      crawler.stop();
      // An abort that comes after run() began but before Crawlee's pool runs is forgotten when the pool starts, and
      // the pool then runs for ever (keepAlive): abort until run() has ended.
      let done = ended === null;
      void ended?.then(() => (done = true));
      while (!done) {
        await crawler.autoscaledPool?.abort();
        await Promise.race([ended, new Promise((r) => setTimeout(r, 20))]);
      }
    },
  };
}

/** How often the pool looks for a page when nothing told it to (s). */
const POOL_SAFETY_LOOK_S = 1;

/** The crawler with our options; exported for crawlee-adapter.test.ts. */
export function createBasicCrawler(settings: WorkerSettings, handle: (token: string) => Promise<void>): BasicCrawler {
  return new BasicCrawler(
    {
      keepAlive: true,
      maxConcurrency: settings.concurrency,
      minConcurrency: settings.concurrency,
      maxRequestRetries: 0,
      useSessionPool: false,
      retryOnBlocked: false,
      // A browser-rendered page may queue for a browser up to one fetch timeout before its own, and its result
      // may wait up to storeOutageMs for an unreachable store.
      requestHandlerTimeoutSecs: Math.ceil((2 * settings.fetchTimeoutMs + settings.storeOutageMs) / 1000) + 30,
      statusMessageLoggingInterval: 86_400,
      autoscaledPoolOptions: {
        desiredConcurrency: settings.concurrency,
        // Pages start on news (createPageRunner's notify), so the pool's own look is only a safety net: at its
        // former 20 ms an idle worker woke 50 times a second for it.
        maybeRunIntervalSecs: POOL_SAFETY_LOOK_S,
        // Concurrency is fixed (min = max), so neither the autoscaling step nor the system status it samples
        // (event loop twice a second, storage client once) steers anything: sampled once a minute, not logged.
        autoscaleIntervalSecs: 60,
        loggingIntervalSecs: null,
        snapshotterOptions: { eventLoopSnapshotIntervalSecs: 60, clientSnapshotIntervalSecs: 60 },
      },
      requestHandler: async ({ request }) => handle(request.uniqueKey),
    },
    // Concurrency is fixed (min = max), so Crawlee's system-info sampling steers nothing; at its default it
    // spawns `ps -A` every second in every worker. Sample once an hour instead.
    new Configuration({ persistStorage: false, purgeOnStart: false, systemInfoIntervalMillis: 3_600_000 }),
  );
}
