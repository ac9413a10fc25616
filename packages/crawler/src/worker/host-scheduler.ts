import type { CrawlStore, Lease } from '@trawl/frontier';
import { HostSlot, type Held } from './host-slots.ts';
import type { WorkerSettings } from './settings.ts';

/**
 * How long a host whose queue came back empty waits before asking again (links admitted here wake it early): the
 * longer it stays empty, the longer, since only another worker's links or a lapsed lease can fill it then.
 */
const EMPTY_BACKOFF_MS = [20, 50, 100, 200, 400, 800];
/** The wait while the host has pages running here (they wake it when they admit links to it). */
const BUSY_EMPTY_MS = 200;
/** Leases held per host beyond those in flight, so one lease call feeds several pages. */
const BUFFER_FACTOR = 4;
/** How long a host waits to ask again after the store failed to answer (e.g. Redis is restarting). */
const STORE_RETRY_MS = 500;

/**
 * The page source of one worker: pages come from the hostname shards this worker owns, leased from the shared
 * crawl store in small batches, at most `hostConcurrency` in flight per host. Admission, dedup and caps live in
 * the crawl store, not here. Plain types only: crawlee-adapter.ts presents it to Crawlee as a request manager,
 * where a page is known by its lease token.
 */
export class HostScheduler {
  private slots = new Map<string, HostSlot>();
  private order: string[] = [];
  private cursor = 0;
  private held = new Map<string, Held>();
  /** Crawls seen paused or ended at the last heartbeat: their buffered leases are handed back, not started. */
  private idle = new Set<string>();
  private handled = 0;
  /** Told when a host may have a page to start now (taken on, woken): the page runner looks at once, not at a poll. */
  private readyListener: () => void = () => undefined;

  constructor(
    private readonly crawls: CrawlStore,
    private readonly settings: WorkerSettings,
    /** Store failures met here (they never reach Crawlee: a rejected fetch of the next request would end its run). */
    private readonly onError: (err: unknown) => void = () => undefined,
    /** The lease call that started a crawl (its first page, whichever worker leased it): called once per crawl. */
    private readonly onCrawlStarted: (crawlId: string) => void = () => undefined,
    /** A host was taken on (the worker has pages to run from now on). */
    private readonly onHostAdded: () => void = () => undefined,
  ) {}

  // --- shard ownership (driven by the shard keeper) ---

  ownedHosts(): string[] {
    return [...this.slots.keys()];
  }
  slot(host: string): HostSlot | undefined {
    return this.slots.get(host);
  }
  addHost(host: string, slowUntil: number): HostSlot {
    let s = this.slots.get(host);
    if (!s) {
      s = new HostSlot(host);
      this.slots.set(host, s);
      this.order.push(host);
      this.onHostAdded();
      this.readyListener();
    }
    s.slowUntil = Math.max(s.slowUntil, slowUntil);
    return s;
  }
  /**
   * Gives up a host: buffered (not started) leases go back to the front of their queues at once. Returns how many
   * went back (a lease the store could not take lapses instead).
   */
  async dropHost(host: string): Promise<number> {
    const s = this.slots.get(host);
    if (!s) return 0;
    this.slots.delete(host);
    this.order = this.order.filter((h) => h !== host);
    const buffered = s.buffer.splice(0);
    let back = 0;
    for (const h of buffered) if (await this.giveBack(h.crawlId, h.lease, null)) back++;
    return back;
  }
  /** Buffered and in-flight lease tokens per crawl, for renewal. */
  tokensByCrawl(): Map<string, string[]> {
    const out = new Map<string, string[]>();
    const add = (h: Held) => {
      let l = out.get(h.crawlId);
      if (!l) out.set(h.crawlId, (l = []));
      l.push(h.lease.token);
    };
    for (const s of this.slots.values()) for (const h of s.buffer) add(h);
    for (const h of this.held.values()) add(h);
    return out;
  }
  /** Leases the store says were lost (expired, re-leased elsewhere): stop holding them. */
  forgetTokens(tokens: Set<string>): void {
    for (const s of this.slots.values()) s.buffer = s.buffer.filter((h) => !tokens.has(h.lease.token));
  }
  /** Wakes hosts that found nothing, e.g. after new hosts or crawls were registered. */
  wake(): void {
    for (const s of this.slots.values()) {
      s.nextRefillAt = 0;
      s.emptyStreak = 0;
    }
    this.readyListener();
  }
  /** Wakes one host: this worker just admitted links to it, or its crawls changed. */
  wakeHost(host: string): void {
    const s = this.slots.get(host);
    if (s) {
      s.nextRefillAt = 0;
      s.emptyStreak = 0;
      this.readyListener();
    }
  }
  /** The page runner's wake-up: called whenever a host may have a page to start now. */
  onReady(listener: () => void): void {
    this.readyListener = listener;
  }

