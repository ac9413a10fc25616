import type { AdminDeps } from '../deps.ts';
import { retentionUpcoming, RetentionUpcomingInput } from '../retention-view.ts';
import { adminProcedure, router } from '../trpc.ts';

/** retention.upcoming: ended crawls and settled trends jobs, soonest to be forgotten first. */
export function retentionArea({ crawl, trendsJobs }: AdminDeps) {
  return router({
    upcoming: adminProcedure
      .meta({
        description: 'Ended crawls and settled trends jobs, soonest to be forgotten first, with `expires_at`.',
        returns: '`{items}`: each `{kind: crawl | trends_job, id, team_id, status, expires_at}`.',
      })
      .input(RetentionUpcomingInput).query(({ input }) => retentionUpcoming({ crawls: crawl.crawls, trends: trendsJobs }, input)),
  });
}
