import type { TrendsGrain, TrendsJob } from '@trawl/contract';
import { quotaMonth, type QuotaStore } from '@trawl/store';
import { jobView } from './job-record.ts';
import type { TrendsJobStore } from './types.ts';

/** The trends API service: what the gateway's routes call (the route pattern of crawls and runs). */
export type TrendsJobRead = { ok: true; job: TrendsJob } | { ok: false; reason: 'not_found' };

export type TrendsJobCreate = { ok: true; job: TrendsJob } | { ok: false; reason: 'quota_exceeded'; resource: 'trends' };

/**
 * Queues a job for the team: the accepted job as the caller sees it. Each job takes one unit of the team's monthly
 * `trends` quota first (refused: no job); the unit stays counted whatever becomes of the job, since its upstream
 * calls are spent either way. (Page runs and crawls take theirs in `@trawl/runs` billing.ts, above this layer.)
 */
export async function createTrendsJob(
  deps: { jobs: TrendsJobStore; quotas: QuotaStore },
  teamId: string,
  grain: TrendsGrain,
  now: number,
): Promise<TrendsJobCreate> {
  if (!(await deps.quotas.takeQuota(teamId, 'trends', quotaMonth(now), 1)).ok) return { ok: false, reason: 'quota_exceeded', resource: 'trends' };
  return { ok: true, job: jobView(await deps.jobs.create({ team_id: teamId, request: grain }, now)) };
}

/** A job of the team; another team's job is indistinguishable from a missing one. */
export async function readTrendsJob(jobs: TrendsJobStore, teamId: string, jobId: string): Promise<TrendsJobRead> {
  const job = await jobs.get(jobId);
  return job && job.team_id === teamId ? { ok: true, job: jobView(job) } : { ok: false, reason: 'not_found' };
}
