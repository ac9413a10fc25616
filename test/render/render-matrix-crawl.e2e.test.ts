import { afterAll, beforeAll, describe, expect, it } from 'vitest';
import { allItems, startCrawl, waitForCrawl } from '@trawl/test-support/crawl-client.ts';
import { startCrawlEnv, type CrawlEnv } from '@trawl/test-support/crawl-modes.ts';
import { expectWholeRender, MATRIX_SETTLE_ENV } from '@trawl/test-support/render-matrix/checks.ts';
import { CRAWL_SAMPLE, matrixPage } from '@trawl/test-support/render-matrix/pages.ts';
import { startMatrixSite, type MatrixSite } from '@trawl/test-support/render-matrix/site.ts';

/**
 * Issue 10: a crawl with browser controls reads the pages of the render matrix whole: a sample of one page per way
 * of drawing (CRAWL_SAMPLE; Browser scrape reads every page). Embedded mode only: the render is the same code in a
 * cluster worker, and crawl-browser.e2e.test.ts runs browser crawls in both modes.
 */
let site: MatrixSite;
beforeAll(async () => {
  site = await startMatrixSite();
});
afterAll(async () => {
  await site?.close();
});

describe('render matrix through a browser-controlled crawl (embedded)', () => {
  let env: CrawlEnv;
  beforeAll(async () => {
    // As many pages of the matrix host in flight as browser pages: this suite pins what a render reads, and with
    // four never-settling pages queued on two browser pages of a loaded machine, pages waited out their queueing
    // budget (one fetch timeout) three times and ended browser_capacity_full (that rule: crawler retry-rules.test.ts).
    // One browser page more than the host's pages in flight: in a full run beside another Chromium suite, a queued
    // page still ran out of its retries the same way with two (its cause not pinned down: a slack page is cheap).
    env = await startCrawlEnv('embedded', { env: { TRAWL_BROWSER_PAGES: '3', TRAWL_HOST_CONCURRENCY: '2', TRAWL_FETCH_TIMEOUT_MS: '20000', ...MATRIX_SETTLE_ENV } });
  });
  afterAll(async () => {
    await env?.close();
  });

  it('delivers every sampled matrix page whole', async () => {
    const created = await startCrawl(env.gw, { urls: [`${site.origin('matrix.test')}/matrix-sample/`], max_depth: 1, browser: {} });
    const done = await waitForCrawl(env.gw, created.id, { timeoutMs: 150_000 });
    expect(done.status).toBe('completed');
    const items = await allItems(env.gw, created.id);
    const seen = new Set<string>();
    for (const item of items) {
      const name = new URL(item.url).pathname.replace(/^\/matrix\/?/, '');
      const page = matrixPage(name);
      if (!page) continue;
      seen.add(name);
      expect(item.audit.engines_attempted).toEqual(['browser']);
      expectWholeRender(page, item);
    }
    const failed = items.filter((i) => i.status !== 'completed').map((i) => `${i.url}: ${i.status}`);
    expect([...seen].sort(), JSON.stringify({ progress: done.progress, diagnostics: done.diagnostics, failed })).toEqual(CRAWL_SAMPLE.map((p) => p.name).sort());
  }, 180_000);
});
