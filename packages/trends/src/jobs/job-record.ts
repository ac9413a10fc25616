import type { TrendsGrain, TrendsJob } from '@trawl/contract';
import { newId } from '@trawl/store';
import type { TrendsJobRecord } from './types.ts';

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
