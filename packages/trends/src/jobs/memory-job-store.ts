import { LruMap, MemoryRecordIndex, type ExpiringEntry, type IndexEntry, type TrendsJobError, type TrendsResult } from '@trawl/contract';
import { lostJobRecord, newJobRecord, takenJobRecord } from './job-record.ts';
import { LocalAnnouncer } from './local-announcer.ts';
import {
  type ClaimOptions,
  type TrendsJobRecord,
  type TrendsJobStore,
  type TrendsJobStoreOptions,
  type TrendsLease,
} from './types.ts';

const iso = (ms: number) => new Date(ms).toISOString();

/** Stored results (team × grain) kept for reuse; an evicted one is only fetched from Google again. */
export const MAX_CACHED_RESULTS = 10_000;

/** Embedded mode: jobs in a map of one process. Pinned to the Redis backend by the shared conformance suite. */
export class MemoryTrendsJobStore implements TrendsJobStore {
  // Kept as JSON so callers can never mutate stored state through a shared reference.
  private readonly jobs = new Map<string, string>();
  /** Queued jobs: id → not-before (ms). */
  private readonly due = new Map<string, number>();
  /** Running jobs: id → lease end (ms). */
  private readonly leases = new Map<string, number>();
  /** Keyed by what callers ask for (team × grain): bounded, least recently used first out. */
  private readonly cache: LruMap<string, { result: string; until: number }>;
  /** Every job, newest first, and when a settled one is forgotten (real time, like a Redis key expiry). */
  private readonly index = new MemoryRecordIndex();
  private readonly announcer = new LocalAnnouncer();

  constructor(
    private readonly opts: TrendsJobStoreOptions = {},
    private readonly clock: () => number = Date.now,
    maxCachedResults = MAX_CACHED_RESULTS,
  ) {
    this.cache = new LruMap(maxCachedResults);
  }

  async create(input: { team_id: string; request: TrendsJobRecord['request'] }, now: number): Promise<TrendsJobRecord> {
    // Settled jobs nobody asks about again are dropped here, so memory does not grow for ever.
    for (const id of this.index.due(this.clock())) this.forget(id);
    const job = newJobRecord(input, now);
    this.index.add(job.id, job.created_at, job.team_id);
    this.put(job);
    this.due.set(job.id, now);
    this.announcer.announce();
    return job;
  }

  watch(onJob: () => void) {
    return this.announcer.watch(onJob);
  }

  async get(id: string) {
    const at = this.index.expiresAt(id);
    if (at !== null && at <= this.clock()) this.forget(id);
    const s = this.jobs.get(id);
    return s ? (JSON.parse(s) as TrendsJobRecord) : null;
  }

  async claim(owner: string, now: number, opts: ClaimOptions): Promise<TrendsLease | null> {
    for (const [id, until] of this.leases) {
      if (until > now) continue;
      const job = (await this.get(id))!;
      if (job.attempts >= opts.maxAttempts) {
        this.leases.delete(id);
        this.put(lostJobRecord(job, now));
        continue;
      }
      return this.take(job, owner, now, opts.leaseMs);
    }
    let next: [string, number] | null = null;
    // Insertion order is creation order, so ties on the due time go to the oldest job.
    for (const entry of this.due) if (entry[1] <= now && (next === null || entry[1] < next[1])) next = entry;
    if (next === null) return null;
    this.due.delete(next[0]);
    return this.take((await this.get(next[0]))!, owner, now, opts.leaseMs);
  }

  async renew(lease: TrendsLease, now: number, leaseMs: number) {
    const job = this.held(lease);
    if (!job) return false;
    this.put({ ...job, lease_until: now + leaseMs });
    this.leases.set(job.id, now + leaseMs);
    return true;
  }

  async complete(lease: TrendsLease, result: TrendsResult, cached: boolean, now: number) {
    return this.settle(lease, now, { state: 'completed', result, cached, completed_at: iso(now) });
  }

  async retry(lease: TrendsLease, runAt: number, now: number) {
    const ok = this.settle(lease, now, { state: 'queued' });
    if (ok) {
      this.due.set(lease.job.id, runAt);
      if (runAt <= now) this.announcer.announce();
    }
    return ok;
  }

  async fail(lease: TrendsLease, error: TrendsJobError, now: number) {
    return this.settle(lease, now, { state: 'failed', error, completed_at: iso(now) });
  }

  async cachedResult(teamId: string, grainKey: string, now: number) {
    const key = `${teamId}\n${grainKey}`;
    const hit = this.cache.get(key);
    if (hit && hit.until <= now) this.cache.delete(key);
    return hit && hit.until > now ? (JSON.parse(hit.result) as TrendsResult) : null;
  }

  async cacheResult(teamId: string, grainKey: string, result: TrendsResult, now: number, ttlMs: number) {
    this.cache.set(`${teamId}\n${grainKey}`, { result: JSON.stringify(result), until: now + ttlMs });
  }

  private put(job: TrendsJobRecord) {
    this.jobs.set(job.id, JSON.stringify(job));
    const settled = job.state === 'completed' || job.state === 'failed';
    if (settled && this.opts.retentionMs !== undefined) this.index.expireAt(job.id, this.clock() + this.opts.retentionMs);
  }

  private forget(id: string) {
    this.jobs.delete(id);
    this.index.remove(id);
  }

  async list(q: { team_id?: string; after?: string; limit: number }): Promise<IndexEntry[]> {
    return this.index.page(q, this.clock());
  }

  async expiring(limit: number): Promise<ExpiringEntry[]> {
    return this.index.expiring(limit, this.clock());
  }

  private take(job: TrendsJobRecord, owner: string, now: number, leaseMs: number): TrendsLease {
    const taken = takenJobRecord(job, owner, now, leaseMs);
    this.put(taken);
    this.leases.set(taken.id, now + leaseMs);
    return { job: taken, owner, attempt: taken.attempts };
  }

  private held(lease: TrendsLease): TrendsJobRecord | null {
    const s = this.jobs.get(lease.job.id);
    const job = s ? (JSON.parse(s) as TrendsJobRecord) : null;
    return job && job.state === 'running' && job.owner === lease.owner && job.attempts === lease.attempt ? job : null;
  }

  private settle(lease: TrendsLease, now: number, patch: Partial<TrendsJobRecord>): boolean {
    const job = this.held(lease);
    if (!job) return false;
    this.leases.delete(job.id);
    this.put({ ...job, ...patch, owner: null, lease_until: null, updated_at: iso(now) });
    return true;
  }
}
