import { describe, expect, it } from 'vitest';
import { PageRunResponse } from '@trawl/contract';
import { eachConcurrently, expectWholeRender, MATRIX_PAGES, useMatrixGateway } from '@trawl/test-support/render-matrix/checks.ts';
import { MATRIX, matrixPage, type MatrixPage } from '@trawl/test-support/render-matrix/pages.ts';

/**
 * Issue 10: every page of the render matrix comes back whole from POST /v1/browser-scrape, every time, with the
 * pool full so the pages compete for the cores, as they do in production.
 */
// Once per suite run here (Fetch and the crawl read every page again); repetitions are the benchmark's work
// (npm run bench -- render-fidelity renders each page several times and reports the share read whole).
const REPS = 1;
const env = useMatrixGateway();

async function scrape(page: MatrixPage, browser?: Record<string, unknown>) {
  const res = await env.gw().call('POST', '/v1/browser-scrape', { url: env.site().url(page.name, 'matrix.test'), ...(browser ? { browser } : {}) });
  const body: unknown = await res.json();
  expect(res.status, `${page.name}: ${JSON.stringify(body)}`).toBe(200);
  return PageRunResponse.parse(body).result;
}

describe('render matrix through Browser scrape', () => {
  it(`reads every page whole, ${REPS} times each, with the pool full`, async () => {
    const jobs = Array.from({ length: REPS }, () => MATRIX).flat();
    await eachConcurrently(jobs, MATRIX_PAGES, async (page) => expectWholeRender(page, await scrape(page)));
  }, 300_000);

  it('with wait_for_selector, lets the content under the selector settle (a chunked article is not cut at its first chunk)', async () => {
    const page = matrixPage('selector-chunks')!;
    expectWholeRender(page, await scrape(page, { wait_for_selector: 'article' }), 'selector');
  }, 60_000);

  it('with wait_for_selector on a selector there at load, or on a page that fills it late, reads the whole page', async () => {
    for (const name of ['static', 'placeholder', 'timer-900', 'chunks-timer']) {
      const page = matrixPage(name)!;
      expectWholeRender(page, await scrape(page, { wait_for_selector: 'article' }), 'selector');
    }
  }, 60_000);

  it('reports how the render settled in browser_debug, and nothing raw', async () => {
    const result = await scrape(matrixPage('long-poll')!);
    const debug = result.diagnostics.browser_debug;
    expect(Object.keys(debug).sort()).toEqual(['console_message_count', 'enabled', 'network_event_count', 'settle_ms', 'settle_reason']);
    expect(JSON.stringify(result.diagnostics)).not.toMatch(/matrix|hold|sse|127\.0\.0\.1/);
  }, 30_000);
});
