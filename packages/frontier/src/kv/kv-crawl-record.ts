import type { KvTx } from '@trawl/kv';
import type { CrawlStatus, FrontierRequest } from '../types.ts';
import type { KvFrontierKeys } from './keys.ts';

/** A crawl's status and counters, one Kv value read and written by every mutation (a Redis meta hash's twin). */
export interface KvCrawlMeta {
  status: CrawlStatus;
  started_at: string | null;
  completed_at: string | null;
  failure: { code: string; message: string } | null;
  finalized: boolean;
  budget: number;
  /** URLs admitted (seeds included), never above max_pages. */
  admitted: number;
  /** Admitted pages not yet settled (queued or leased): the crawl finishes when it reaches 0. */
  open: number;
  queued: number;
  leased: number;
  items: number;
  dropped: number;
  /** `fail:<reason>`, `block:<reason>`, `retry:<category>` -> count. */
  counts: Record<string, number>;
  max_pages: number;
  billing: 'shadow' | 'enforce';
  team_id: string;
  index_key: string;
  /** When the crawl is forgotten (every key of it expires then); null while it is kept. */
  expires_at: number | null;
}

const BATCH = 512;

/**
 * Calls `fn` on every live key under `prefix`, a batch at a time: a transaction over a large crawl never holds all
 * its keys in memory, and never writes under the range it is reading.
 */
export function forEachKey(tx: KvTx, prefix: string, fn: (key: string) => void): void {
  let start: string | undefined;
  for (;;) {
    const keys = Array.from(tx.range({ prefix, start, limit: BATCH }), (e) => e.key);
    for (const key of keys) fn(key);
    if (keys.length < BATCH) return;
    // The smallest key after the last one.
    start = `${keys[keys.length - 1]}\u0000`;
  }
}

/** A host's queue occupies positions [head, tail). */
interface HostQueue {
  head: number;
  tail: number;
}
interface StoredLease {
  request: FrontierRequest;
  until: number;
}

/** One crawl's keys inside one transaction: queues, leases, items. */
export class CrawlRecord {
  constructor(
    private readonly tx: KvTx,
    readonly k: ReturnType<KvFrontierKeys['crawl']>,
    readonly meta: KvCrawlMeta,
  ) {}

  static open(tx: KvTx, k: ReturnType<KvFrontierKeys['crawl']>): CrawlRecord | null {
    const meta = tx.get<KvCrawlMeta>(k.meta);
    return meta === undefined ? null : new CrawlRecord(tx, k, meta);
  }

  /** The crawl's other keys expire with its prefix (KvCrawlStore.expireCrawl), written before or after. */
  put(key: string, value: unknown): void {
    this.tx.put(key, value);
  }

  /** The meta carries the crawl's expiry itself: every read opens it first, so the crawl reads as gone on time. */
  save(): void {
    this.tx.put(this.k.meta, this.meta, this.meta.expires_at === null ? undefined : { expiresAt: this.meta.expires_at });
  }

  bump(field: string, by = 1): void {
    this.meta.counts[field] = (this.meta.counts[field] ?? 0) + by;
  }

  /** Admits an unseen URL while under max_pages (to the back of its host's queue); whether its host is new. */
  admit(r: FrontierRequest): { admitted: boolean; newHost: boolean } {
    if (this.meta.admitted >= this.meta.max_pages) return { admitted: false, newHost: false };
    const seen = this.k.seen(r.url);
    if (this.tx.has(seen)) return { admitted: false, newHost: false };
    this.put(seen, 1);
    this.meta.admitted += 1;
    this.meta.open += 1;
    return { admitted: true, newHost: this.push(r, 'back') };
  }

