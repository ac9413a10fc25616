import type { PublicRun, RunStatus } from '@trawl/contract';
import type { Store } from '@trawl/store';
import { PAGE_COST, RUN_QUOTA_RESOURCES } from './billing.ts';

/** What a crawl's run reflects of its crawl: status, delivered pages, when it ended. */
export interface CrawlRunState {
  status: RunStatus;
  completed_at: string | null;
  pages_completed: number;
}

/** Opens the run of a new crawl: queued, showing the crawl quota it reserved (its page cap, see createCrawl). */
export async function openCrawlRun(
  store: Store,
  ids: { run_id: string; crawl_id: string; team_id: string },
  createdAt: string,
  maxPages: number,
): Promise<PublicRun> {
  const run: PublicRun = {
    id: ids.run_id,
    type: 'crawl',
    status: 'queued',
    created_at: createdAt,
    cost_units: 0,
    quota: { resource: RUN_QUOTA_RESOURCES.crawl, quantity_reserved: maxPages },
  };
  await store.createRun({ run, team_id: ids.team_id, crawl_id: ids.crawl_id });
  return run;
}

/** Closes a settled crawl's run with its final status and cost; a run already gone (expired) is left alone. */
export async function closeCrawlRun(store: Store, runId: string, end: CrawlRunState & { completed_at: string }): Promise<void> {
  const record = await store.getRun(runId);
  if (!record) return;
  const run = { ...record.run, status: end.status, completed_at: end.completed_at, cost_units: end.pages_completed * PAGE_COST };
  await store.saveRun({ ...record, run });
}

/** A crawl's run follows its crawl until the crawl is settled (then the stored run is final). */
export function liveCrawlRun(run: PublicRun, crawl: CrawlRunState): PublicRun {
  return {
    ...run,
    status: crawl.status,
    cost_units: crawl.pages_completed * PAGE_COST,
    ...(crawl.completed_at ? { completed_at: crawl.completed_at } : {}),
  };
}
