import { afterAll, beforeAll, describe, expect, it } from 'vitest';
import { loadConfig } from '@trawl/config';
import { Extraction } from '@trawl/contract';
import { buildPlan, DEFAULT_WORKER_SETTINGS } from '@trawl/crawler';
import { createRuntime, type Runtime } from '@trawl/process';
import { decodeItem } from '../../packages/crawler/src/api/item-codec.ts';
import { CrawlContexts } from '../../packages/crawler/src/worker/crawl-context.ts';
import { runPageTask, type PageTaskDeps } from '../../packages/crawler/src/worker/page-task.ts';
import { startCrawlSite, untilRequested, type CrawlSite } from '@trawl/test-support/crawl-site.ts';
import { randomPrefix, startRedisServer, type RedisServer } from '@trawl/test-support/redis-server.ts';
import { CATALOG_EXTRACTION, catalogV1, expectedRecords } from '../extraction/catalog-pages.ts';

/**
 * Selector memory only makes extraction faster or able to survive a redesign: a page whose memory cannot be read
 * (Redis gone for a few seconds) is extracted by its selectors and delivered once Redis is back, never failed.
 */
const HOST = 'memory.outage.test';
let site: CrawlSite;
let redis: RedisServer;
let rt: Runtime;

beforeAll(async () => {
  site = await startCrawlSite();
  site.page(site.url(HOST), { body: catalogV1(), contentType: 'text/html; charset=utf-8' });
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
});
afterAll(async () => {
  await rt?.close();
  await redis?.stop();
  await site?.close();
});

describe('extraction while the store is away', () => {
  it('extracts by selectors without memory, and the page is delivered once Redis is back', async () => {
    const extraction = Extraction.parse(CATALOG_EXTRACTION);
    const ids = { crawl_id: 'crawl_memory_outage', run_id: 'run_memory_outage', team_id: 'team_memory_outage' };
    const { plan, seeds } = buildPlan({ urls: [site.url(HOST)], max_depth: 0, extraction }, ids, 'shadow', Date.now());
    await rt.crawls.createCrawl(plan, seeds);
    const [lease] = (await rt.crawls.lease(plan.crawl_id, HOST, 1, 60_000, Date.now())).leases;
    const deps: PageTaskDeps = {
      crawls: rt.crawls,
      contexts: new CrawlContexts(rt.crawls),
      light: rt.light,
      browser: rt.browser,
      content: rt.content,
      memory: rt.store,
      robots: null,
      settings: { ...DEFAULT_WORKER_SETTINGS, storeOutageMs: 15_000 },
      onFinished: () => undefined,
      onNewHosts: async () => undefined,
      onLinksAdmitted: () => undefined,
      onHostBackoff: async () => undefined,
      topUpBudget: async () => false,
    };
    await deps.contexts.get(plan.crawl_id);
    await redis.halt();
    const task = runPageTask(deps, plan.crawl_id, lease);
    // The page is fetched while Redis is away (waited for, not slept on: a loaded full run outlasted a fixed 1.5 s),
    // and its extraction meets the outage for a second more.
    await untilRequested(site);
    await new Promise((r) => setTimeout(r, 1_000));
    expect(site.requests().map((r) => r.path)).toEqual(['/']);
    await redis.restart();
    await task;
    const item = decodeItem((await rt.crawls.item(plan.crawl_id, 0))!);
    expect(item.records).toEqual(expectedRecords(new URL(site.url(HOST)).origin));
    expect(item.diagnostics.adaptive_extraction.action).toBe('matched');
  }, 30_000);
});
