import { afterAll, beforeAll, describe, expect, it } from 'vitest';
import type { CrawlJob } from '@trawl/contract';
import { allItems, duplicates, getCrawl, sorted, startCrawl, waitForCrawl } from '@trawl/test-support/crawl-client.ts';
import { MODES_WITH_REDIS_CLUSTER, startCrawlEnv, workerLogs, type CrawlEnv } from '@trawl/test-support/crawl-modes.ts';
import { defineTreeWeb, startCrawlSite, type CrawlSite } from '@trawl/test-support/crawl-site.ts';
import { startGatewayProcess } from '@trawl/test-support/processes.ts';

/**
 * Issue 3 point 8: a worker dies in the middle of a crawl (cluster: kill -9 of a worker process; embedded: one of
 * three in-process worker actors stops). The crawl completes, every reachable in-scope page is delivered exactly
 * once, and a capped crawl running at the same time still delivers exactly its cap. In cluster mode every part is
 * its own process: redis-server, a gateway process (the API is called there) and three worker processes.
 */
let site: CrawlSite;
let web: string[];
const HOSTS = ['r0.example.test', 'r1.example.test', 'r2.example.test', 'r3.example.test'];
const CAP = 150;

beforeAll(async () => {
  site = await startCrawlSite();
  // 340 pages, 60 ms each: long enough (a few seconds) for the kill to land while every host has work.
  web = defineTreeWeb(site, { hosts: HOSTS, fanout: 4, levels: 3, crossLinks: 3, latencyMs: 60 });
});
afterAll(async () => {
  await site?.close();
});

describe.each(MODES_WITH_REDIS_CLUSTER)('crawl recovery (%s)', (mode) => {
  let env: CrawlEnv;
  beforeAll(async () => {
    env = await startCrawlEnv(mode, { workers: 3 });
  });
  afterAll(async () => {
    await env?.close();
  });

  it('a worker that dies mid-crawl loses no page and duplicates none; the cap still holds', async () => {
    const api = mode !== 'embedded' ? await startGatewayProcess('gateway', { ...env.processEnv!, TRAWL_WORKERS: '0' }) : env.gw;
    const full = await startCrawl(api, { urls: [site.url(HOSTS[0])], scope: 'same_domain', max_depth: 10, max_pages: 1000 });
    const capped = await startCrawl(api, { urls: [site.url(HOSTS[1])], scope: 'same_domain', max_depth: 10, max_pages: CAP });

    // Wait until the crawl is well under way, then take a worker out.
    const atKill = await waitForCrawl(api, full.id, { until: (j) => j.progress.pages_completed >= 60, intervalMs: 20 });
    if (mode !== 'embedded') {
      // The victim is the process owning the most hostname shards: its buffered and in-flight leases are orphaned.
      const redis = await env.connectRedis();
      const owners = await Promise.all(HOSTS.map((h) => redis.get(`${env.prefix}shard:{${h}}:owner`)));
      const victim = env.workers
        .map((w) => ({ w, hosts: HOSTS.filter((_, i) => owners[i] !== null && w.workerIds.includes(owners[i]!)) }))
        .sort((a, b) => b.hosts.length - a.hosts.length)[0];
      // Leases of both crawls on the victim's hosts (a lease member is "<token>\n<host>\n<request>").
      const leases = (
        await Promise.all([full.id, capped.id].map((id) => redis.zRange(`${env.prefix}crawl:{${id}}:leases`, 0, -1)))
      ).flat();
      await victim.w.kill9();
      await redis.quit();
      const orphaned = leases.filter((m) => victim.hosts.includes(m.split('\n')[1]));
      // The kill really stranded work that only lease expiry and reclaim can bring back.
      expect(orphaned.length).toBeGreaterThan(0);
    } else {
      // One process: the closest thing is a worker actor leaving; its in-flight pages are aborted, not finished.
      await env.gw.workers[0].stop();
    }
    expect(atKill.status).toBe('running');
    const afterKill = await getCrawl(api, full.id);
    expect(afterKill.progress.pages_completed).toBeLessThan(web.length);

    const statuses = new Set<string>();
    const done = await waitForCrawl(api, full.id, { timeoutMs: 45_000, onPoll: (j) => statuses.add(j.status), context: () => workerLogs(env) });
    const cappedDone = await waitForCrawl(api, capped.id, { timeoutMs: 30_000, context: () => workerLogs(env) });

    // Straight on to completed: never failed, paused or expired on the way.
    for (const st of statuses) expect(['running', 'completed']).toContain(st);
    // Every page of the web, once.
    expectCompleted(done, web.length);
    const items = await allItems(api, full.id);
    const urls = items.map((i) => i.url);
    expect(duplicates(urls)).toEqual([]);
    expect(sorted(urls)).toEqual(sorted(web));

    // The capped crawl: exactly its cap, all distinct pages of the web.
    expectCompleted(cappedDone, CAP);
    const cappedUrls = (await allItems(api, capped.id)).map((i) => i.url);
    expect(cappedUrls).toHaveLength(CAP);
    expect(duplicates(cappedUrls)).toEqual([]);
    for (const u of cappedUrls) expect(web).toContain(u);
  }, 120_000);
});

function expectCompleted(job: CrawlJob, pages: number) {
  expect(job.status).toBe('completed');
  expect(job.progress).toMatchObject({
    pages_discovered: pages,
    pages_completed: pages,
    pages_failed: 0,
    pages_blocked: 0,
    pages_dropped: 0,
    pages_queued: 0,
    pages_in_flight: 0,
  });
}
