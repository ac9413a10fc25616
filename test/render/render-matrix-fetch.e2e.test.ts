import { afterAll, beforeAll, describe, expect, it } from 'vitest';
import { PageRunResponse } from '@trawl/contract';
import { startTestGateway, type TestGateway } from '../support/gateway.ts';
import { eachConcurrently, expectWholeRender } from '../support/render-matrix/checks.ts';
import { MATRIX } from '../support/render-matrix/pages.ts';
import { startMatrixSite, type MatrixSite } from '../support/render-matrix/site.ts';
import { judge } from '../support/render-matrix/text.ts';

/**
 * Issue 10: Fetch's waterfall on the render matrix. A page the light engine reads whole stays light; every page
 * whose content only exists after its scripts ran falls back to the browser and comes back whole.
 */
const REPS = 3;
// Two pages per test file: with two test files at once, the machine runs four, as production sizes it (2 per core).
const PAGES = 2;
let site: MatrixSite;
let gw: TestGateway;
beforeAll(async () => {
  site = await startMatrixSite();
  gw = await startTestGateway({ TRAWL_BROWSER_PAGES: String(PAGES), TRAWL_BROWSER_ACQUIRE_MS: '2000' });
});
afterAll(async () => {
  await gw?.close();
  await site?.close();
});

describe('render matrix through Fetch', () => {
  it(`reads every page whole, ${REPS} times each`, async () => {
    const jobs = Array.from({ length: REPS }, () => MATRIX).flat();
    await eachConcurrently(jobs, PAGES, async (page) => {
      const res = await gw.call('POST', '/v1/fetch', { url: site.url(page.name, 'matrix.test') });
      const body: unknown = await res.json();
      expect(res.status, `${page.name}: ${JSON.stringify(body)}`).toBe(200);
      const { result } = PageRunResponse.parse(body);
      if (page.servedParts === 0) {
        // Nothing of it is in the HTML: only the browser can read it.
        expect(result.audit.engine_winner, page.name).toBe('browser');
        expectWholeRender(page, result);
      } else if (result.audit.engine_winner === 'light') {
        // Light first: what was served is there, whole.
        expect(judge(page, result.content.markdown, page.servedParts).whole, page.name).toBe(true);
      } else {
        expectWholeRender(page, result);
      }
    });
  }, 300_000);
});
