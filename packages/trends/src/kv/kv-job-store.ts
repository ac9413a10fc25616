import { expiringEntries, indexEntries, indexKey, type ExpiringEntry, type IndexEntry, type TrendsJobError, type TrendsResult } from '@trawl/contract';
import { KvRecordIndex, type Kv, type KvTx } from '@trawl/kv';
import { lostJobRecord, newJobRecord, takenJobRecord } from '../jobs/job-record.ts';
import { LocalAnnouncer } from '../jobs/local-announcer.ts';
import {
  type ClaimOptions,
  type TrendsJobRecord,
  type TrendsJobStore,
  type TrendsJobStoreOptions,
  type TrendsLease,
} from '../jobs/types.ts';

const iso = (ms: number) => new Date(ms).toISOString();
/** Times in keys: fixed width, so a range walks them in time order. */
const pad = (ms: number) => String(Math.max(0, Math.floor(ms))).padStart(15, '0');

/** Expired leases a claim fails as worker_lost before it gives up, so one transaction stays short (as in Redis). */
const MAX_LOST_PER_CLAIM = 100;

/**
 * Every key of trends jobs in the Kv, under `<prefix>trends:`. The queue and the leases are keys ordered by time
 * ("<15-digit ms>:<job id>", the Redis zsets' scores), so a claim finds the next job with one short range.
 */
class TrendsKvKeys {
  readonly base: string;
  constructor(prefix: string) {
    this.base = `${prefix}trends:`;
  }
  job = (id: string) => `${this.base}job:${id}`;
  get duePrefix() {
    return `${this.base}due:`;
  }
  due = (runAt: number, id: string) => `${this.duePrefix}${pad(runAt)}:${id}`;
  get leasePrefix() {
    return `${this.base}lease:`;
  }
  lease = (until: number, id: string) => `${this.leasePrefix}${pad(until)}:${id}`;
  get index() {
    return `${this.base}ix:`;
  }
  /** Grain keys are base64url, so the last ':' always separates them from the team. */
  cache = (teamId: string, grainKey: string) => `${this.base}cache:${teamId}:${grainKey}`;
}

/**
 * Embedded mode: jobs in the process's Kv (LMDB or in memory), each transition one transaction (the Lua scripts' rules). A
 * settled job's retention and a cached result's TTL are key expiries, judged by `clock`, which must be the Kv's.
 */
export class KvTrendsJobStore implements TrendsJobStore {
  private readonly k: TrendsKvKeys;
  private readonly index: KvRecordIndex;
  /** One process owns the data directory: its runners are all here. */
  private readonly announcer = new LocalAnnouncer();

  constructor(
    private readonly kv: Kv,
    prefix = '',
    private readonly opts: TrendsJobStoreOptions = {},
    private readonly clock: () => number = Date.now,
  ) {
    this.k = new TrendsKvKeys(prefix);
    this.index = new KvRecordIndex(this.k.index);
  }

  async create(input: { team_id: string; request: TrendsJobRecord['request'] }, now: number): Promise<TrendsJobRecord> {
    const job = newJobRecord(input, now);
    this.kv.transact((tx) => {
      tx.put(this.k.job(job.id), job);
      tx.put(this.k.due(now, job.id), null);
      this.index.add(tx, indexKey(job.created_at, job.id), job.team_id);
    });
    this.announcer.announce();
    return job;
  }

  watch(onJob: () => void) {
    return this.announcer.watch(onJob);
  }

  async get(id: string) {
    return this.kv.transact((tx) => tx.get<TrendsJobRecord>(this.k.job(id)) ?? null);
  }

  async claim(owner: string, now: number, opts: ClaimOptions): Promise<TrendsLease | null> {
    return this.kv.transact((tx) => {
      // A lease that ended at or before now: ';' sorts after the ':' that follows the time.
      const lapsed = { prefix: this.k.leasePrefix, end: `${this.k.leasePrefix}${pad(now)};`, limit: 1 };
      for (let i = 0; i < MAX_LOST_PER_CLAIM; i++) {
        const [entry] = tx.range(lapsed);
        if (!entry) break;
        const job = tx.get<TrendsJobRecord>(this.k.job(entry.key.slice(entry.key.lastIndexOf(':') + 1)));
        tx.del(entry.key);
        if (!job) continue;
        if (job.attempts < opts.maxAttempts) return this.take(tx, job, owner, now, opts.leaseMs);
        this.store(tx, lostJobRecord(job, now));
      }
      const [due] = tx.range({ prefix: this.k.duePrefix, end: `${this.k.duePrefix}${pad(now)};`, limit: 1 });
      if (!due) return null;
      tx.del(due.key);
      const job = tx.get<TrendsJobRecord>(this.k.job(due.key.slice(due.key.lastIndexOf(':') + 1)));
      return job ? this.take(tx, job, owner, now, opts.leaseMs) : null;
    });
  }