  /** Records which crawls may run; buffered leases of the others go back to the store. */
  async setIdleCrawls(idle: Set<string>): Promise<void> {
    // A crawl a host still serves that may run again (resumed) is asked for work at once, not at the next retry.
    const slots = [...this.slots.values()];
    if ([...this.idle].some((c) => !idle.has(c) && slots.some((s) => s.crawls.includes(c)))) this.wake();
    this.idle = idle;
    if (idle.size === 0) return;
    for (const s of this.slots.values()) {
      const keep: Held[] = [];
      const back: Held[] = [];
      for (const h of s.buffer) (idle.has(h.crawlId) ? back : keep).push(h);
      if (back.length === 0) continue;
      s.buffer = keep;
      for (const h of back) await this.giveBack(h.crawlId, h.lease, null);
    }
  }

  heldLease(token: string): Held | undefined {
    return this.held.get(token);
  }

  // --- the page source (crawlee-adapter.ts maps Crawlee's request-manager calls onto these) ---

  /** True when no host can start a page now (none buffered and ready, none due to ask the store). */
  isEmpty(): boolean {
    const now = Date.now();
    for (const s of this.slots.values()) {
      if (!s.ready(now, this.settings.hostConcurrency)) continue;
      if (s.buffer.length > 0 || (s.refilling === null && now >= s.nextRefillAt && s.crawls.length > 0)) return false;
    }
    return true;
  }

  /**
   * When a host may next have a page to start with no news from outside (an empty-queue backoff, a politeness pause
   * or a store retry running out), or null when none waits on time. A page ending is news: the runner looks then.
   * With isEmpty, it lets an idle runner sleep rather than poll.
   */
  nextReadyAt(): number | null {
    const hc = this.settings.hostConcurrency;
    let at = Number.POSITIVE_INFINITY;
    for (const s of this.slots.values()) {
      if (s.inflight >= hc) continue;
      if (s.buffer.length > 0) at = Math.min(at, s.slowUntil);
      else if (s.refilling === null && s.crawls.length > 0) at = Math.min(at, Math.max(s.slowUntil, s.nextRefillAt));
    }
    return at === Number.POSITIVE_INFINITY ? null : at;
  }

  handledCount(): number {
    return this.handled;
  }
  totalCount(): number {
    return this.handled + this.held.size;
  }
  /** Pages started and not yet ended. */
  inFlightCount(): number {
    return this.held.size;
  }
  pendingCount(): number {
    let n = 0;
    for (const s of this.slots.values()) n += s.buffer.length;
    return n;
  }

  /** The next page to start, round-robin over ready hosts (buffered ones first); null when none can start now. */
  async next(): Promise<Held | null> {
    const now = Date.now();
    const n = this.order.length;
    const hc = this.settings.hostConcurrency;
    for (let i = 0; i < n; i++) {
      const s = this.slots.get(this.order[(this.cursor + i) % n]);
      if (s && s.buffer.length > 0 && s.ready(now, hc)) {
        this.cursor = (this.cursor + i + 1) % n;
        return this.take(s);
      }
    }
    for (let i = 0; i < n; i++) {
      const s = this.slots.get(this.order[(this.cursor + i) % n]);
      if (!s || !s.ready(now, hc) || now < s.nextRefillAt || s.crawls.length === 0) continue;
      await this.refill(s);
      if (s.buffer.length > 0 && s.ready(Date.now(), hc) && this.slots.get(s.host) === s) {
        this.cursor = (this.cursor + i + 1) % n;
        return this.take(s);
      }
    }
    return null;
  }

