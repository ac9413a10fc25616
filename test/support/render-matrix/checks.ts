import { afterAll, beforeAll, expect } from 'vitest';
import type { PublicPageResult } from '@trawl/contract';
import { startTestGateway, type TestGateway } from '../gateway.ts';
import type { MatrixPage } from './pages.ts';
import { startMatrixSite, type MatrixSite } from './site.ts';
import { judge } from './text.ts';

/** Runs fn over items with at most `n` at once (the browser pool's size: more would be refused for capacity). */
export async function eachConcurrently<T>(items: T[], n: number, fn: (item: T) => Promise<void>): Promise<void> {
  const queue = [...items];
  await Promise.all(
    Array.from({ length: n }, async () => {
      for (let item = queue.shift(); item !== undefined; item = queue.shift()) await fn(item);
    }),
  );
}

/** A browser-rendered matrix page came back whole, and its diagnostics say how it settled (nothing raw). */
export function expectWholeRender(page: MatrixPage, result: Pick<PublicPageResult, 'content' | 'diagnostics' | 'status'>, reason: 'stable' | 'selector' = 'stable'): void {
  const verdict = judge(page, result.content.markdown);
  const debug = result.diagnostics.browser_debug;
  const how = `settled by ${debug.settle_reason} after ${debug.settle_ms} ms`;
  expect(verdict, `${page.name}: ${JSON.stringify(verdict)}, ${how}`).toEqual({ whole: true, missing: [], leftovers: [] });
  expect(result.status, page.name).toBe('completed');
  // Every page of the matrix, the never-settling ones included, is read because its content held still.
  expect(debug.settle_reason, `${page.name} settled by ${debug.settle_reason} after ${debug.settle_ms} ms`).toBe(reason);
  expect(debug.settle_ms).toBeGreaterThanOrEqual(0);
}

/**
 * The settle bound for the matrix suites: twice the default. A page that settles is read by `stable` long before it
 * (a never-settling page by rule 2 within about a second of its content holding still), so the check that every page
 * settled keeps its meaning; but the scroll scan of the lazy pages is a rendering update per screen, and on a
 * loaded 2-core machine running two matrix files it has reached the default 5 s with the content already whole.
 */
export const MATRIX_SETTLE_ENV = { TRAWL_BROWSER_SETTLE_MAX_MS: '10000' };

/**
 * Pages rendered at once by a matrix test file: with two test files at once the machine runs four, as
 * production sizes it (two per core).
 */
export const MATRIX_PAGES = 2;

/** A matrix site and a gateway whose browser pool the matrix fills, started before and closed after the file. */
export function useMatrixGateway(): { site: () => MatrixSite; gw: () => TestGateway } {
  let site: MatrixSite;
  let gw: TestGateway;
  beforeAll(async () => {
    site = await startMatrixSite();
    gw = await startTestGateway({ TRAWL_BROWSER_PAGES: String(MATRIX_PAGES), TRAWL_BROWSER_ACQUIRE_MS: '2000', ...MATRIX_SETTLE_ENV });
  });
  afterAll(async () => {
    await gw?.close();
    await site?.close();
  });
  return { site: () => site, gw: () => gw };
}
