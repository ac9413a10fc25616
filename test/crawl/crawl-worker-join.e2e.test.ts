import { afterAll, beforeAll, describe, expect, it } from 'vitest';
import { allItems, duplicates, sorted, startCrawl, waitForCrawl } from '@trawl/test-support/crawl-client.ts';
import { startCrawlEnv, workerLogs, type CrawlEnv, type WorkerProcess } from '@trawl/test-support/crawl-modes.ts';
import { defineTreeWeb, startCrawlSite, type CrawlSite } from '@trawl/test-support/crawl-site.ts';

/**
 * Issue 31 item 4: workers joining and leaving a running crawl (cluster mode, worker processes on one Redis). Once
 * two workers join one that holds every hostname shard, the shards are shared out: no worker holds more than
 * ceil(shards / workers) + 1 of them, and every worker holds some. One then leaves (SIGTERM, its leases given back);
 * the others take its shards. The crawl completes with every page delivered once.
 */
let site: CrawlSite;
let web: string[];
let env: CrawlEnv;
const HOSTS = Array.from({ length: 12 }, (_, i) => `j${i}.example.test`);

beforeAll(async () => {
  site = await startCrawlSite();
  // 12 hosts × 85 pages, 150 ms each: the crawl lasts long enough for workers to join and leave in the middle of it.
  web = defineTreeWeb(site, { hosts: HOSTS, fanout: 4, levels: 3, crossLinks: 3, latencyMs: 150 });
  env = await startCrawlEnv('cluster', { workers: 1, env: { TRAWL_WORKER_CONCURRENCY: '8' } });
}, 60_000);
afterAll(async () => {
  await env?.close();
  await site?.close();
});

describe('workers joining and leaving a running crawl', () => {
  it('share the shards out fairly after a join, take a leaver’s shards, and deliver every page once', async () => {
    const crawl = await startCrawl(env.gw, { urls: HOSTS.map((h) => site.url(h)), scope: 'same_domain', max_depth: 10, max_pages: 2000 });
    const progress = await waitForCrawl(env.gw, crawl.id, { until: (j) => j.progress.pages_completed >= 40, intervalMs: 20 });
    expect(progress.status).toBe('running');
    const redis = await env.connectRedis();
    const owners = async () => {
      const ids = await Promise.all(HOSTS.map((h) => redis.get(`${env.prefix}shard:{${h}}:owner`)));
      const per = (w: WorkerProcess) => ids.filter((id) => id !== null && w.workerIds.includes(id)).length;
      return { held: ids.filter((id) => id !== null).length, per: env.workers.filter((w) => !w.exited()).map(per) };
    };
    try {
      expect((await owners()).per).toEqual([HOSTS.length]);
      await env.addWorkers(2);
      const fair = Math.ceil(HOSTS.length / 3) + 1;
      await until(async () => {
        const o = await owners();
        return o.per.length === 3 && o.per.every((n) => n > 0 && n <= fair) && o.held === HOSTS.length;
      }, `shards shared out among 3 workers, at most ${fair} each`, owners);

      const leaver = env.workers[0];
      await leaver.stop(10_000);
      await until(async () => {
        const o = await owners();
        return o.per.length === 2 && o.per.every((n) => n > 0) && o.held === HOSTS.length;
      }, 'the leaver’s shards taken by the other two', owners);
    } finally {
      await redis.close();
    }
    const done = await waitForCrawl(env.gw, crawl.id, { timeoutMs: 90_000, context: () => workerLogs(env) });
    expect(done.status).toBe('completed');
    expect(done.progress).toMatchObject({ pages_completed: web.length, pages_failed: 0, pages_queued: 0 });
    const urls = (await allItems(env.gw, crawl.id)).map((i) => i.url);
    expect(duplicates(urls)).toEqual([]);
    expect(sorted(urls)).toEqual(sorted(web));
  }, 150_000);
});

async function until(ok: () => Promise<boolean>, what: string, state: () => Promise<unknown>, ms = 20_000): Promise<void> {
  for (const end = Date.now() + ms; Date.now() < end; await new Promise((r) => setTimeout(r, 100))) if (await ok()) return;
  throw new Error(`${what}: not within ${ms} ms (${JSON.stringify(await state())})\n${workerLogs(env)}`);
}
