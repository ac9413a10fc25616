import { BrowserFailureDiagnostics } from '@trawl/contract';
import { afterAll, beforeAll, describe, expect, it } from 'vitest';
import { createBrowserPool, type BrowserPool } from '../src/index.ts';
import { startBrowserSite, type BrowserSite } from './support/browser-site.ts';
import { testGuard, within } from './setup.ts';

/**
 * A document still being parsed when the deadline comes. What it already shows is delivered, flagged; a document
 * that shows nothing yet (a huge page Chromium had not parsed down to its text) is a timeout, never an empty page
 * delivered as if it were the page.
 */
let site: BrowserSite;
let pool: BrowserPool;
beforeAll(async () => {
  site = await startBrowserSite();
  pool = createBrowserPool({ guard: testGuard(), maxPages: 2 });
  // Chromium's launch is not what the deadlines below are about.
  await pool.render({ url: `${site.origin('warm.test')}/plain`, deadline: within(20_000) });
});
afterAll(async () => {
  await pool?.close();
  await site?.close();
});

describe('a document that never finishes loading', () => {
  it('showing nothing yet at the deadline, is a retryable timeout at the load stage', async () => {
    const r = await pool.render({ url: `${site.origin('stall.test')}/stall?shown=0`, deadline: within(5000) });
    expect(r.ok).toBe(false);
    if (r.ok) return;
    expect({ blockReason: r.blockReason, retryable: r.retryable }).toEqual({ blockReason: 'timeout', retryable: true });
    expect(BrowserFailureDiagnostics.parse(r.diagnostics.browser_failure)).toMatchObject({
      present: true,
      category: 'timeout',
      stage: 'load',
      error_code: 'load_timeout',
    });
  }, 30_000);

  it('showing its article already, is delivered as it stands and flagged as a load timeout', async () => {
    const r = await pool.render({ url: `${site.origin('stall.test')}/stall?shown=1`, deadline: within(5000) });
    if (!r.ok) throw new Error(`render failed: ${r.blockReason} ${JSON.stringify(r.diagnostics.browser_failure)}`);
    expect(r.html).toContain('Ships pass in the dark as moving constellations');
    expect(r.diagnostics.browser_debug).toMatchObject({ settle_reason: 'bound' });
    expect(r.diagnostics.browser_failure).toMatchObject({ present: true, category: 'timeout', stage: 'load', error_code: 'load_timeout' });
  }, 30_000);
});
