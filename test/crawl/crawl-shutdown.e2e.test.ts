import { afterAll, beforeAll, describe, expect, it } from 'vitest';
import { allItems, duplicates, startCrawl, waitForCrawl } from '@trawl/test-support/crawl-client.ts';
import { startCrawlEnv, workerLogs, type CrawlEnv } from '@trawl/test-support/crawl-modes.ts';
import { startCrawlSite, type CrawlSite } from '@trawl/test-support/crawl-site.ts';

/**
 * Issue 15, item 5: a worker asked to stop (SIGTERM) stops leasing, lets the pages it holds finish within its
 * grace period, and only then gives back its shards: a page in flight is delivered once, not aborted and retried.
 */
let site: CrawlSite;
const HOST = 'slow.shutdown.test';
const PAGES = 6;

beforeAll(async () => {
  site = await startCrawlSite();
  const children = Array.from({ length: PAGES - 1 }, (_, i) => `/p${i + 1}`);
  site.page(site.url(HOST), { links: children });
  for (const p of children) site.page(site.url(HOST, p), { latencyMs: 2_500 });
});
afterAll(async () => {
  await site?.close();
});

describe('worker shutdown (cluster)', () => {
  let env: CrawlEnv;
  beforeAll(async () => {
    // A generous page deadline: the worker started mid-crawl boots while the machine is busy, and a page of its
    // that ran out of time would be a retry this test is not about.
    env = await startCrawlEnv('cluster', { workers: 1, env: { TRAWL_FETCH_TIMEOUT_MS: '30000' } });
  });
  afterAll(async () => {
    await env?.close();
  });

  it('finishes the pages it holds before giving its shards back: each delivered once, none retried', async () => {
    const created = await startCrawl(env.gw, { urls: [site.url(HOST)], max_depth: 1 });
    await waitForCrawl(env.gw, created.id, { until: (j) => j.progress.pages_in_flight >= 2, context: () => workerLogs(env) });
    const [first] = env.workers;
    const stopping = first.stop(30_000);
    await env.addWorkers(1);
    await stopping;
    const done = await waitForCrawl(env.gw, created.id, { timeoutMs: 60_000, context: () => workerLogs(env) });
    expect(done.status).toBe('completed');
    expect(done.progress.pages_completed).toBe(PAGES);
    expect(done.diagnostics.retry.categories, workerLogs(env)).toEqual({});
    const items = await allItems(env.gw, created.id);
    expect(duplicates(items.map((i) => i.url))).toEqual([]);
  }, 120_000);
});
