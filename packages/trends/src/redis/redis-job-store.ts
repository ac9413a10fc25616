import { expiringEntries, indexEntries, indexKey, type ExpiringEntry, type IndexEntry, type TrendsJobError, type TrendsResult } from '@trawl/contract';
import { closeConnection, loadScripts, RedisRecordIndex, type RedisConnection } from '@trawl/redis';
import { newJobRecord } from '../jobs/job-record.ts';
import {
  WORKER_LOST,
  type ClaimOptions,
  type TrendsJobRecord,
  type TrendsJobStore,
  type TrendsJobStoreOptions,
  type TrendsLease,
} from '../jobs/types.ts';

const scripts = loadScripts(new URL('./lua/', import.meta.url), ['trends-job-claim-3.lua', 'trends-job-settle-4.lua', 'trends-job-renew-2.lua']);

const iso = (ms: number) => new Date(ms).toISOString();

/**
 * Every Redis key of trends jobs. The queue, the leases and the job hashes share the hash tag `{trends}` so a claim
 * (which reads a job hash it finds in a zset) and the settling scripts (which note when the job index forgets a job)
 * stay on one Redis Cluster slot; upstream calls are rate-limited to a
 * few per second, far below what one slot serves. Cached results are plain keys, read and written alone.
 */
class TrendsKeys {
  readonly base: string;
  constructor(private readonly prefix: string) {
    this.base = `${prefix}trends:{trends}:`;
  }
  readonly job = (id: string) => `${this.base}job:${id}`;
  get jobBase() {
    return `${this.base}job:`;
  }
  get due() {
    return `${this.base}due`;
  }
  get leases() {
    return `${this.base}leases`;
  }
  /** Pub/sub channel: a job may have become claimable. */
  get claimable() {
    return `${this.base}claimable`;
  }
  /** The operator's newest-first job index (`@trawl/redis` RedisRecordIndex), on the jobs' slot. */
  get index() {
    return { all: `${this.base}index`, teamBase: `${this.base}team:`, expiring: `${this.base}expiring` };
  }
  cache(teamId: string, grainKey: string) {
    return `${this.prefix}trends:cache:${teamId}:${grainKey}`;
  }
}

/** A job hash: strings only, '' for null. */
function toHash(job: TrendsJobRecord): Record<string, string> {
  return {
    id: job.id,
    team_id: job.team_id,
    request: JSON.stringify(job.request),
    state: job.state,
    attempts: String(job.attempts),
    created_at: job.created_at,
    updated_at: job.updated_at,
    started_at: job.started_at ?? '',
    completed_at: job.completed_at ?? '',
    result: job.result ? JSON.stringify(job.result) : '',
    error: job.error ? JSON.stringify(job.error) : '',
    cached: job.cached ? '1' : '0',
    owner: job.owner ?? '',
    lease_until: job.lease_until === null ? '' : String(job.lease_until),
  };
}

function fromHash(h: Record<string, string>): TrendsJobRecord {
  const orNull = (v: string | undefined) => (v ? v : null);
  return {
    id: h.id,
    team_id: h.team_id,
    request: JSON.parse(h.request) as TrendsJobRecord['request'],
    state: h.state as TrendsJobRecord['state'],
    attempts: Number(h.attempts),
    created_at: h.created_at,
    updated_at: h.updated_at,
    started_at: orNull(h.started_at),
    completed_at: orNull(h.completed_at),
    result: h.result ? (JSON.parse(h.result) as TrendsResult) : null,
    error: h.error ? (JSON.parse(h.error) as TrendsJobError) : null,
    cached: h.cached === '1',
    owner: orNull(h.owner),
    lease_until: h.lease_until ? Number(h.lease_until) : null,
  };
}

function pairs(flat: string[]): Record<string, string> {
  const out: Record<string, string> = {};
  for (let i = 0; i + 1 < flat.length; i += 2) out[flat[i]] = flat[i + 1];
  return out;
}

/** Cluster mode: jobs every gateway and worker share; each transition is one Lua script. */
export class RedisTrendsJobStore implements TrendsJobStore {
  private readonly k: TrendsKeys;

  private readonly keepFor: string;
  private readonly index: RedisRecordIndex;

  constructor(
    private readonly redis: RedisConnection,
    prefix: string,
    opts: TrendsJobStoreOptions = {},
  ) {
    this.k = new TrendsKeys(prefix);
    this.keepFor = opts.retentionMs === undefined ? '' : String(Math.max(1, Math.round(opts.retentionMs)));
    this.index = new RedisRecordIndex(redis, this.k.index);
  }

  /** When a job settled now is forgotten (real time, like the key's PEXPIRE); '' when jobs are kept. */
  private forgetAt(): string {
    return this.keepFor === '' ? '' : String(Date.now() + Number(this.keepFor));
  }

