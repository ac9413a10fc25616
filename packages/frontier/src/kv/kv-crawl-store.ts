import { expiringEntries, indexEntries, indexKey, type ExpiringEntry, type IndexEntry } from '@trawl/contract';
import { KvRecordIndex, type Kv, type KvTx } from '@trawl/kv';
import { hostLoadsOf, reasonCounters } from '../crawl-counters.ts';
import { leaseTokenPrefix } from '../lease-token.ts';
import {
  BUDGET_WAIT_MS,
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
import { CrawlRecord, type KvCrawlMeta } from './kv-crawl-record.ts';
import { KvFrontierKeys } from './keys.ts';

const iso = (ms: number) => new Date(ms).toISOString();

/**
 * Embedded-mode crawl state on a Kv (LMDB or in memory, shared by the process's backends). Each method is one Kv transaction,
 * applying the rules of the Redis store's Lua scripts (crawl-*.lua) and pinned by the same conformance suite;
 * nothing per crawl or page is held in memory.
 */
export class KvCrawlStore implements CrawlStore {
  private readonly k: KvFrontierKeys;
  private readonly index: KvRecordIndex;

  constructor(
    private readonly kv: Kv,
    prefix = '',
    private readonly clock: () => number = Date.now,
  ) {
    this.k = new KvFrontierKeys(prefix);
    this.index = new KvRecordIndex(this.k.crawlIndex());
  }

  /** Runs `fn` on the crawl in one transaction; `none` when there is no such crawl (or it was forgotten). */
  private withCrawl<T>(crawlId: string, none: T, fn: (c: CrawlRecord, tx: KvTx) => T): T {
    return this.kv.transact((tx) => {
      const c = CrawlRecord.open(tx, this.k.crawl(crawlId));
      return c === null ? none : fn(c, tx);
    });
  }

  async createCrawl(plan: CrawlPlan, seeds: FrontierRequest[]): Promise<void> {
    const k = this.k.crawl(plan.crawl_id);
    this.kv.transact((tx) => {
      if (tx.has(k.meta)) throw new Error('crawl already exists');
      const meta: KvCrawlMeta = {
        status: 'queued',
        started_at: null,
        completed_at: null,
        failure: null,
        finalized: false,
        budget: 0,
        admitted: 0,
        open: 0,
        queued: 0,
        leased: 0,
        items: 0,
        dropped: 0,
        counts: {},
        max_pages: plan.max_pages,
        billing: plan.billing_mode,
        team_id: plan.team_id,
        index_key: indexKey(plan.created_at, plan.crawl_id),
        expires_at: null,
      };
      const c = new CrawlRecord(tx, k, meta);
      for (const r of seeds) c.admit(r);
      c.put(k.plan, plan);
      c.save();
      this.index.add(tx, meta.index_key, plan.team_id);
    });
  }

  async getCrawl(crawlId: string): Promise<CrawlSnapshot | null> {
    return this.withCrawl(crawlId, null, ({ meta: m, k }, tx) => {
      return {
        plan: tx.get<CrawlPlan>(k.plan)!,
        status: m.status,
        started_at: m.started_at,
        completed_at: m.completed_at,
        failure: m.failure,
        finalized: m.finalized,
        budget: m.budget,
        counters: {
          discovered: m.admitted,
          queued: m.queued,
          in_flight: m.leased,
          completed: m.items,
          dropped: m.dropped,
          ...reasonCounters(Object.entries(m.counts)),
        },
      };
    });
  }

  async statusOf(crawlId: string): Promise<CrawlStatus | null> {
    return this.withCrawl(crawlId, null, (c) => c.meta.status);
  }

  async hostsOf(crawlId: string): Promise<string[]> {
    return this.withCrawl(crawlId, [], (c) => [...c.hosts()].map((h) => h.host));
  }

  async lease(crawlId: string, host: string, max: number, leaseMs: number, now: number): Promise<LeaseBatch> {
    const none: LeaseBatch = { leases: [], started: false };
    return this.withCrawl(crawlId, none, (c) => {
      if (c.meta.status !== 'queued' && c.meta.status !== 'running') return none;
      const popped = c.pop(host, max);
      if (popped.length === 0) return none;
      const prefix = leaseTokenPrefix(now);
      const leases = popped.map((request, i) => {
        const token = `${prefix}${i + 1}`;
        c.addLease(token, request, now + leaseMs);
        return { token, request };
      });
      const started = c.meta.status === 'queued';
      if (started) {
        c.meta.status = 'running';
        c.meta.started_at = iso(now);
      }
      c.save();
      return { leases, started };
    });
  }

  async complete(crawlId: string, lease: Lease, result: PageResult, links: FrontierRequest[], now: number): Promise<CompleteResult> {
    const none: CompleteResult = { accepted: false, needBudget: false, seq: null, newHosts: [], finished: false };
    return this.withCrawl(crawlId, none, (c) => {
      const m = c.meta;
      if (TERMINAL_STATUSES.includes(m.status)) {
        // A lease still held by an ended crawl is dropped with it (its transition normally dropped it already).
        if (c.takeLease(lease.token)) {
          m.dropped += 1;
          c.save();
        }
        return none;
      }
      if (c.lease(lease.token) === undefined) return none;
      const delivered = result.kind === 'delivered';
      if (delivered && m.billing === 'enforce') {
        if (m.budget <= 0) {
          c.renewLease(lease.token, now + BUDGET_WAIT_MS);
          return { ...none, needBudget: true };
        }
        m.budget -= 1;
      }
      c.takeLease(lease.token);
      let seq: number | null = null;
      if (result.kind === 'delivered') {
        seq = m.items++;
        c.put(c.k.item(seq), result.item);
      } else {
        c.bump(`${result.kind === 'failed' ? 'fail' : 'block'}:${result.reason}`);
      }
      const newHosts: string[] = [];
      for (const r of links) {
        if (m.admitted >= m.max_pages) break;
        if (c.admit(r).newHost) newHosts.push(r.host);
      }
      m.open -= 1;
      const finished = m.open === 0;
      if (finished) {
        m.completed_at = iso(now);
        if (m.items > 0) {
          m.status = 'completed';
        } else {
          m.status = 'failed';
          m.failure = crawlFailure('no_pages_delivered');
        }
      }
      c.save();
      return { accepted: true, needBudget: false, seq, newHosts, finished };
    });
  }

  async reclaim(crawlId: string, now: number, max: number): Promise<number> {
    return this.withCrawl(crawlId, 0, (c) => {
      const tokens = c.expiredLeases(now, max);
      if (tokens.length === 0) return 0;
      const live = !TERMINAL_STATUSES.includes(c.meta.status);
      for (const t of tokens) {
        const request = c.takeLease(t)!;
        if (live) c.push(request, 'front');
        else c.meta.dropped += 1;
      }
      c.save();
      return tokens.length;
    });
  }

  async requeue(crawlId: string, lease: Lease, category: string | null): Promise<boolean> {
    return this.withCrawl(crawlId, false, (c) => {
      const held = c.takeLease(lease.token);
      if (held === undefined) return false;
      if (TERMINAL_STATUSES.includes(c.meta.status)) {
        // The crawl has ended (its queues were dropped): a lease handed back now is dropped too, never queued again.
        c.meta.dropped += 1;
        c.save();
        return false;
      }
      if (category) {
        c.bump(`retry:${category}`);
        c.push({ ...held, attempt: held.attempt + 1 }, 'back');
      } else {
        c.push(held, 'front');
      }
      c.save();
      return true;
    });
  }

  async renew(crawlId: string, tokens: string[], leaseMs: number, now: number): Promise<string[]> {
    return this.withCrawl(crawlId, [...tokens], (c) => tokens.filter((t) => !c.renewLease(t, now + leaseMs)));
  }

  async transition(
    crawlId: string,
    from: readonly CrawlStatus[],
    to: CrawlStatus,
    now: number,
    failure?: { code: string; message: string },
  ): Promise<boolean> {
    return this.withCrawl(crawlId, false, (c) => {
      const m = c.meta;
      if (!from.includes(m.status)) return false;
      m.status = to;
      if (failure) m.failure = { ...failure };
      if (TERMINAL_STATUSES.includes(to)) {
        const dropped = c.dropAll();
        m.dropped += dropped;
        m.open -= dropped;
        m.completed_at = iso(now);
      }
      c.save();
      return true;
    });
  }

  async markFinalized(crawlId: string): Promise<boolean> {
    return this.withCrawl(crawlId, false, (c) => {
      if (c.meta.finalized) return false;
      c.meta.finalized = true;
      c.save();
      return true;
    });
  }

  async expireCrawl(crawlId: string, afterMs: number): Promise<void> {
    const at = this.clock() + Math.max(1, Math.round(afterMs));
    this.withCrawl(crawlId, undefined, (c, tx) => {
      c.meta.expires_at = at;
      // The meta expires on its own (every read of the crawl opens it first, so the crawl reads as gone at once);
      // every other key (seen-set, queues, leases, items) goes with the prefix, deleted by sweeps with no rewrite.
      c.save();
      tx.expirePrefix(c.k.base, at);
      this.index.expireAt(tx, c.meta.index_key, c.meta.team_id, at);
    });
  }

  async addBudget(crawlId: string, credits: number): Promise<number> {
    return this.withCrawl(crawlId, 0, (c) => {
      c.meta.budget += credits;
      c.save();
      return c.meta.budget;
    });
  }

  async items(crawlId: string, fromSeq: number, limit: number): Promise<string[]> {
    if (limit <= 0) return [];
    const k = this.k.crawl(crawlId);
    return this.kv.transact((tx) =>
      tx.has(k.meta) ? [...tx.range<string>({ prefix: k.items, start: k.item(Math.max(0, fromSeq)), limit })].map((e) => e.value) : [],
    );
  }

  async item(crawlId: string, seq: number): Promise<string | null> {
    if (!Number.isInteger(seq) || seq < 0) return null;
    const k = this.k.crawl(crawlId);
    return this.kv.transact((tx) => (tx.has(k.meta) ? (tx.get<string>(k.item(seq)) ?? null) : null));
  }

  async listCrawls(q: { team_id?: string; after?: string; limit: number }): Promise<IndexEntry[]> {
    return indexEntries(this.kv.transact((tx) => this.index.page(tx, q)));
  }

  async expiringCrawls(limit: number): Promise<ExpiringEntry[]> {
    return expiringEntries(this.kv.transact((tx) => this.index.expiring(tx, limit)));
  }

  async hostLoads(crawlId: string): Promise<HostLoad[]> {
    return this.withCrawl(crawlId, [], (c) => hostLoadsOf(c.hosts(), c.leases()));
  }
}
