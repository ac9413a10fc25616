import { MemoryRecordIndex, type ExpiringEntry, type IndexEntry } from '@trawl/contract';
import { hostLoadsOf, reasonCounters } from '../crawl-counters.ts';
import { leaseTokenPrefix } from '../lease-token.ts';
import {
  crawlFailure,
  TERMINAL_STATUSES,
  type CompleteResult,
  type CrawlPlan,
  type CrawlSnapshot,
  type CrawlStatus,
  type CrawlStore,
  type FrontierRequest,
  type HostLoad,
  type Lease,
  type LeaseBatch,
  type PageResult,
} from '../types.ts';

interface CrawlState {
  plan: CrawlPlan;
  status: CrawlStatus;
  started_at: string | null;
  completed_at: string | null;
  failure: { code: string; message: string } | null;
  finalized: boolean;
  seen: Set<string>;
  queues: Map<string, FrontierRequest[]>;
  /** token -> lease and its expiry. */
  leases: Map<string, { request: FrontierRequest; until: number }>;
  items: string[];
  open: number;
  budget: number;
  dropped: number;
  counts: Map<string, number>;
}

const iso = (ms: number) => new Date(ms).toISOString();
const bump = (m: Map<string, number>, k: string, by = 1) => m.set(k, (m.get(k) ?? 0) + by);

/**
 * Embedded-mode crawl state. Single-threaded JavaScript makes every method atomic; semantics match the Redis
 * store's Lua scripts and are pinned by the same conformance suite.
 */
export class MemoryCrawlStore implements CrawlStore {
  private crawls = new Map<string, CrawlState>();
  /** Every crawl held, newest first, with the time an ended one is forgotten. */
  private index = new MemoryRecordIndex();

  constructor(private readonly clock: () => number = Date.now) {}

  /** The crawl's state, unless it is missing or past its expiry (then it is dropped). */
  private live(crawlId: string): CrawlState | undefined {
    const at = this.index.expiresAt(crawlId);
    if (at !== null && at <= this.clock()) {
      this.forget(crawlId);
      return undefined;
    }
    return this.crawls.get(crawlId);
  }

  private forget(crawlId: string) {
    this.crawls.delete(crawlId);
    this.index.remove(crawlId);
  }

  async createCrawl(plan: CrawlPlan, seeds: FrontierRequest[]): Promise<void> {
    // Expired crawls nobody asks about again are dropped here, so memory does not grow for ever.
    for (const id of this.index.due(this.clock())) this.forget(id);
    if (this.crawls.has(plan.crawl_id)) throw new Error('crawl already exists');
    const s: CrawlState = {
      plan: structuredClone(plan),
      status: 'queued',
      started_at: null,
      completed_at: null,
      failure: null,
      finalized: false,
      seen: new Set(),
      queues: new Map(),
      leases: new Map(),
      items: [],
      open: 0,
      budget: 0,
      dropped: 0,
      counts: new Map(),
    };
    for (const r of seeds) if (s.seen.size < plan.max_pages && !s.seen.has(r.url)) this.admit(s, r);
    this.crawls.set(plan.crawl_id, s);
    this.index.add(plan.crawl_id, plan.created_at, plan.team_id);
  }

  async getCrawl(crawlId: string): Promise<CrawlSnapshot | null> {
    const s = this.live(crawlId);
    if (!s) return null;
    let queued = 0;
    for (const q of s.queues.values()) queued += q.length;
    return {
      plan: structuredClone(s.plan),
      status: s.status,
      started_at: s.started_at,
      completed_at: s.completed_at,
      failure: s.failure ? { ...s.failure } : null,
      finalized: s.finalized,
      budget: s.budget,
      counters: {
        discovered: s.seen.size,
        queued,
        in_flight: s.leases.size,
        completed: s.items.length,
        dropped: s.dropped,
        ...reasonCounters(s.counts),
      },
    };
  }

  async statusOf(crawlId: string): Promise<CrawlStatus | null> {
    return this.live(crawlId)?.status ?? null;
  }

  async hostsOf(crawlId: string): Promise<string[]> {
    return [...(this.live(crawlId)?.queues.keys() ?? [])];
  }

  async lease(crawlId: string, host: string, max: number, leaseMs: number, now: number): Promise<LeaseBatch> {
    const s = this.live(crawlId);
    if (!s || (s.status !== 'queued' && s.status !== 'running')) return { leases: [], started: false };
    const q = s.queues.get(host);
    if (!q || q.length === 0) return { leases: [], started: false };
    const out: Lease[] = [];
    for (const request of q.splice(0, max)) {
      const token = leaseTokenPrefix(now);
      s.leases.set(token, { request, until: now + leaseMs });
      out.push({ token, request: { ...request } });
    }
    const started = s.status === 'queued';
    if (started) {
      s.status = 'running';
      s.started_at = iso(now);
    }
    return { leases: out, started };
  }

