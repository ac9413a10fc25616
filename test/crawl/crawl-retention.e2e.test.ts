import { afterAll, beforeAll, describe, expect, it } from 'vitest';
import { PublicErrorResponse } from '@trawl/contract';
import { allItems, sleep, startCrawl, waitForCrawl } from '@trawl/test-support/crawl-client.ts';
import { MODES, startCrawlEnv, workerLogs, type CrawlEnv } from '@trawl/test-support/crawl-modes.ts';
import { startCrawlSite, type CrawlSite } from '@trawl/test-support/crawl-site.ts';

/** An ended crawl is kept for TRAWL_CRAWL_RETENTION_S, then forgotten (its run record stays). */
let site: CrawlSite;

beforeAll(async () => {
  site = await startCrawlSite();
  for (const mode of MODES) {
    site.page(site.url(`keep-${mode}.example.test`), { links: ['/a'] });
    site.page(site.url(`keep-${mode}.example.test`, '/a'));
  }
});
afterAll(async () => {
  await site?.close();
});

describe.each(MODES)('crawl retention (%s)', (mode) => {
  let env: CrawlEnv;
  beforeAll(async () => {
    env = await startCrawlEnv(mode, { workers: 1, env: { TRAWL_CRAWL_RETENTION_S: '1' } });
  });
  afterAll(async () => {
    await env?.close();
  });

  it('an ended crawl and its items are readable for the retention, then 404; its run stays', async () => {
    const created = await startCrawl(env.gw, { urls: [site.url(`keep-${mode}.example.test`)], max_depth: 1 });
    const done = await waitForCrawl(env.gw, created.id, { context: () => workerLogs(env) });
    expect(done.status).toBe('completed');
    expect(await allItems(env.gw, created.id)).toHaveLength(2);
    let res: Response;
    const deadline = Date.now() + 10_000;
    do {
      await sleep(200);
      res = await env.gw.call('GET', `/v1/crawl/${created.id}`);
    } while (res.status === 200 && Date.now() < deadline);
    expect(res.status).toBe(404);
    expect(PublicErrorResponse.parse(await res.json()).error.code).toBe('crawl_not_found');
    const items = await env.gw.call('GET', `/v1/crawl/${created.id}/items`);
    expect(items.status).toBe(404);
    const run = await env.gw.call('GET', `/v1/runs/${done.run_id}`);
    expect(run.status).toBe(200);
  });
});