  /** Queues a request at the back or the front of its host's queue; whether the host had no queue yet. */
  push(r: FrontierRequest, end: 'back' | 'front'): boolean {
    const hk = this.k.host(r.host);
    const q = this.tx.get<HostQueue>(hk);
    const bounds = q ?? { head: 0, tail: 0 };
    const pos = end === 'back' ? bounds.tail++ : --bounds.head;
    this.put(this.k.queueAt(r.host, pos), r);
    this.put(hk, bounds);
    this.meta.queued += 1;
    return q === undefined;
  }

  /** Takes up to `max` requests from the front of the host's queue. */
  pop(host: string, max: number): FrontierRequest[] {
    const hk = this.k.host(host);
    const q = this.tx.get<HostQueue>(hk);
    if (!q || q.head >= q.tail) return [];
    const out: FrontierRequest[] = [];
    while (q.head < q.tail && out.length < max) {
      const key = this.k.queueAt(host, q.head++);
      const r = this.tx.get<FrontierRequest>(key);
      this.tx.del(key);
      if (r !== undefined) out.push(r);
    }
    this.put(hk, q);
    this.meta.queued -= out.length;
    return out;
  }

  addLease(token: string, request: FrontierRequest, until: number): void {
    this.put(this.k.lease(token), { request, until } satisfies StoredLease);
    this.put(this.k.leaseExpiry(until, token), 1);
    this.meta.leased += 1;
  }

  lease(token: string): StoredLease | undefined {
    return this.tx.get<StoredLease>(this.k.lease(token));
  }

  /** Removes a held lease; its request, or undefined when it is not held. */
  takeLease(token: string): FrontierRequest | undefined {
    const l = this.lease(token);
    if (l === undefined) return undefined;
    this.tx.del(this.k.lease(token));
    this.tx.del(this.k.leaseExpiry(l.until, token));
    this.meta.leased -= 1;
    return l.request;
  }

  /** Moves a held lease's expiry; false when it is not held. */
  renewLease(token: string, until: number): boolean {
    const l = this.lease(token);
    if (l === undefined) return false;
    this.tx.del(this.k.leaseExpiry(l.until, token));
    this.put(this.k.lease(token), { request: l.request, until } satisfies StoredLease);
    this.put(this.k.leaseExpiry(until, token), 1);
    return true;
  }

  /** Tokens of leases whose expiry is at or before `now`, soonest first. */
  expiredLeases(now: number, max: number): string[] {
    const out: string[] = [];
    const { leaseExpiries } = this.k;
    for (const e of this.tx.range({ prefix: leaseExpiries, end: this.k.leaseExpiry(now + 1, ''), limit: max })) {
      out.push(e.key.slice(e.key.indexOf('|', leaseExpiries.length) + 1));
    }
    return out;
  }

  /** Every lease held: token and host. */
  *leases(): Generator<{ token: string; host: string }> {
    for (const e of this.tx.range<StoredLease>({ prefix: this.k.leases })) {
      yield { token: e.key.slice(this.k.leases.length), host: e.value.request.host };
    }
  }

  /** Every host the crawl has (had) queued URLs on, with its queue length. */
  *hosts(): Generator<{ host: string; queued: number }> {
    for (const e of this.tx.range<HostQueue>({ prefix: this.k.hosts })) {
      yield { host: e.key.slice(this.k.hosts.length), queued: e.value.tail - e.value.head };
    }
  }

  /** Drops every queued request and every lease (a terminal status); how many were dropped. */
  dropAll(): number {
    const dropped = this.meta.queued + this.meta.leased;
    for (const { host } of [...this.hosts()]) {
      forEachKey(this.tx, this.k.queue(host), (key) => this.tx.del(key));
      const q = this.tx.get<HostQueue>(this.k.host(host))!;
      this.put(this.k.host(host), { head: q.tail, tail: q.tail });
    }
    for (const prefix of [this.k.leases, this.k.leaseExpiries]) forEachKey(this.tx, prefix, (key) => this.tx.del(key));
    this.meta.queued = 0;
    this.meta.leased = 0;
    return dropped;
  }
}
