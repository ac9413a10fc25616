import { z } from 'zod';
import { filteredPage, LIST_QUERY_FIELDS, RecordId, TRENDS_JOB_STATES, type TrendsJob } from '@trawl/contract';
import { jobView } from './job-record.ts';
import type { TrendsJobRecord, TrendsJobStore } from './types.ts';

/**
 * The operator's search-trends jobs across teams (admin procedures `trends.list`, `trends.get`). No team check:
 * the admin router is the gate.
 */
export const ListTrendsJobsInput = z.strictObject({ ...LIST_QUERY_FIELDS, state: z.enum(TRENDS_JOB_STATES).optional() }).prefault({});
export type ListTrendsJobsQuery = z.infer<typeof ListTrendsJobsInput>;

export const TrendsJobIdInput = z.strictObject({ job_id: RecordId });
export type TrendsJobIdQuery = z.infer<typeof TrendsJobIdInput>;

/** A job as the operator sees it: the public TrendsJob, its team, and the runner holding it while it runs. */
export interface OperatorTrendsJob extends TrendsJob {
  team_id: string;
  /** Runner id holding the job (state running), else null. */
  owner: string | null;
  lease_until: string | null;
}

export type TrendsJobListPage = { ok: true; jobs: OperatorTrendsJob[]; next_cursor: string | null } | { ok: false; reason: 'bad_cursor' };

function operatorJobView(job: TrendsJobRecord): OperatorTrendsJob {
  return {
    ...jobView(job),
    team_id: job.team_id,
    owner: job.owner,
    lease_until: job.lease_until === null ? null : new Date(job.lease_until).toISOString(),
  };
}

/**
 * Jobs of every team (or one), newest first, optionally in one state. A page may come back short with a cursor when
 * the state filter skipped many jobs; `next_cursor` is null once the listing has reached the oldest job.
 */
export async function listTrendsJobs(jobs: TrendsJobStore, input: ListTrendsJobsQuery): Promise<TrendsJobListPage> {
  const page = await filteredPage({
    cursor: input.cursor,
    limit: input.limit,
    fetch: (from, n) => jobs.list({ team_id: input.team_id, after: from, limit: n }),
    load: async (batch) => {
      const found = await Promise.all(batch.map((e) => jobs.get(e.id)));
      return found.map((j) => (j && (input.state === undefined || j.state === input.state) ? operatorJobView(j) : null));
    },
  });
  return page ? { ok: true, jobs: page.items, next_cursor: page.next_cursor } : { ok: false, reason: 'bad_cursor' };
}

/** Any team's job, or null when the store does not hold it (never created, or forgotten after its retention). */
export async function getTrendsJob(jobs: TrendsJobStore, input: TrendsJobIdQuery): Promise<OperatorTrendsJob | null> {
  const job = await jobs.get(input.job_id);
  return job && operatorJobView(job);
}
