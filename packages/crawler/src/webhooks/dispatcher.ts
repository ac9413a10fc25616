import type { Log } from '@trawl/contract';
import { LruMap } from '@trawl/lru';
import type { CrawlStore } from '@trawl/frontier';
import { recordWebhookAttempt } from '@trawl/metrics';
import { nextAttemptAt, type ClaimedDelivery, type RetryPolicy, type SendResult, type WebhookOutbox, type WebhookRequestOut } from '@trawl/webhooks';
import { eventBody, eventHeaders } from './payload.ts';
import { pumpStream } from './pump.ts';

/** A claim outlives its attempt by this much: time to settle it after the answer (or the timeout). */
const LEASE_MARGIN_MS = 2_000;
/** An idle dispatcher's loops look this many times less often than a busy one's (doubling up to it). */
const IDLE_BACKOFF = 8;
/** Crawls remembered as having no open stream; far above the crawls a process serves at once. */
const CLOSED_MEMO = 10_000;

export interface WebhookSettings {
  /** Deliveries in flight in this process. */
  concurrency: number;
  /** One attempt's limit; a claim is leased a little longer. */
  timeoutMs: number;
  retry: RetryPolicy;
  /** How often due deliveries (retries, other processes' events) are looked for when nothing pokes. */
  pollMs: number;
  /** How often every open stream is pumped (events a dead process left unqueued, ends reached elsewhere). */
  sweepMs: number;
}

export interface DispatcherDeps {
  outbox: WebhookOutbox;
  crawls: CrawlStore;
  send(req: WebhookRequestOut): Promise<SendResult>;
  settings: WebhookSettings;
  artifactRetentionS: number;
  /** How long an ended stream's counters are kept (the crawl's retention). */
  keepMs: number;
  now: () => number;
  log: Log;
  onError(err: unknown): void;
}

/**
 * Delivers crawl webhooks from the outbox, at least once: claims due deliveries under a lease, POSTs them, and
 * settles each as delivered, due again (backoff) or given up. Runs beside the crawl workers of a process and never
 * in a page's path: a page only pokes it. A process that dies mid-delivery leaves a lease that lapses, and another
 * dispatcher sends the event again with the same id.
 */
export class WebhookDispatcher {
  private inflight = 0;
  private stopped = false;
  private ticking: Promise<void> | null = null;
  private again = false;
  private readonly pumps = new Map<string, { again: boolean }>();
  /**
   * Crawls with no webhook stream, or whose stream has ended: pokes for them cost nothing. Final either way: a
   * stream is opened before its crawl exists for any worker (crawl-service), and an ended one never reopens.
   */
  private readonly closed = new LruMap<string, true>(CLOSED_MEMO);
  private timers = new Set<NodeJS.Timeout>();
  private readonly deliveries = new Set<Promise<void>>();
  /** A claim found deliveries since the last poll; the poll backs off while none do (idle). */
  private claimed = false;

  constructor(private readonly d: DispatcherDeps) {}

  start(): void {
    const { pollMs, sweepMs } = this.d.settings;
    // Both loops look again at their interval while they find work, and back off to IDLE_BACKOFF times it while
    // they find none: an idle process claimed 4 times a second. Retries this dispatcher set are looked for when
    // due (deliver); what backing off delays is only work other processes left behind (a lapsed claim).
    let pollDelay = pollMs;
    const poll = () => {
      pollDelay = this.claimed || this.inflight > 0 ? pollMs : Math.min(pollDelay * 2, pollMs * IDLE_BACKOFF);
      this.claimed = false;
      this.kick();
      this.after(pollDelay, poll);
    };
    let sweepDelay = sweepMs;
    const sweep = () => {
      this.sweep()
        .then((open) => (sweepDelay = open > 0 ? sweepMs : Math.min(sweepDelay * 2, sweepMs * IDLE_BACKOFF)))
        .catch((err) => this.d.onError(err))
        .finally(() => this.after(sweepDelay, sweep));
    };
    this.after(pollMs, poll);
    this.after(sweepMs, sweep);
    this.kick();
  }

  /** Runs `fn` in `ms` unless stopped by then. */
  private after(ms: number, fn: () => void): void {
    if (this.stopped) return;
    const t = setTimeout(() => {
      this.timers.delete(t);
      fn();
    }, Math.max(0, ms));
    t.unref();
    this.timers.add(t);
  }

