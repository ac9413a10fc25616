import { describe, expect, it } from 'vitest';
import { PageRunResponse } from '@trawl/contract';
import { eachConcurrently, expectWholeRender, MATRIX_PAGES, useMatrixGateway } from '@trawl/test-support/render-matrix/checks.ts';
import { MATRIX } from '@trawl/test-support/render-matrix/pages.ts';
import { judge } from '@trawl/test-support/render-matrix/text.ts';

/**
 * Issue 10: Fetch's waterfall on the render matrix. A page the light engine reads whole stays light; every page
 * whose content only exists after its scripts ran falls back to the browser and comes back whole.
 */
const REPS = 1;
const env = useMatrixGateway();

describe('render matrix through Fetch', () => {
  it(`reads every page whole (${REPS}×; Browser scrape and the crawl suites read each page again)`, async () => {
    const jobs = Array.from({ length: REPS }, () => MATRIX).flat();
    await eachConcurrently(jobs, MATRIX_PAGES, async (page) => {
      const res = await env.gw().call('POST', '/v1/fetch', { url: env.site().url(page.name, 'matrix.test') });
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
