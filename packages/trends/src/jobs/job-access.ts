import type { TrendsGrain, TrendsJob } from '@trawl/contract';
import { jobView } from './job-record.ts';
import type { TrendsJobStore } from './types.ts';

/** The trends API service: what the gateway's routes call (the route pattern of crawls and runs). */
export type TrendsJobRead = { ok: true; job: TrendsJob } | { ok: false; reason: 'not_found' };

/** Queues a job for the team: the accepted job as the caller sees it. */
export async function createTrendsJob(jobs: TrendsJobStore, teamId: string, grain: TrendsGrain, now: number): Promise<TrendsJob> {
  return jobView(await jobs.create({ team_id: teamId, request: grain }, now));
}

/** A job of the team; another team's job is indistinguishable from a missing one. */
export async function readTrendsJob(jobs: TrendsJobStore, teamId: string, jobId: string): Promise<TrendsJobRead> {
  const job = await jobs.get(jobId);
  return job && job.team_id === teamId ? { ok: true, job: jobView(job) } : { ok: false, reason: 'not_found' };
}