  async renew(lease: TrendsLease, now: number, leaseMs: number) {
    return this.kv.transact((tx) => {
      const job = this.held(tx, lease);
      if (!job) return false;
      tx.del(this.k.lease(job.lease_until!, job.id));
      tx.put(this.k.lease(now + leaseMs, job.id), null);
      tx.put(this.k.job(job.id), { ...job, lease_until: now + leaseMs });
      return true;
    });
  }

  async complete(lease: TrendsLease, result: TrendsResult, cached: boolean, now: number) {
    return this.settle(lease, now, { state: 'completed', result, cached, completed_at: iso(now) });
  }

  async retry(lease: TrendsLease, runAt: number, now: number) {
    const ok = await this.settle(lease, now, { state: 'queued' }, runAt);
    if (ok && runAt <= now) this.announcer.announce();
    return ok;
  }

  async fail(lease: TrendsLease, error: TrendsJobError, now: number) {
    return this.settle(lease, now, { state: 'failed', error, completed_at: iso(now) });
  }

  async cachedResult(teamId: string, grainKey: string, now: number) {
    const entry = this.kv.transact((tx) => tx.get<{ until: number; result: TrendsResult }>(this.k.cache(teamId, grainKey)));
    // The key expires by the Kv's clock; the stored deadline judges by the caller's.
    return entry && entry.until > now ? entry.result : null;
  }

  async cacheResult(teamId: string, grainKey: string, result: TrendsResult, now: number, ttlMs: number) {
    this.kv.transact((tx) => tx.put(this.k.cache(teamId, grainKey), { until: now + ttlMs, result }, { expiresAt: this.clock() + Math.max(1, ttlMs) }));
  }

  async list(q: { team_id?: string; after?: string; limit: number }): Promise<IndexEntry[]> {
    return indexEntries(this.kv.transact((tx) => this.index.page(tx, q)));
  }

  async expiring(limit: number): Promise<ExpiringEntry[]> {
    return expiringEntries(this.kv.transact((tx) => this.index.expiring(tx, limit)));
  }

  private take(tx: KvTx, job: TrendsJobRecord, owner: string, now: number, leaseMs: number): TrendsLease {
    const taken = takenJobRecord(job, owner, now, leaseMs);
    tx.put(this.k.lease(now + leaseMs, job.id), null);
    tx.put(this.k.job(job.id), taken);
    return { job: taken, owner, attempt: taken.attempts };
  }

  /** Writes a job; a completed or failed one (with a retention) expires with its index entries. */
  private store(tx: KvTx, job: TrendsJobRecord) {
    const settled = job.state === 'completed' || job.state === 'failed';
    if (!settled || this.opts.retentionMs === undefined) return tx.put(this.k.job(job.id), job);
    const at = this.clock() + this.opts.retentionMs;
    tx.put(this.k.job(job.id), job, { expiresAt: at });
    this.index.expireAt(tx, indexKey(job.created_at, job.id), job.team_id, at);
  }

  private held(tx: KvTx, lease: TrendsLease): TrendsJobRecord | null {
    const job = tx.get<TrendsJobRecord>(this.k.job(lease.job.id));
    return job && job.state === 'running' && job.owner === lease.owner && job.attempts === lease.attempt ? job : null;
  }

  private settle(lease: TrendsLease, now: number, patch: Partial<TrendsJobRecord>, runAt?: number): Promise<boolean> {
    return Promise.resolve(
      this.kv.transact((tx) => {
        const job = this.held(tx, lease);
        if (!job) return false;
        tx.del(this.k.lease(job.lease_until!, job.id));
        this.store(tx, { ...job, ...patch, owner: null, lease_until: null, updated_at: iso(now) });
        if (runAt !== undefined) tx.put(this.k.due(runAt, job.id), null);
        return true;
      }),
    );
  }
}
