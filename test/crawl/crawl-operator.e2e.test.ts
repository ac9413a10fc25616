import { afterAll, beforeAll, describe, expect, it } from 'vitest';
import { cancelCrawl, CrawlIdInput, getCrawl as operatorCrawl, listCrawls, ListCrawlsInput } from '@trawl/crawler';
import { frontierStats, FrontierStatsInput, listWorkers } from '@trawl/frontier';
import { retentionUpcoming, RetentionUpcomingInput } from '@trawl/process';
import { allItems, getCrawl, sleep, startCrawl, waitForCrawl, withKey } from '@trawl/test-support/crawl-client.ts';
import { MODES, startCrawlEnv, workerLogs, type CrawlEnv } from '@trawl/test-support/crawl-modes.ts';
import { startCrawlSite, type CrawlSite } from '@trawl/test-support/crawl-site.ts';

/**
 * Issue 15 item 3: the operator's views of a running crawl (crawls across teams, workers, frontier) read from the
 * gateway's own stores while workers (in cluster mode: other processes) crawl a slow site, then the crawl is
 * cancelled mid-way: it ends failed/cancelled, nothing is delivered or fetched after the cancel, and its
 * delivered pages are billed.
 */
let site: CrawlSite;
const PAGES = 60;

beforeAll(async () => {
  site = await startCrawlSite();
  for (const mode of MODES) {
    const host = `cancel-${mode}.example.test`;
    const children = Array.from({ length: PAGES - 1 }, (_, i) => `/p${i + 1}`);
    site.page(site.url(host), { links: children });
    for (const p of children) site.page(site.url(host, p), { latencyMs: 400 });
  }
});
afterAll(async () => {
  await site?.close();
});

describe.each(MODES)('operator views and cancel (%s)', (mode) => {
  let env: CrawlEnv;
  const host = `cancel-${mode}.example.test`;
  beforeAll(async () => {
    env = await startCrawlEnv(mode, { workers: 1 });
  });
  afterAll(async () => {
    await env?.close();
  });

  it('shows the running crawl, its worker and its host shard; a cancel ends it at once, billed for what it delivered', async () => {
    const { store, ...svc } = env.gw.ctx.crawl;
    const team = await store.createTeam(`operator-${mode}`);
    await store.grantCredits(team.id, 100);
    const { secret } = await store.createApiKey(team.id, { label: 'op', scopes: ['crawl', 'runs'] });
    const caller = withKey(env.gw, secret);
    const created = await startCrawl(caller, { urls: [site.url(host)], max_depth: 1 });
    await waitForCrawl(caller, created.id, { until: (j) => j.progress.pages_completed >= 2, intervalMs: 20, context: () => workerLogs(env) });

    const running = await listCrawls(env.gw.ctx.crawl, ListCrawlsInput.parse({ team_id: team.id, status: 'running' }));
    expect(running.ok && running.crawls.map((c) => [c.id, c.team_id, c.plan.seeds])).toEqual([[created.id, team.id, 1]]);

    // The worker crawling it reports itself (cluster mode: from its own process) and holds the host's shard.
    const deps = { crawls: svc.crawls, directory: svc.directory };
    let worker = (await listWorkers(deps, Date.now())).workers.find((w) => w.shard_hosts.includes(host));
    const deadline = Date.now() + 10_000;
    while (!(worker && worker.pages_per_second > 0) && Date.now() < deadline) {
      await sleep(100);
      worker = (await listWorkers(deps, Date.now())).workers.find((w) => w.shard_hosts.includes(host));
    }
    expect(worker).toMatchObject({ state: 'live', shards: 1 });
    expect(worker!.pages_per_second).toBeGreaterThan(0);
    expect(worker!.pid).toBe(mode === 'cluster' ? env.workers[0].pid : process.pid);
    if (mode === 'cluster') expect(env.workers[0].workerIds).toContain(worker!.id);
    const stats = await frontierStats(deps, FrontierStatsInput.parse({}), Date.now());
    const shard = stats.hosts.find((h) => h.host === host);
    expect(shard).toMatchObject({ owner: worker!.id, crawls: 1 });
    expect(shard!.queued).toBeGreaterThan(0);
    expect(shard!.leased).toBeGreaterThan(0);
    expect(shard!.oldest_lease_age_ms).toBeGreaterThanOrEqual(0);

    const cancelled = await cancelCrawl(env.gw.ctx.crawl, CrawlIdInput.parse({ crawl_id: created.id }));
    const mark = site.mark();
    if (!cancelled.ok) throw new Error(`cancel refused: ${JSON.stringify(cancelled)}`);
    const atCancel = cancelled.crawl;
    expect(atCancel).toMatchObject({
      status: 'failed',
      failure: { code: 'cancelled' },
      finalized: true,
      progress: { pages_queued: 0, pages_in_flight: 0 },
    });
    expect(atCancel.progress.pages_completed).toBeLessThan(PAGES);
    expect(atCancel.progress.pages_dropped).toBeGreaterThan(0);

    // Workers drop what they held: after pages already on the wire, the site hears nothing more.
    await sleep(1_000);
    const quiet = site.mark();
    await sleep(1_000);
    expect(site.requests({ since: quiet, host })).toEqual([]);
    expect(site.requests({ since: mark, host }).length).toBeLessThan(PAGES - atCancel.progress.pages_completed);

    // No page was delivered after the cancel; the public status agrees.
    const after = await getCrawl(caller, created.id);
    expect(after).toMatchObject({ status: 'failed', failure: { code: 'cancelled' } });
    expect(after.progress.pages_completed).toBe(atCancel.progress.pages_completed);
    expect(await allItems(caller, created.id)).toHaveLength(atCancel.progress.pages_completed);
    // Settled at the cancel: delivered pages billed once, the run closed as failed.
    expect(await store.balance(team.id)).toBe(100 - atCancel.progress.pages_completed);
    expect((await store.getRun(created.run_id))?.run.status).toBe('failed');
    expect((await operatorCrawl(env.gw.ctx.crawl, CrawlIdInput.parse({ crawl_id: created.id })))?.finalized).toBe(true);
    const upcoming = await retentionUpcoming({ crawls: svc.crawls, trends: env.gw.ctx.trends }, RetentionUpcomingInput.parse({ limit: 100 }));
    expect(upcoming.items).toContainEqual(expect.objectContaining({ kind: 'crawl', id: created.id, team_id: team.id, status: 'failed' }));
    // Its host is no longer a shard with work.
    const later = await frontierStats(deps, FrontierStatsInput.parse({}), Date.now());
    expect(later.hosts.find((h) => h.host === host)).toBeUndefined();
  });
});
