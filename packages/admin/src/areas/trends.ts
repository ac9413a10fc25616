import { getTrendsJob, listTrendsJobs, ListTrendsJobsInput, TrendsJobIdInput } from '@trawl/trends';
import type { AdminDeps } from '../deps.ts';
import { adminError, adminProcedure, router } from '../trpc.ts';

/** trends.list / get: search-trends jobs across teams, with their owner and lease. */
export function trendsArea({ trendsJobs }: AdminDeps) {
  return router({
    /** Newest first, filtered by team and state; `next_cursor` continues (a filtered page may come back short). */
    list: adminProcedure
      .meta({
        description: 'Search-trends jobs of every team, newest first, filtered by team and state.',
        returns: '`{jobs, next_cursor}`.',
      })
      .input(ListTrendsJobsInput).query(async ({ input }) => {
      const page = await listTrendsJobs(trendsJobs, input);
      if (!page.ok) throw adminError('BAD_REQUEST', 'cursor is not one this listing gave');
      return { jobs: page.jobs, next_cursor: page.next_cursor };
    }),
    get: adminProcedure
      .meta({
        description: 'One job, plus `team_id` and, while it runs, the runner holding it (`owner`, `lease_until`).',
        returns: 'The job.',
      })
      .input(TrendsJobIdInput).query(async ({ input }) => {
      const job = await getTrendsJob(trendsJobs, input);
      if (!job) throw adminError('NOT_FOUND', 'no such trends job');
      return job;
    }),
  });
}
