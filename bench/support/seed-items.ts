import { openKv } from '@trawl/kv';
import { DiskCrawlStore, type CrawlPlan, type FrontierRequest } from '@trawl/frontier';

/**
 * Writes one crawl with `count` delivered items (~2 KB each) straight into a data directory's store, for the
 * embedded-store benchmark's restart measurement; prints {crawl_id, ms} when done.
 */
const [dir, countArg] = process.argv.slice(2);
const count = Number(countArg);
const kv = openKv({ dir });
const store = new DiskCrawlStore(kv);
const crawlId = 'crawl_restartbench';
const now = Date.now();
const HOSTS = 50;
const host = (i: number) => `h${i % HOSTS}.bench.test`;
const req = (i: number): FrontierRequest => ({ url: `http://${host(i)}/p/${i}`, host: host(i), depth: 0, seed: 0, parent: null, attempt: 0 });
const plan: CrawlPlan = {
  crawl_id: crawlId,
  team_id: 'team_bench',
  run_id: 'run_restartbench',
  created_at: new Date(now).toISOString(),
  seeds: [`http://${host(0)}/`],
  scope: 'same_hostname',
  max_depth: 10,
  max_pages: count,
  billing_mode: 'shadow',
};
const t0 = performance.now();
await store.createCrawl(plan, Array.from({ length: count }, (_, i) => req(i)));
const body = 'x'.repeat(2000);
for (let h = 0; h < HOSTS; h++) {
  for (;;) {
    const { leases } = await store.lease(crawlId, host(h), 500, 600_000, now);
    if (leases.length === 0) break;
    for (const lease of leases) {
      const item = JSON.stringify({ url: lease.request.url, title: 'page', content: { markdown: body } });
      await store.complete(crawlId, lease, { kind: 'delivered', item }, [], now);
    }
  }
}
await kv.close();
process.stdout.write(`${JSON.stringify({ crawl_id: crawlId, ms: Math.round(performance.now() - t0) })}\n`);