  /** The page's task has ended (its outcome is recorded or its lease left to lapse). */
  markHandled(token: string): void {
    this.release(token);
    this.handled += 1;
  }

  /** Gives a started page back to its queue, counted as an internal retry. */
  async reclaim(token: string): Promise<void> {
    // Page outcomes are settled inside the handler; reaching here means the handler itself broke.
    const h = this.release(token);
    if (h) await this.giveBack(h.crawlId, h.lease, 'internal');
  }

  /** Resolves once no leased page is in flight here, or after `ms` (what is still running then lapses with its lease). */
  async drain(ms: number): Promise<void> {
    const until = Date.now() + ms;
    while (this.held.size > 0 && Date.now() < until) await new Promise((r) => setTimeout(r, 50));
  }

  /** Drops every host still held (shutdown): their buffered leases go back to their queues. Returns how many. */
  async shutdown(): Promise<number> {
    let back = 0;
    for (const host of [...this.slots.keys()]) back += await this.dropHost(host);
    return back;
  }

  private take(s: HostSlot): Held {
    const h = s.buffer.shift()!;
    s.inflight += 1;
    this.held.set(h.lease.token, h);
    return h;
  }

  private release(token: string): Held | undefined {
    const h = this.held.get(token);
    if (!h) return undefined;
    this.held.delete(token);
    const s = this.slots.get(h.lease.request.host);
    if (s) s.inflight -= 1;
    return h;
  }

  private refill(s: HostSlot): Promise<void> {
    if (!s.refilling) {
      s.refilling = this.doRefill(s).finally(() => {
        s.refilling = null;
      });
    }
    return s.refilling;
  }

  private async doRefill(s: HostSlot): Promise<void> {
    const want = BUFFER_FACTOR * this.settings.hostConcurrency - s.buffer.length - s.inflight;
    if (want <= 0) return;
    let got: Lease[] = [];
    let crawlId = '';
    try {
      for (let i = 0; i < s.crawls.length && got.length === 0; i++) {
        crawlId = s.crawls[s.rr++ % s.crawls.length];
        // Paused or ended at the last heartbeat: it has no page to lease, so it is not asked.
        if (this.idle.has(crawlId)) continue;
        const batch = await this.crawls.lease(crawlId, s.host, want, this.settings.leaseMs, Date.now());
        if (batch.started) this.onCrawlStarted(crawlId);
        got = batch.leases;
      }
    } catch (err) {
      // The store did not answer: this host asks again shortly; the worker itself carries on.
      this.onError(err);
      s.nextRefillAt = Date.now() + STORE_RETRY_MS;
      return;
    }
    // Pages of this host running here wake it when they admit links to it (wakeHost): while any is, or once a
    // lease took all its one crawl had queued, asking sooner only finds the queue empty.
    if (got.length === 0) {
      const idle = EMPTY_BACKOFF_MS[Math.min(s.emptyStreak++, EMPTY_BACKOFF_MS.length - 1)];
      s.nextRefillAt = Date.now() + (s.inflight > 0 ? BUSY_EMPTY_MS : idle);
      return;
    }
    s.emptyStreak = 0;
    if (got.length < want && s.crawls.length === 1) s.nextRefillAt = Date.now() + BUSY_EMPTY_MS;
    if (this.slots.get(s.host) !== s) {
      // The shard was given up while the lease call was in flight: hand the leases straight back.
      for (const lease of got) await this.giveBack(crawlId, lease, null);
      return;
    }
    for (const lease of got) s.buffer.push({ crawlId, lease });
  }

  /** Returns a lease to its queue; if the store cannot take it now, the lease lapses and is reclaimed instead. */
  private async giveBack(crawlId: string, lease: Lease, category: string | null): Promise<boolean> {
    try {
      return await this.crawls.requeue(crawlId, lease, category);
    } catch (err) {
      this.onError(err);
      return false;
    }
  }
}
