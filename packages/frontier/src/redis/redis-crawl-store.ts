import { expiringEntries, indexEntries, indexKey, type ExpiringEntry, type IndexEntry } from '@trawl/contract';
import { LruMap } from '@trawl/lru';
import { lIndexBuffer, loadScripts, lRangeBuffers, RedisRecordIndex, type RedisConnection } from '@trawl/redis';
import { decodeItem, encodeItem } from './item-codec.ts';
import { reasonCounters } from '../crawl-counters.ts';
import { leaseTokenPrefix } from '../lease-token.ts';
import {
  BUDGET_WAIT_MS,
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
import { FrontierKeys } from './keys.ts';

const scripts = loadScripts(new URL('./lua/', import.meta.url), [
  'crawl-create-3.lua',
  'crawl-lease-3.lua',
  'crawl-complete-4.lua',
  'crawl-requeue-2.lua',
  'crawl-reclaim-2.lua',
  'crawl-renew-1.lua',
  'crawl-transition-3.lua',
  'crawl-expire-5.lua',
  'crawl-snapshot-3.lua',
  'crawl-host-loads-2.lua',
]);

const iso = (ms: number) => new Date(ms).toISOString();

/**
 * Lease members remembered per process. Far above what its workers hold at once (pages in flight plus buffers);
 * the bound only drops members of leases nobody settled through this store (lost, reclaimed elsewhere), which
 * would otherwise stay for ever. A forgotten member is rebuilt from the lease for complete and requeue.
 */
export const MAX_LEASE_MEMBERS = 100_000;

/** "<token>\n<host>\n<request JSON>": the lease member as stored, so a lease carries everything to requeue it. */
function member(lease: Lease): string {
  return `${lease.token}\n${lease.request.host}\n${JSON.stringify(lease.request)}`;
}
function parseMember(m: string): Lease {
  const a = m.indexOf('\n');
  const b = m.indexOf('\n', a + 1);
  return { token: m.slice(0, a), request: JSON.parse(m.slice(b + 1)) as FrontierRequest };
}

interface PendingCompletion {
  lease: Lease;
  result: PageResult;
  links: FrontierRequest[];
  now: number;
  resolve(r: CompleteResult): void;
  reject(err: unknown): void;
}
interface CompletionQueue {
  waiting: PendingCompletion[];
  busy: boolean;
}

/** Crawls whose billing mode is remembered; one forgotten is read again by its next completion. */
const MAX_KNOWN_CRAWLS = 10_000;
/** Completions per call at most, and about this many bytes of items and links: one call stays a modest command. */
const MAX_BATCH = 64;
const MAX_BATCH_BYTES = 4 * 1024 * 1024;

/** The next batch off the front of the queue: at least one completion, in order. */
function takeBatch(waiting: PendingCompletion[]): PendingCompletion[] {
  let n = 0;
  let bytes = 0;
  while (n < waiting.length && n < MAX_BATCH) {
    const p = waiting[n];
    bytes += (p.result.kind === 'delivered' ? p.result.item.length : 64) + p.links.length * 256;
    if (n > 0 && bytes > MAX_BATCH_BYTES) break;
    n++;
  }
  return waiting.splice(0, n);
}

/**
 * Cluster-mode crawl state in Redis. Each mutation is one Lua script on the crawl's slot, so admission under
 * max_pages, dedup and exactly-once delivery hold whatever the number of workers.
 */
export class RedisCrawlStore implements CrawlStore {
  private readonly k: FrontierKeys;
  /** Lease members by token: a lease is renewed, completed or requeued by its exact stored member. */
  private readonly members: LruMap<string, string>;
  /** The operator's listing; its keys live on their own slot, so it is written beside the scripts, not in them. */
  private readonly index: RedisRecordIndex;
  /** Completions waiting for their crawl's call in flight, by crawl (see complete). */
  private readonly completing = new Map<string, CompletionQueue>();
  /**
   * Each crawl's billing mode, learned from reading or creating it (a worker reads a crawl before running its
   * pages): fixed at creation, so a completion can pass it and the script need not read it (crawl-complete-4.lua).
   */
  private readonly billing = new LruMap<string, CrawlPlan['billing_mode']>(MAX_KNOWN_CRAWLS);

  constructor(
    private readonly redis: RedisConnection,
    prefix: string,
    maxLeaseMembers = MAX_LEASE_MEMBERS,
  ) {
    this.k = new FrontierKeys(prefix);
    this.members = new LruMap(maxLeaseMembers);
    this.index = new RedisRecordIndex(redis, this.k.crawlIndex());
  }

  async createCrawl(plan: CrawlPlan, seeds: FrontierRequest[]): Promise<void> {
    const c = this.k.crawl(plan.crawl_id);
    const args: string[] = [c.base, JSON.stringify(plan), String(plan.max_pages), plan.billing_mode];
    for (const r of seeds) args.push(r.url, r.host, JSON.stringify(r));
    await scripts['crawl-create'].run(this.redis, [c.meta, c.seen, c.hosts], args);
    this.billing.set(plan.crawl_id, plan.billing_mode);
    // Indexed once it exists: an index entry never outlives its crawl by more than the crawl's retention.
    await this.index.add(indexKey(plan.created_at, plan.crawl_id), plan.team_id, Date.now());
  }

  async getCrawl(crawlId: string): Promise<CrawlSnapshot | null> {
    const c = this.k.crawl(crawlId);
    const r = await scripts['crawl-snapshot'].run<[string[], number, number] | []>(this.redis, [c.meta, c.leases, c.items], []);
    if (r.length === 0) return null;
    const [flat, inFlight, completed] = r;
    const meta: Record<string, string> = {};
    for (let i = 0; i < flat.length; i += 2) meta[flat[i]] = flat[i + 1];
    const plan = JSON.parse(meta.plan) as CrawlPlan;
    this.billing.set(crawlId, plan.billing_mode);
    return {
      plan,
      status: meta.status as CrawlStatus,
      started_at: meta.started_at ?? null,
      completed_at: meta.completed_at ?? null,
      failure: meta.failure ? (JSON.parse(meta.failure) as { code: string; message: string }) : null,
      finalized: meta.finalized !== '0',
      budget: Number(meta.budget ?? 0),
      counters: {
        discovered: Number(meta.admitted),
        // Admitted and not settled is queued or leased (every script keeps `open` so; crawl-snapshot-3.lua).
        queued: Math.max(0, Number(meta.open) - Number(inFlight)),
        in_flight: Number(inFlight),
        completed: Number(completed),
        dropped: Number(meta.dropped),
        ...reasonCounters(Object.entries(meta)),
      },
    };
  }

  async statusOf(crawlId: string): Promise<CrawlStatus | null> {
    return (await this.redis.hGet(this.k.crawl(crawlId).meta, 'status')) as CrawlStatus | null;
  }

  async hostsOf(crawlId: string): Promise<string[]> {
    return this.redis.hKeys(this.k.crawl(crawlId).hosts);
  }

  async lease(crawlId: string, host: string, max: number, leaseMs: number, now: number): Promise<LeaseBatch> {
    const c = this.k.crawl(crawlId);
    const [started, ...got] = await scripts['crawl-lease'].run<[number, ...string[]]>(this.redis, [c.meta, c.leases, c.queue(host)], [
      now + leaseMs,
      max,
      leaseTokenPrefix(now),
      host,
      iso(now),
    ]);
    const leases = got.map((m) => {
      const lease = parseMember(m);
      this.members.set(lease.token, m);
      return lease;
    });
    return { leases, started: started === 1 };
  }

  /**
   * Records a page's result. Completions of one crawl go to Redis one call at a time: those that come due while a
   * call is out wait for it and then go together in the next (crawl-complete-4.lua applies them in order, each as
   * its own call would), as do those that end in the same turn of the event loop. Nothing waits on a timer, so a
   * lone page pays no delay, and a busy worker pays one round trip (and the script's fixed reads and writes) per
   * batch instead of per page.
   */
  complete(crawlId: string, lease: Lease, result: PageResult, links: FrontierRequest[], now: number): Promise<CompleteResult> {
    return new Promise((resolve, reject) => {
      let q = this.completing.get(crawlId);
      if (!q) this.completing.set(crawlId, (q = { waiting: [], busy: false }));
      q.waiting.push({ lease, result, links, now, resolve, reject });
      if (q.busy) return;
      q.busy = true;
      // Sent after this turn of the event loop: pages that ended in the same turn go in one call.
      setImmediate(() => void this.sendCompletions(crawlId, q));
    });
  }

  private async sendCompletions(crawlId: string, q: CompletionQueue): Promise<void> {
    const c = this.k.crawl(crawlId);
    try {
      while (q.waiting.length > 0) {
        const batch = takeBatch(q.waiting);
        let out: (number | string)[];
        try {
          const now = Math.max(...batch.map((p) => p.now));
          const args: (string | Buffer)[] = [c.base, iso(now), String(now + BUDGET_WAIT_MS), this.billing.get(crawlId) ?? ''];
          for (const p of batch) {
            const { result, links } = p;
            // An item is kept compressed (item-codec.ts): a quarter of the RAM, for about 0.2 ms of a worker's CPU.
            args.push(this.members.get(p.lease.token) ?? member(p.lease), result.kind, result.kind === 'delivered' ? encodeItem(result.item) : result.reason, String(links.length));
            for (const r of links) args.push(r.url, r.host, JSON.stringify(r));
          }
          out = await scripts['crawl-complete'].run<(number | string)[]>(this.redis, [c.meta, c.leases, c.seen, c.items], args);
        } catch (err) {
          // Each caller decides whether to try again (durable, in the page task): a retry finds its lease gone
          // if this call did land.
          for (const p of batch) p.reject(err);
          continue;
        }
        let at = 0;
        for (const p of batch) {
          const code = Number(out[at]);
          const seq = Number(out[at + 1]);
          const finished = Number(out[at + 2]) === 1;
          const hosts = Number(out[at + 3]);
          const newHosts = out.slice(at + 4, at + 4 + hosts).map(String);
          at += 4 + hosts;
          if (code === -1) {
            p.resolve({ accepted: false, needBudget: true, seq: null, newHosts: [], finished: false });
            continue;
          }
          this.members.delete(p.lease.token);
          p.resolve(code === 0 ? { accepted: false, needBudget: false, seq: null, newHosts: [], finished: false } : { accepted: true, needBudget: false, seq: seq < 0 ? null : seq, newHosts, finished });
        }
      }
    } finally {
      q.busy = false;
      if (q.waiting.length === 0) this.completing.delete(crawlId);
    }
  }

  async reclaim(crawlId: string, now: number, max: number): Promise<number> {
    const c = this.k.crawl(crawlId);
    return Number(await scripts['crawl-reclaim'].run(this.redis, [c.meta, c.leases], [now, c.base, max]));
  }

  async requeue(crawlId: string, lease: Lease, category: string | null): Promise<boolean> {
    const c = this.k.crawl(crawlId);
    const m = this.members.get(lease.token) ?? member(lease);
    const request = { ...lease.request, attempt: lease.request.attempt + (category ? 1 : 0) };
    const ok = await scripts['crawl-requeue'].run(this.redis, [c.meta, c.leases], [
      m,
      JSON.stringify(request),
      category ?? '',
      c.base,
      lease.request.host,
    ]);
    this.members.delete(lease.token);
    return ok === 1;
  }

  async renew(crawlId: string, tokens: string[], leaseMs: number, now: number): Promise<string[]> {
    if (tokens.length === 0) return [];
    const held = tokens.map((t) => this.members.get(t)).filter((m): m is string => m !== undefined);
    const unknown = tokens.filter((t) => !this.members.has(t));
    const lost =
      held.length === 0
        ? []
        : await scripts['crawl-renew'].run<string[]>(this.redis, [this.k.crawl(crawlId).leases], [now + leaseMs, ...held]);
    const lostTokens = lost.map((m) => parseMember(m).token);
    for (const t of lostTokens) this.members.delete(t);
    return [...unknown, ...lostTokens];
  }

  async transition(
    crawlId: string,
    from: readonly CrawlStatus[],
    to: CrawlStatus,
    now: number,
    failure?: { code: string; message: string },
  ): Promise<boolean> {
    const c = this.k.crawl(crawlId);
    const r = await scripts['crawl-transition'].run(this.redis, [c.meta, c.hosts, c.leases], [
      from.join(','),
      to,
      iso(now),
      failure ? JSON.stringify(failure) : '',
      c.base,
      TERMINAL_STATUSES.includes(to) ? '1' : '0',
    ]);
    return r === 1;
  }

  async markFinalized(crawlId: string): Promise<boolean> {
    return (await this.redis.hIncrBy(this.k.crawl(crawlId).meta, 'finalized', 1)) === 1;
  }

  async expireCrawl(crawlId: string, afterMs: number): Promise<void> {
    const c = this.k.crawl(crawlId);
    const plan = await this.redis.hGet(c.meta, 'plan');
    if (plan === null) return;
    const ms = Math.max(1, Math.round(afterMs));
    const at = Date.now() + ms;
    await scripts['crawl-expire'].run(this.redis, [c.meta, c.hosts, c.seen, c.leases, c.items], [ms, c.base]);
    const { created_at, team_id } = JSON.parse(plan) as CrawlPlan;
    await this.index.expireAt(indexKey(created_at, crawlId), team_id, at);
  }

  async listCrawls(q: { team_id?: string; after?: string; limit: number }): Promise<IndexEntry[]> {
    return indexEntries(await this.index.page(q, Date.now()));
  }

  async expiringCrawls(limit: number): Promise<ExpiringEntry[]> {
    return expiringEntries(await this.index.expiring(limit, Date.now()));
  }

  async hostLoads(crawlId: string): Promise<HostLoad[]> {
    const c = this.k.crawl(crawlId);
    const flat = await scripts['crawl-host-loads'].run<(string | number)[]>(this.redis, [c.hosts, c.leases], [c.base]);
    const out: HostLoad[] = [];
    for (let i = 0; i + 3 < flat.length; i += 4) {
      const oldest = Number(flat[i + 3]);
      out.push({ host: String(flat[i]), queued: Number(flat[i + 1]), leased: Number(flat[i + 2]), oldest_leased_at: oldest < 0 ? null : oldest });
    }
    return out;
  }

  async addBudget(crawlId: string, credits: number): Promise<number> {
    return Number(await this.redis.hIncrBy(this.k.crawl(crawlId).meta, 'budget', credits));
  }

  async items(crawlId: string, fromSeq: number, limit: number): Promise<string[]> {
    return (await lRangeBuffers(this.redis, this.k.crawl(crawlId).items, fromSeq, fromSeq + limit - 1)).map(decodeItem);
  }

  async item(crawlId: string, seq: number): Promise<string | null> {
    const stored = await lIndexBuffer(this.redis, this.k.crawl(crawlId).items, seq);
    return stored === null ? null : decodeItem(stored);
  }
}
