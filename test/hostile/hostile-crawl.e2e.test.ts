import { afterAll, beforeAll, describe, expect, it } from 'vitest';
import { allItems, startCrawl, waitForCrawl } from '@trawl/test-support/crawl-client.ts';
import { startTestGateway, type TestGateway } from '@trawl/test-support/gateway.ts';
import { startHostileSite, type HostileSite } from '@trawl/test-support/hostile-site.ts';
import { ORDINARY_MARKER } from '@trawl/test-support/hostile-site.ts';
import { DEADLINE_MS, ordinaryWhile, warmUp, ORDINARY_BOUND_MS } from './hostile-checks.ts';

/**
 * Issue 12: a crawl whose seed links to every hostile page (embedded mode: the crawl worker shares the gateway's
 * content threads, so this is also where a hostile crawl page could stall Fetch callers). The crawl ends, every
 * page has an outcome in its counters and reasons, delivered items are in shape, and Fetches meanwhile stay fast.
 */
let site: HostileSite;
let gw: TestGateway;

beforeAll(async () => {
  site = await startHostileSite();
  // Two slow-lane threads: /links (4.5 s of CPU alone) and /deep are crawled at once, and on one low-priority thread
  // beside a busy suite the second waited past its deadline on every attempt (a page failed that is delivered).
  gw = await startTestGateway({
    TRAWL_FETCH_TIMEOUT_MS: String(DEADLINE_MS),
    TRAWL_CONTENT_THREADS: '1',
    TRAWL_CONTENT_SLOW_THREADS: '2',
    TRAWL_ROBOTS: 'false',
    LOG_LEVEL: 'warn',
  });
  await warmUp(gw, site);
});
afterAll(async () => {
  await gw?.close();
  await site?.close();
});

describe('a crawl of hostile pages', () => {
  it('ends with every page accounted for, and Fetches stay fast meanwhile', async () => {
    const created = await startCrawl(gw, { urls: [site.url('hostile.test', '/')], max_depth: 1, max_pages: 20 });
    const crawl = waitForCrawl(gw, created.id, { timeoutMs: 55_000 });
    const ordinary = await ordinaryWhile(gw, site, crawl);
    const done = await crawl;
    expect(done.status).toBe('completed');
    const p = done.progress;
    // /, /deep, /links and /ordinary are delivered; binary, the bomb and the loop are refused; the drip and the
    // silent page run out of time on every attempt (a failed page, retried under the `timeout` category).
    expect({ completed: p.pages_completed, blocked: p.pages_blocked, failed: p.pages_failed }).toEqual({ completed: 4, blocked: 3, failed: 2 });
    expect(done.diagnostics.block_reasons).toEqual({ unsupported_content_type: 1, body_size_limit: 1, redirect_limit: 1, timeout: 2 });
    expect(done.diagnostics.retry.categories.timeout).toBeGreaterThanOrEqual(2);

    const items = await allItems(gw, created.id);
    const byPath = Object.fromEntries(items.map((i) => [new URL(i.url).pathname, i]));
    expect(Object.keys(byPath).sort()).toEqual(['/', '/deep', '/links', '/ordinary']);
    expect(byPath['/deep'].diagnostics.content_quality.limits_applied).toEqual(['nesting_depth']);
    expect(byPath['/links'].diagnostics.content_quality.limits_applied).toEqual(['element_count', 'link_count']);
    expect(byPath['/links'].content.links).toHaveLength(50_000);
    expect(byPath['/ordinary'].content.markdown).toContain(ORDINARY_MARKER);
    expect(Math.max(...ordinary), JSON.stringify(ordinary)).toBeLessThan(ORDINARY_BOUND_MS);
  }, 60_000);
});
