import { buildPlan } from '../src/api/plan.ts';
import { DEFAULT_WORKER_SETTINGS, type WorkerSettings } from '../src/worker/settings.ts';
import type { CrawlStore } from '@trawl/frontier';

export const settings = (over: Partial<WorkerSettings> = {}): WorkerSettings => ({ ...DEFAULT_WORKER_SETTINGS, ...over });

/** Creates a crawl `id` in the store with the given seed URLs (all admitted, depth 0). */
export async function seedCrawl(crawls: CrawlStore, id: string, urls: string[]): Promise<void> {
  const { plan, seeds } = buildPlan(
    { urls, max_pages: Math.max(urls.length, 1) },
    { crawl_id: id, run_id: `run_${id}`, team_id: 'team' },
    'shadow',
    Date.now(),
  );
  await crawls.createCrawl(plan, seeds);
}

export const pages = (host: string, n: number, from = 0) => Array.from({ length: n }, (_, i) => `https://${host}/p${from + i}`);
