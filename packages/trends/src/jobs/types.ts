import type { ExpiringEntry, IndexEntry, TrendsGrain, TrendsJobError, TrendsJobState, TrendsResult } from '@trawl/contract';

/** A job as stored: the public fields, its owner team, and who holds it while it runs. */
export interface TrendsJobRecord {
  id: string;
  team_id: string;
  request: TrendsGrain;
  state: TrendsJobState;
  attempts: number;
  created_at: string;
  updated_at: string;
  started_at: string | null;
  completed_at: string | null;
  result: TrendsResult | null;
  error: TrendsJobError | null;
  cached: boolean;
  /** Runner holding the job (state running), else null. */
  owner: string | null;
  /** Epoch ms its lease ends unless renewed (state running), else null. */
  lease_until: number | null;
}

/**
 * A claimed job. `attempt` fences the lease: a runner whose lease expired and was taken over cannot settle or
 * renew the job any more, because the new holder's claim raised the attempt number.
 */
export interface TrendsLease {
  job: TrendsJobRecord;
  owner: string;
  attempt: number;
}

export interface ClaimOptions {
  leaseMs: number;
  /** A job whose lease expired this many attempts in (its runners died) fails with worker_lost. */
  maxAttempts: number;
}

/**
 * Durable search-trends jobs. queued → running (claimed under a lease) → completed | failed, or back to queued
 * with a not-before time for a retry. Time is passed in (epoch ms) so both backends run the same conformance suite
 * on a test clock. Memory (embedded) and Redis (cluster) backends.
 */
export interface TrendsJobStoreOptions {
  /** A completed or failed job is forgotten this long after it settled (404 then). Default: kept for ever. */
  retentionMs?: number;
}

export interface TrendsJobStore {
  create(input: { team_id: string; request: TrendsGrain }, now: number): Promise<TrendsJobRecord>;
  get(id: string): Promise<TrendsJobRecord | null>;
  /**
   * Atomically takes the next job to run: first one whose lease expired (its runner died; the attempt count grows),
   * else the oldest due queued job. null when there is none.
   */
  claim(owner: string, now: number, opts: ClaimOptions): Promise<TrendsLease | null>;
  /** Heartbeat. false: the lease is no longer ours (expired and taken over, or settled). */
  renew(lease: TrendsLease, now: number, leaseMs: number): Promise<boolean>;
  complete(lease: TrendsLease, result: TrendsResult, cached: boolean, now: number): Promise<boolean>;
  /** Back to queued; claimable again from `runAt`. */
  retry(lease: TrendsLease, runAt: number, now: number): Promise<boolean>;
  /**
   * Calls onJob whenever a job may have become claimable, in this process or another (created, or handed back to
   * the queue for now; a retry for later is not news); resolves, once listening, with a function that stops it.
   * Runners wait on it rather than poll.
   */
  watch(onJob: () => void): Promise<() => Promise<void>>;
  fail(lease: TrendsLease, error: TrendsJobError, now: number): Promise<boolean>;

  /** A team's stored result of a grain (by grain key), while it is fresh. */
  cachedResult(teamId: string, grainKey: string, now: number): Promise<TrendsResult | null>;
  cacheResult(teamId: string, grainKey: string, result: TrendsResult, now: number, ttlMs: number): Promise<void>;

  /** Every job held, newest first (by created_at, then id), strictly after index key `after`; one team's or all. */
  list(q: { team_id?: string; after?: string; limit: number }): Promise<IndexEntry[]>;
  /** Settled jobs by when they are forgotten (with a retention), soonest first. */
  expiring(limit: number): Promise<ExpiringEntry[]>;
}

/** The error of a job whose runners kept dying (the claim that would exceed maxAttempts fails it instead). */
export const WORKER_LOST: TrendsJobError = {
  code: 'worker_lost',
  message: 'the workers running this job stopped before finishing it, on every attempt',
  retryable: true,
};
