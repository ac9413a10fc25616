import { describe, expect, it } from 'vitest';
import { frontierStats, FrontierStatsInput, listWorkers, type CrawlPlan, type CrawlStore, type FrontierRequest, type ShardDirectory } from '../src/index.ts';

/** A crawl store and a shard directory of one backend. */
export type MakeFrontier = () => { crawls: CrawlStore; directory: ShardDirectory };

function plan(id: string): CrawlPlan {
  return {
    crawl_id: id,
    team_id: 'team_1',
    run_id: `run_${id}`,
    created_at: new Date().toISOString(),
    seeds: [],
    scope: 'all',
    max_depth: 2,
    max_pages: 100,
    billing_mode: 'shadow',
  };
}
const req = (url: string): FrontierRequest => ({ url, host: new URL(url).hostname, depth: 0, seed: 0, parent: null, attempt: 0 });
const pages = (host: string, n: number) => Array.from({ length: n }, (_, i) => req(`http://${host}/p${i}`));

/** Creates a crawl with the given pages and registers it as a live crawl does (active, hosts as shards). */
async function crawlOf(d: { crawls: CrawlStore; directory: ShardDirectory }, id: string, reqs: FrontierRequest[]) {
  await d.crawls.createCrawl(plan(id), reqs);
  await d.directory.addActiveCrawl(id);
  for (const h of new Set(reqs.map((r) => r.host))) await d.directory.registerHost(h, id);
}

/** The operator's frontier and worker views on every backend: cluster-views.test.ts (Kv) and .e2e.test.ts (Redis). */
export function clusterViewCases(backends: [string, MakeFrontier][]): void {
  describe.each(backends)('frontier views: %s', (_name, make) => {
    const NOW = Date.now();

    it('sums queued and leased pages per host shard over the active crawls, with owner and oldest lease age', async () => {
      const d = make();
      await crawlOf(d, 'crawl_one', [...pages('a.test', 5), ...pages('b.test', 2)]);
      await crawlOf(d, 'crawl_two', pages('a.test', 3));
      await d.directory.registerHost('idle.test', 'crawl_two');
      await d.crawls.lease('crawl_one', 'a.test', 2, 60_000, NOW - 4_000);
      await d.crawls.lease('crawl_two', 'a.test', 1, 60_000, NOW - 1_000);
      await d.directory.claimShard('a.test', 'worker_x', 10_000);
      const stats = await frontierStats(d, FrontierStatsInput.parse(undefined), NOW);
      expect(stats.totals).toEqual({ shards: 3, active_crawls: 2, queued: 7, leased: 3, oldest_lease_age_ms: 4_000 });
      expect(stats.hosts).toEqual([
        { host: 'a.test', owner: 'worker_x', crawls: 2, queued: 5, leased: 3, oldest_lease_age_ms: 4_000 },
        { host: 'b.test', owner: null, crawls: 1, queued: 2, leased: 0, oldest_lease_age_ms: null },
        { host: 'idle.test', owner: null, crawls: 0, queued: 0, leased: 0, oldest_lease_age_ms: null },
      ]);
      // The limit keeps the busiest hosts; the totals still cover all of them.
      const top = await frontierStats(d, FrontierStatsInput.parse({ limit: 1 }), NOW);
      expect(top.hosts.map((h) => h.host)).toEqual(['a.test']);
      expect(top.totals.queued).toBe(7);
    });

    it('counts nothing for an ended crawl: its queues and leases were dropped when it ended', async () => {
      const d = make();
      await crawlOf(d, 'crawl_end', pages('c.test', 4));
      await d.crawls.lease('crawl_end', 'c.test', 1, 60_000, NOW);
      await d.crawls.transition('crawl_end', ['queued', 'running'], 'failed', NOW, { code: 'cancelled', message: 'x' });
      const stats = await frontierStats(d, FrontierStatsInput.parse({}), NOW);
      expect(stats.totals).toMatchObject({ queued: 0, leased: 0, oldest_lease_age_ms: null });
    });

    it('lists the workers by id with their reports', async () => {
      const d = make();
      const report = { host: 'h', pid: 1, started_at: new Date(NOW).toISOString(), shards: 0, shard_hosts: [], pages_in_flight: 0, pages_per_second: 0 };
      await d.directory.heartbeat('worker_b', NOW, report);
      await d.directory.heartbeat('worker_a', NOW, { ...report, pid: 2 });
      const { workers } = await listWorkers(d, NOW);
      expect(workers.map((w) => [w.id, w.pid, w.state])).toEqual([
        ['worker_a', 2, 'live'],
        ['worker_b', 1, 'live'],
      ]);
    });
  });
}
