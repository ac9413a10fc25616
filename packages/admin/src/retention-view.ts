import { z } from 'zod';
import type { CrawlStatus, CrawlStore } from '@trawl/frontier';
import type { TrendsJobRecord, TrendsJobStore } from '@trawl/trends';

/** The operator's "what expires next" (admin procedure `retention.upcoming`). */
export const RetentionUpcomingInput = z.strictObject({ limit: z.int().min(1).max(100).default(20) }).prefault({});
export type RetentionUpcomingQuery = z.infer<typeof RetentionUpcomingInput>;

export type RetentionItem =
  | { kind: 'crawl'; id: string; team_id: string; status: CrawlStatus | null; expires_at: string }
  | { kind: 'trends_job'; id: string; team_id: string; status: TrendsJobRecord['state'] | null; expires_at: string };

/**
 * Ended crawls (with their items) and settled search-trends jobs, soonest to be forgotten first. Both come from
 * the stores' indexes, which know each record's forget time; `status` is null when the record went meanwhile.
 * Run artifacts expire on their own clock (TRAWL_ARTIFACT_RETENTION_S from delivery) and are not listed.
 */
export async function retentionUpcoming(
  deps: { crawls: CrawlStore; trends: TrendsJobStore },
  input: RetentionUpcomingQuery,
): Promise<{ items: RetentionItem[] }> {
  const [crawls, jobs] = await Promise.all([deps.crawls.expiringCrawls(input.limit), deps.trends.expiring(input.limit)]);
  const soonest = [
    ...crawls.map((e) => ({ kind: 'crawl' as const, ...e })),
    ...jobs.map((e) => ({ kind: 'trends_job' as const, ...e })),
  ]
    .sort((a, b) => a.expires_at - b.expires_at)
    .slice(0, input.limit);
  const items = await Promise.all(
    soonest.map(async (e): Promise<RetentionItem> => {
      const expires_at = new Date(e.expires_at).toISOString();
      if (e.kind === 'crawl') return { kind: 'crawl', id: e.id, team_id: e.team_id, status: await deps.crawls.statusOf(e.id), expires_at };
      const job = await deps.trends.get(e.id);
      return { kind: 'trends_job', id: e.id, team_id: e.team_id, status: job?.state ?? null, expires_at };
    }),
  );
  return { items };
}
