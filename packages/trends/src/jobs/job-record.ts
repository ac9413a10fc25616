import type { TrendsGrain, TrendsJob } from '@trawl/contract';
import { newId } from '@trawl/store';
import { WORKER_LOST, type TrendsJobRecord } from './types.ts';

const iso = (ms: number) => new Date(ms).toISOString();

/** A fresh queued job (both backends store exactly this). */
export function newJobRecord(input: { team_id: string; request: TrendsGrain }, now: number): TrendsJobRecord {
  const at = new Date(now).toISOString();
  return {
    id: newId('job'),
    team_id: input.team_id,
    request: { ...input.request },
    state: 'queued',
    attempts: 0,
    created_at: at,
    updated_at: at,
    started_at: null,
    completed_at: null,
    result: null,
    error: null,
    cached: false,
    owner: null,
    lease_until: null,
  };
}

/** The job as a claim takes it (the Kv store; the claim script writes the same fields). */
export function takenJobRecord(job: TrendsJobRecord, owner: string, now: number, leaseMs: number): TrendsJobRecord {
  return {
    ...job,
    state: 'running',
    attempts: job.attempts + 1,
    owner,
    lease_until: now + leaseMs,
    started_at: job.started_at ?? iso(now),
    updated_at: iso(now),
  };
}

/** A job whose lease lapsed at its last attempt, failed by the claim that found it. */
export function lostJobRecord(job: TrendsJobRecord, now: number): TrendsJobRecord {
  return { ...job, state: 'failed', error: WORKER_LOST, owner: null, lease_until: null, updated_at: iso(now), completed_at: iso(now) };
}

/** The public TrendsJob: the stored job without its team and lease. */
export function jobView(job: TrendsJobRecord): TrendsJob {
  return {
    id: job.id,
    state: job.state,
    attempts: job.attempts,
    created_at: job.created_at,
    updated_at: job.updated_at,
    started_at: job.started_at,
    completed_at: job.completed_at,
    request: job.request,
    result: job.result,
    error: job.error,
    cached: job.cached,
  };
}