  async complete(crawlId: string, lease: Lease, result: PageResult, links: FrontierRequest[], now: number): Promise<CompleteResult> {
    const none: CompleteResult = { accepted: false, needBudget: false, seq: null, newHosts: [], finished: false };
    const s = this.live(crawlId);
    if (!s || !s.leases.has(lease.token)) return none;
    if (TERMINAL_STATUSES.includes(s.status)) {
      s.leases.delete(lease.token);
      s.dropped += 1;
      return none;
    }
    if (result.kind === 'delivered' && s.plan.billing_mode === 'enforce') {
      if (s.budget <= 0) return { ...none, needBudget: true };
      s.budget -= 1;
    }
    s.leases.delete(lease.token);
    let seq: number | null = null;
    if (result.kind === 'delivered') {
      s.items.push(result.item);
      seq = s.items.length - 1;
    } else {
      bump(s.counts, `${result.kind === 'failed' ? 'fail' : 'block'}:${result.reason}`);
    }
    const newHosts: string[] = [];
    for (const r of links) {
      if (s.seen.size >= s.plan.max_pages) break;
      if (s.seen.has(r.url)) continue;
      if (!s.queues.has(r.host)) newHosts.push(r.host);
      this.admit(s, r);
    }
    s.open -= 1;
    let finished = false;
    if (s.open === 0) {
      finished = true;
      this.finish(s, now);
    }
    return { accepted: true, needBudget: false, seq, newHosts, finished };
  }

  async reclaim(crawlId: string, now: number, max: number): Promise<number> {
    const s = this.live(crawlId);
    if (!s) return 0;
    const live = !TERMINAL_STATUSES.includes(s.status);
    let n = 0;
    for (const [token, l] of s.leases) {
      if (n >= max) break;
      if (l.until > now) continue;
      s.leases.delete(token);
      if (live) this.queueOf(s, l.request.host).unshift(l.request);
      else s.dropped += 1;
      n += 1;
    }
    return n;
  }

  async requeue(crawlId: string, lease: Lease, category: string | null): Promise<boolean> {
    const s = this.live(crawlId);
    const held = s?.leases.get(lease.token);
    if (!s || !held) return false;
    s.leases.delete(lease.token);
    if (TERMINAL_STATUSES.includes(s.status)) {
      // The crawl has ended (its queues were dropped): a lease handed back now is dropped too, never queued
      // again, or an ended crawl would show queued pages for ever (a worker giving up a shard hands back its
      // buffered leases after the crawl ended).
      s.dropped += 1;
      return false;
    }
    const r = { ...held.request, attempt: held.request.attempt + (category ? 1 : 0) };
    if (category) {
      bump(s.counts, `retry:${category}`);
      this.queueOf(s, r.host).push(r);
    } else {
      this.queueOf(s, r.host).unshift(r);
    }
    return true;
  }

  async renew(crawlId: string, tokens: string[], leaseMs: number, now: number): Promise<string[]> {
    const s = this.live(crawlId);
    const lost: string[] = [];
    for (const t of tokens) {
      const l = s?.leases.get(t);
      if (l) l.until = now + leaseMs;
      else lost.push(t);
    }
    return lost;
  }

  async transition(
    crawlId: string,
    from: readonly CrawlStatus[],
    to: CrawlStatus,
    now: number,
    failure?: { code: string; message: string },
  ): Promise<boolean> {
    const s = this.live(crawlId);
    if (!s || !from.includes(s.status)) return false;
    s.status = to;
    if (failure) s.failure = { ...failure };
    if (TERMINAL_STATUSES.includes(to)) {
      s.completed_at = iso(now);
      for (const q of s.queues.values()) {
        s.dropped += q.length;
        s.open -= q.length;
        q.length = 0;
      }
      s.dropped += s.leases.size;
      s.open -= s.leases.size;
      s.leases.clear();
    }
    return true;
  }

  async markFinalized(crawlId: string): Promise<boolean> {
    const s = this.live(crawlId);
    if (!s || s.finalized) return false;
    s.finalized = true;
    return true;
  }

  async addBudget(crawlId: string, credits: number): Promise<number> {
    const s = this.live(crawlId);
    if (!s) return 0;
    s.budget += credits;
    return s.budget;
  }

  async expireCrawl(crawlId: string, afterMs: number): Promise<void> {
    if (this.live(crawlId)) this.index.expireAt(crawlId, this.clock() + afterMs);
  }

  async listCrawls(q: { team_id?: string; after?: string; limit: number }): Promise<IndexEntry[]> {
    return this.index.page(q, this.clock());
  }

  async expiringCrawls(limit: number): Promise<ExpiringEntry[]> {
    return this.index.expiring(limit, this.clock());
  }

  async hostLoads(crawlId: string): Promise<HostLoad[]> {
    const s = this.live(crawlId);
    if (!s) return [];
    return hostLoadsOf(
      [...s.queues].map(([host, q]) => ({ host, queued: q.length })),
      [...s.leases].map(([token, l]) => ({ token, host: l.request.host })),
    );
  }

  async items(crawlId: string, fromSeq: number, limit: number): Promise<string[]> {
    return this.live(crawlId)?.items.slice(fromSeq, fromSeq + limit) ?? [];
  }

  async item(crawlId: string, seq: number): Promise<string | null> {
    return this.live(crawlId)?.items[seq] ?? null;
  }

  private queueOf(s: CrawlState, host: string): FrontierRequest[] {
    let q = s.queues.get(host);
    if (!q) s.queues.set(host, (q = []));
    return q;
  }

  private admit(s: CrawlState, r: FrontierRequest) {
    s.seen.add(r.url);
    this.queueOf(s, r.host).push({ ...r });
    s.open += 1;
  }


  private finish(s: CrawlState, now: number) {
    s.completed_at = iso(now);
    if (s.items.length > 0) {
      s.status = 'completed';
    } else {
      s.status = 'failed';
      s.failure = crawlFailure('no_pages_delivered');
    }
  }
}