  async create(input: { team_id: string; request: TrendsJobRecord['request'] }, now: number): Promise<TrendsJobRecord> {
    const job = newJobRecord(input, now);
    // The hash keeps its index key, so the scripts that settle the job can schedule its index entry's removal.
    const key = indexKey(job.created_at, job.id);
    await this.redis.multi().hSet(this.k.job(job.id), { ...toHash(job), index: key }).zAdd(this.k.due, { score: now, value: job.id }).exec();
    await this.index.add(key, job.team_id, Date.now());
    await this.announce();
    return job;
  }

  /**
   * Runners in every process hear of the job at once. Best effort: a lost announcement costs a runner's safety poll
   * (TrendsRunnerSettings.pollMs), never the job, which is stored already.
   */
  private async announce(): Promise<void> {
    await this.redis.publish(this.k.claimable, '1').catch(() => undefined);
  }

  async watch(onJob: () => void) {
    // Subscribing takes a connection of its own (a subscribed connection runs no other commands).
    const sub = this.redis.duplicate();
    sub.on('error', () => {
      // Reconnects on its own; announcements missed meanwhile are made up for once it is ready again.
    });
    sub.on('ready', () => onJob());
    await sub.connect();
    await sub.subscribe(this.k.claimable, () => onJob());
    return async () => {
      // Closing drops the subscription; QUIT would wait for ever while Redis is down, so the close is bounded.
      await closeConnection(sub);
    };
  }

  async list(q: { team_id?: string; after?: string; limit: number }): Promise<IndexEntry[]> {
    return indexEntries(await this.index.page(q, Date.now()));
  }

  async expiring(limit: number): Promise<ExpiringEntry[]> {
    return expiringEntries(await this.index.expiring(limit, Date.now()));
  }

  async get(id: string) {
    const h = await this.redis.hGetAll(this.k.job(id));
    return h && h.id ? fromHash(h as Record<string, string>) : null;
  }

  async claim(owner: string, now: number, opts: ClaimOptions): Promise<TrendsLease | null> {
    const flat = await scripts['trends-job-claim'].run<string[] | null>(this.redis, [this.k.due, this.k.leases, this.k.index.expiring], [
      now,
      now + opts.leaseMs,
      owner,
      iso(now),
      opts.maxAttempts,
      this.k.jobBase,
      JSON.stringify(WORKER_LOST),
      this.keepFor,
      this.forgetAt(),
    ]);
    if (!flat) return null;
    const job = fromHash(pairs(flat));
    return { job, owner, attempt: job.attempts };
  }

  async renew(lease: TrendsLease, now: number, leaseMs: number) {
    const id = lease.job.id;
    const r = await scripts['trends-job-renew'].run<number>(this.redis, [this.k.job(id), this.k.leases], [id, lease.owner, lease.attempt, now + leaseMs]);
    return r === 1;
  }

  async complete(lease: TrendsLease, result: TrendsResult, cached: boolean, now: number) {
    return this.settle(lease, 'complete', now, JSON.stringify(result), cached);
  }

  async retry(lease: TrendsLease, runAt: number, now: number) {
    const ok = await this.settle(lease, 'retry', now, String(runAt), false);
    // A later retry is due when the runner that set it looks again (its own timer), not on news.
    if (ok && runAt <= now) await this.announce();
    return ok;
  }

  async fail(lease: TrendsLease, error: TrendsJobError, now: number) {
    return this.settle(lease, 'fail', now, JSON.stringify(error), false);
  }

  async cachedResult(teamId: string, grainKey: string, now: number) {
    const s = await this.redis.get(this.k.cache(teamId, grainKey));
    if (!s) return null;
    // Redis expires the key; the stored deadline also covers a clock that runs ahead of Redis's.
    const entry = JSON.parse(s) as { until: number; result: TrendsResult };
    return entry.until > now ? entry.result : null;
  }

  async cacheResult(teamId: string, grainKey: string, result: TrendsResult, now: number, ttlMs: number) {
    await this.redis.set(this.k.cache(teamId, grainKey), JSON.stringify({ until: now + ttlMs, result }), {
      expiration: { type: 'PX', value: Math.max(1, ttlMs) },
    });
  }

  private async settle(lease: TrendsLease, kind: 'complete' | 'fail' | 'retry', now: number, value: string, cached: boolean) {
    const id = lease.job.id;
    const r = await scripts['trends-job-settle'].run<number>(this.redis, [this.k.job(id), this.k.leases, this.k.due, this.k.index.expiring], [
      id,
      lease.owner,
      lease.attempt,
      kind,
      iso(now),
      value,
      cached ? '1' : '0',
      this.keepFor,
      this.forgetAt(),
    ]);
    return r === 1;
  }
}