  /** Something happened to the crawl (a page delivered, started, ended): queue its events and send them. */
  poke(crawlId: string): void {
    if (this.stopped || this.closed.has(crawlId)) return;
    const running = this.pumps.get(crawlId);
    if (running) {
      running.again = true;
      return;
    }
    const state = { again: false };
    this.pumps.set(crawlId, state);
    void (async () => {
      try {
        do {
          state.again = false;
          const r = await pumpStream({ outbox: this.d.outbox, crawls: this.d.crawls, keepMs: this.d.keepMs, now: this.d.now }, crawlId);
          if (r.queued > 0) this.kick();
          if (!r.open) {
            this.closed.set(crawlId, true);
            break;
          }
        } while (state.again && !this.stopped);
      } catch (err) {
        this.d.onError(err);
      } finally {
        this.pumps.delete(crawlId);
      }
    })();
  }

  /** Stops claiming, and waits (at most one attempt's time) for the deliveries in flight. */
  async stop(): Promise<void> {
    this.stopped = true;
    for (const t of this.timers) clearTimeout(t);
    this.timers.clear();
    await this.ticking;
    const bound = new Promise((r) => setTimeout(r, this.d.settings.timeoutMs).unref());
    await Promise.race([Promise.allSettled([...this.deliveries]), bound]);
  }

  private kick(): void {
    if (this.stopped) return;
    if (this.ticking) {
      this.again = true;
      return;
    }
    this.ticking = this.tick()
      .catch((err) => this.d.onError(err))
      .finally(() => {
        this.ticking = null;
        if (this.again) {
          this.again = false;
          this.kick();
        }
      });
  }

  private async tick(): Promise<void> {
    const { settings } = this.d;
    while (!this.stopped && this.inflight < settings.concurrency) {
      const claimed = await this.d.outbox.claim(this.d.now(), settings.concurrency - this.inflight, settings.timeoutMs + LEASE_MARGIN_MS);
      if (claimed.length === 0) return;
      this.claimed = true;
      for (const c of claimed) {
        this.inflight++;
        const p = this.deliver(c)
          .catch((err) => this.d.onError(err))
          .finally(() => {
            this.inflight--;
            this.deliveries.delete(p);
            this.kick();
          });
        this.deliveries.add(p);
      }
    }
  }

  private async deliver(c: ClaimedDelivery): Promise<void> {
    const began = this.d.now();
    const body = await eventBody(this.d.crawls, c, this.d.artifactRetentionS);
    const result: SendResult =
      body === null
        ? { ok: false, reason: 'gone' }
        : await this.d.send({ url: c.config.url, body, headers: eventHeaders(c, body, this.d.now()), timeoutMs: this.d.settings.timeoutMs });
    const now = this.d.now();
    const seconds = (now - began) / 1000;
    // What the crawl's delivery log keeps of the attempt: the status and the time, never the answer.
    const report = { http_status: result.status ?? null, duration_ms: now - began };
    if (result.ok) {
      recordWebhookAttempt(c.entry.type, 'delivered', null, seconds);
      const pending = await this.d.outbox.settle(c.token, { kind: 'delivered' }, report);
      if (pending === 0) this.poke(c.crawl_id);
      return;
    }
    const at = nextAttemptAt(this.d.settings.retry, result.reason, c.attempt, now);
    recordWebhookAttempt(c.entry.type, at === null ? 'failed' : 'retry', result.reason, seconds);
    const pending = await this.d.outbox.settle(c.token, at === null ? { kind: 'failed', reason: result.reason } : { kind: 'retry', reason: result.reason, at }, report);
    if (at !== null) this.after(at - this.d.now(), () => this.kick());
    // The receiver's URL and answer stay out of the log: the crawl, the event and a reason of WEBHOOK_FAILURES.
    if (at === null) this.d.log.warn({ crawl_id: c.crawl_id, event_id: c.entry.id, attempts: c.attempt, reason: result.reason }, 'webhook delivery given up');
    if (pending === 0) this.poke(c.crawl_id);
  }

  /** Pumps open streams; returns how many there were. */
  private async sweep(): Promise<number> {
    if (this.stopped) return 0;
    const open = await this.d.outbox.openStreams(100);
    for (const crawlId of open) this.poke(crawlId);
    return open.length;
  }
}
