import { afterAll, beforeAll, describe, expect, it } from 'vitest';
import { loadConfig } from '@trawl/config';
import { buildPlan, DEFAULT_WORKER_SETTINGS } from '@trawl/crawler';
import { isStoreUnavailable, type Lease } from '@trawl/frontier';
import { createRuntime, type Runtime } from '@trawl/process';
import { CrawlContexts } from '../../packages/crawler/src/worker/crawl-context.ts';
import { runPageTask, type PageTaskDeps } from '../../packages/crawler/src/worker/page-task.ts';
import { startCrawlSite, untilRequested, type CrawlSite } from '@trawl/test-support/crawl-site.ts';
import { randomPrefix, startRedisServer, type RedisServer } from '@trawl/test-support/redis-server.ts';

/**
 * One crawl page's result against a real Redis that goes away after the page was leased: within
 * storeOutageMs the result waits and is written once (a repeat records nothing); past it the page task gives up
 * and the lease, left in place, lapses and brings the page back to its queue.
 */
const HOST = 'outage.example.test';
let site: CrawlSite;
let redis: RedisServer;
let rt: Runtime;
let crawlId: string;

beforeAll(async () => {
  site = await startCrawlSite();
  for (const p of ['/', '/a', '/b', '/c']) site.page(site.url(HOST, p), { links: p === '/' ? ['/a', '/b', '/c'] : [] });
  redis = await startRedisServer({ appendonly: true });
  rt = await createRuntime(
    loadConfig({
      REDIS_URL: redis.url,
      REDIS_PREFIX: randomPrefix(),
      TRAWL_ALLOW_PRIVATE: '127.0.0.1/32',
      TRAWL_HOST_RESOLVER_RULES: 'MAP *.test 127.0.0.1',
      TRAWL_CONTENT_THREADS: '0',
    }),
  );
  const { plan, seeds } = buildPlan({ urls: [site.url(HOST)], max_depth: 1 }, { crawl_id: 'crawl_outage', run_id: 'run_outage', team_id: 'team_outage' }, 'shadow', Date.now());
  crawlId = plan.crawl_id;
  await rt.crawls.createCrawl(plan, seeds);
});
afterAll(async () => {
  await rt?.close();
  await redis?.stop();
  await site?.close();
});

function deps(storeOutageMs: number): PageTaskDeps {
  return {
    crawls: rt.crawls,
    contexts: new CrawlContexts(rt.crawls),
    light: rt.light,
    browser: rt.browser,
    content: rt.content,
    memory: rt.store,
    robots: null,
    settings: { ...DEFAULT_WORKER_SETTINGS, storeOutageMs },
    onFinished: () => undefined,
    onNewHosts: async () => undefined,
    onLinksAdmitted: () => undefined,
    onHostBackoff: async () => undefined,
    topUpBudget: async () => false,
  };
}

async function leaseOne(leaseMs: number): Promise<Lease> {
  const [lease] = (await rt.crawls.lease(crawlId, HOST, 1, leaseMs, Date.now())).leases;
  expect(lease).toBeDefined();
  return lease;
}

async function untilReady(): Promise<void> {
  for (let i = 0; i < 200 && !rt.redis!.isReady; i++) await new Promise((r) => setTimeout(r, 25));
}

describe('a crawl page whose result meets a Redis outage', () => {
  it('is written once Redis is back, exactly once', async () => {
    const d = deps(15_000);
    const lease = await leaseOne(60_000);
    await d.contexts.get(crawlId);
    await redis.halt();
    const task = runPageTask(d, crawlId, lease);
    // The page itself was fetched during the outage (waited for, not slept on: a loaded full run outlasted a fixed
    // 1.5 s), and its result meets the outage for a second more.
    await untilRequested(site);
    await new Promise((r) => setTimeout(r, 1_000));
    expect(site.requests().map((r) => r.path)).toEqual(['/']);
    await redis.restart();
    await task;
    const snap = (await rt.crawls.getCrawl(crawlId))!;
    expect(snap.counters).toMatchObject({ completed: 1, discovered: 4, in_flight: 0 });
    // A repeat of the same write (as after a reply lost with the connection) records nothing.
    const again = await rt.crawls.complete(crawlId, lease, { kind: 'delivered', item: '{}' }, [], Date.now());
    expect(again.accepted).toBe(false);
    expect((await rt.crawls.getCrawl(crawlId))!.counters.completed).toBe(1);
  }, 30_000);

  it('gives up after storeOutageMs; the lease lapses and the page goes back to its queue', async () => {
    const d = deps(500);
    const lease = await leaseOne(1_000);
    await d.contexts.get(crawlId);
    await redis.halt();
    const started = Date.now();
    const err = await runPageTask(d, crawlId, lease).catch((e: unknown) => e);
    expect(isStoreUnavailable(err)).toBe(true);
    expect(Date.now() - started).toBeLessThan(5_000);
    await redis.restart();
    await untilReady();
    // Nothing was recorded for it: once its lease has lapsed it is reclaimed and leased again, same URL.
    expect((await rt.crawls.getCrawl(crawlId))!.counters).toMatchObject({ completed: 1, in_flight: 1 });
    await new Promise((r) => setTimeout(r, 1_100));
    expect(await rt.crawls.reclaim(crawlId, Date.now(), 10)).toBe(1);
    const back = await leaseOne(60_000);
    expect(back.request.url).toBe(lease.request.url);
  }, 30_000);
});
