import { expect } from 'vitest';
import type { PublicPageResult } from '@trawl/contract';
import type { MatrixPage } from './pages.ts';
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
  expect(verdict, `${page.name}: ${JSON.stringify(verdict)}`).toEqual({ whole: true, missing: [], leftovers: [] });
  expect(result.status, page.name).toBe('completed');
  const debug = result.diagnostics.browser_debug;
  // Every page of the matrix, the never-settling ones included, is read because its content held still.
  expect(debug.settle_reason, `${page.name} settled by ${debug.settle_reason} after ${debug.settle_ms} ms`).toBe(reason);
  expect(debug.settle_ms).toBeGreaterThanOrEqual(0);
}
