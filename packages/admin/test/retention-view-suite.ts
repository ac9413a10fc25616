import { expect, it } from 'vitest';
import type { CrawlPlan, CrawlStore } from '@trawl/frontier';
import { WORKER_LOST, type TrendsJobStore } from '@trawl/trends';
import { retentionUpcoming, RetentionUpcomingInput } from '../src/retention-view.ts';

export type RetentionBackends = (jobRetentionMs: number) => { crawls: CrawlStore; trends: TrendsJobStore };

const plan = (id: string, team: string): CrawlPlan => ({
  crawl_id: id,
  team_id: team,
  run_id: `run_${id}`,
  created_at: new Date().toISOString(),
  seeds: ['http://a.test/'],
  scope: 'same_hostname',
  max_depth: 0,
  max_pages: 1,
  billing_mode: 'shadow',
});
const GRAIN = { keyword: 'x', geo: '', timeframe: 'today 12-m', category: 0, property: '' as const, hl: 'en', tz: 0 };
const seed = { url: 'http://a.test/', host: 'a.test', depth: 0, seed: 0, parent: null, attempt: 0 };

/** The retention view on one backend: memory in retention-view.test.ts, Redis in retention-view.e2e.test.ts. */
export function retentionViewCases(make: RetentionBackends): void {
  it('lists ended crawls and settled trends jobs, soonest to be forgotten first, with their status', async () => {
    const d = make(30_000);
    const now = Date.now();
    for (const [id, team] of [['crawl_late', 'team_a'], ['crawl_soon', 'team_b'], ['crawl_live', 'team_a']]) await d.crawls.createCrawl(plan(id, team), [seed]);
    await d.crawls.transition('crawl_late', ['queued'], 'completed', now);
    await d.crawls.transition('crawl_soon', ['queued'], 'failed', now, { code: 'cancelled', message: 'x' });
    await d.crawls.expireCrawl('crawl_late', 60_000);
    await d.crawls.expireCrawl('crawl_soon', 10_000);
    const job = await d.trends.create({ team_id: 'team_c', request: GRAIN }, now);
    await d.trends.create({ team_id: 'team_c', request: GRAIN }, now + 1);
    await d.trends.fail((await d.trends.claim('r', now, { leaseMs: 1_000, maxAttempts: 3 }))!, WORKER_LOST, now);

    const { items } = await retentionUpcoming(d, RetentionUpcomingInput.parse(undefined));
    expect(items.map((i) => [i.kind, i.id, i.team_id, i.status])).toEqual([
      ['crawl', 'crawl_soon', 'team_b', 'failed'],
      ['trends_job', job.id, 'team_c', 'failed'],
      ['crawl', 'crawl_late', 'team_a', 'completed'],
    ]);
    const at = items.map((i) => Date.parse(i.expires_at));
    expect(at[0]).toBeGreaterThanOrEqual(now + 10_000);
    expect(at[0]).toBeLessThan(now + 20_000);
    expect((await retentionUpcoming(d, RetentionUpcomingInput.parse({ limit: 1 }))).items.map((i) => i.id)).toEqual(['crawl_soon']);
    expect(RetentionUpcomingInput.safeParse({ limit: 0 }).success).toBe(false);
  });
}
