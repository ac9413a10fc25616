import { afterAll, beforeAll, describe, expect, it } from 'vitest';
import { adminErrorOf, createAdminClient, type AdminClient } from '@trawl/admin/client';
import { TEST_ADMIN_TOKEN } from '@trawl/test-support/admin-client.ts';
import { allItems, getCrawl, sleep, startCrawl, waitForCrawl, withKey } from '@trawl/test-support/crawl-client.ts';
import { MODES, startCrawlEnv, workerLogs, type CrawlEnv } from '@trawl/test-support/crawl-modes.ts';
import { startCrawlSite, type CrawlSite } from '@trawl/test-support/crawl-site.ts';

/**
 * Issue 15 item 3: the operator's views of a running crawl (crawls across teams, workers, frontier), asked over
 * /admin with the typed admin client while workers (in cluster mode: other processes) crawl a slow site, then the crawl is
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
  let admin: AdminClient;
  const host = `cancel-${mode}.example.test`;
  beforeAll(async () => {
    env = await startCrawlEnv(mode, { workers: 1, env: { TRAWL_ADMIN_TOKEN: TEST_ADMIN_TOKEN } });
    admin = createAdminClient({ baseUrl: env.gw.url, token: TEST_ADMIN_TOKEN });
  });
  afterAll(async () => {
    await env?.close();
  });

  it('shows the running crawl, its worker and its host shard; a cancel ends it at once, billed for what it delivered', async () => {
    const { store } = env.gw.ctx.crawl;
    const team = await store.createTeam(`operator-${mode}`);
    await store.grantCredits(team.id, 100);
    const { secret } = await store.createApiKey(team.id, { label: 'op', scopes: ['crawl', 'runs'] });
    const caller = withKey(env.gw, secret);
    const created = await startCrawl(caller, { urls: [site.url(host)], max_depth: 1 });
    await waitForCrawl(caller, created.id, { until: (j) => j.progress.pages_completed >= 2, intervalMs: 20, context: () => workerLogs(env) });

    const running = await admin.crawls.list.query({ team_id: team.id, status: 'running' });
    expect(running.crawls.map((c) => [c.id, c.team_id, c.plan.seeds])).toEqual([[created.id, team.id, 1]]);
    expect(adminErrorOf(await admin.crawls.resume.mutate({ crawl_id: created.id }).catch((e: unknown) => e))).toMatchObject({ code: 'CONFLICT' });

    // The worker crawling it reports itself (cluster mode: from its own process) and holds the host's shard. The two
    // views are read one after the other: a worker's report may name a shard whose lease lapsed under load a moment
    // before its next tick renews it (seen once in a full run: owner null), so both are asked until they agree.
    const views = async () => {
      const worker = (await admin.workers.list.query()).workers.find((w) => w.shard_hosts.includes(host));
      const shard = (await admin.frontier.stats.query({})).hosts.find((h) => h.host === host);
      return { worker, shard };
    };
    let { worker, shard } = await views();
    const deadline = Date.now() + 10_000;
    while (!(worker && worker.pages_per_second > 0 && shard?.owner === worker.id) && Date.now() < deadline) {
      await sleep(100);
      ({ worker, shard } = await views());
    }
    expect(worker).toMatchObject({ state: 'live', shards: 1 });
    expect(worker!.pages_per_second).toBeGreaterThan(0);
    expect(worker!.pid).toBe(mode === 'cluster' ? env.workers[0].pid : process.pid);
    if (mode === 'cluster') expect(env.workers[0].workerIds).toContain(worker!.id);
    expect(shard).toMatchObject({ owner: worker!.id, crawls: 1 });
    expect(shard!.queued).toBeGreaterThan(0);
    expect(shard!.leased).toBeGreaterThan(0);
    expect(shard!.oldest_lease_age_ms).toBeGreaterThanOrEqual(0);

    const atCancel = await admin.crawls.cancel.mutate({ crawl_id: created.id });
    const mark = site.mark();
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
    expect((await admin.crawls.get.query({ crawl_id: created.id })).finalized).toBe(true);
    expect(adminErrorOf(await admin.crawls.cancel.mutate({ crawl_id: created.id }).catch((e: unknown) => e))).toMatchObject({ code: 'CONFLICT' });
    const upcoming = await admin.retention.upcoming.query({ limit: 100 });
    expect(upcoming.items).toContainEqual(expect.objectContaining({ kind: 'crawl', id: created.id, team_id: team.id, status: 'failed' }));
    // Its host is no longer a shard with work.
    const later = await admin.frontier.stats.query({});
    expect(later.hosts.find((h) => h.host === host)).toBeUndefined();
  });
});
