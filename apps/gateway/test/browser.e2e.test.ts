import { afterAll, beforeAll, describe, expect, it } from 'vitest';
import { PageRunResponse, PublicErrorResponse } from '@trawl/contract';
import { startTestGateway, type TestGateway } from '@trawl/test-support/gateway.ts';
import { startFixtureSite } from '@trawl/test-support/fixture-site.ts';

let site: Awaited<ReturnType<typeof startFixtureSite>>;
let gw: TestGateway;
beforeAll(async () => {
  site = await startFixtureSite();
  // One browser page, so a single slow render fills the pool. The deadline leaves a 2.5 s render, its screenshot
  // and HAR room on a loaded 2-core machine (another Chromium suite beside this one: 6 s was seen to run out).
  gw = await startTestGateway({ TRAWL_BROWSER_PAGES: '1', TRAWL_FETCH_TIMEOUT_MS: '10000' });
  // Chromium is launched on first use; launching it on a busy machine would eat the deadline of a test below.
  await (await gw.call('POST', '/v1/browser-scrape', { url: `${site.origin('site.test')}/article` })).json();
});
afterAll(async () => {
  await gw?.close();
  await site?.close();
});

const page = (path: string, host = 'site.test') => `${site.origin(host)}${path}`;
const renders = () => gw.runtime.browser.stats().renders;

describe('Fetch waterfall', () => {
  it('renders a script-only shell in the browser and says why', async () => {
    const res = await gw.call('POST', '/v1/fetch', { url: page('/js-shell') });
    expect(res.status).toBe(200);
    const { result } = PageRunResponse.parse(await res.json());
    expect(result.audit.engines_attempted).toEqual(['light', 'browser']);
    expect(result.audit.engine_winner).toBe('browser');
    expect(result.audit.fallback_reasons).toEqual(['script_only']);
    expect(result.audit.fallback_events).toEqual([
      expect.objectContaining({ kind: 'engine', from: 'light', to: 'browser', reason: 'script_only' }),
    ]);
    expect(result.audit.retry_stats.total_attempts).toBeGreaterThanOrEqual(2);
    expect(result.status).toBe('completed');
    expect(result.content.markdown).toContain('High water is at 06:42');
    expect(result.diagnostics.browser_debug.enabled).toBe(true);
    expect(result.diagnostics.browser_debug.network_event_count).toBeGreaterThan(0);
    expect(result.diagnostics.browser_failure.present).toBe(false);
    expect(JSON.stringify(result.diagnostics)).not.toContain('site.test');
  });

  it('never returns worse than it had: a render that lost what the light page held loses to it, and the audit says so', async () => {
    const res = await gw.call('POST', '/v1/fetch', { url: page('/js-worse') });
    expect(res.status).toBe(200);
    const { result } = PageRunResponse.parse(await res.json());
    expect(result.content.markdown).toContain('The north quay reopens on Monday');
    expect(result.content.markdown).not.toContain('Notes moved.');
    expect(result.audit.engine_winner).toBe('light');
    expect(result.audit.engines_attempted).toEqual(['light', 'browser']);
    // The served text is short enough to read as an app shell: script_only sends it to the browser.
    expect(result.audit.fallback_reasons).toEqual(['script_only', 'browser_result_worse']);
    expect(result.audit.fallback_events).toEqual([
      expect.objectContaining({ kind: 'engine', from: 'light', to: 'browser', reason: 'script_only' }),
      expect.objectContaining({ kind: 'engine', from: 'browser', to: 'light', reason: 'browser_result_worse' }),
    ]);
    expect(result.status).toBe('low_quality');
    // The render happened and read its page; its diagnostics are kept.
    expect(result.diagnostics.browser_debug).toMatchObject({ enabled: true, settle_reason: 'stable' });
    expect(result.diagnostics.browser_failure.present).toBe(false);
  });

  it('keeps a good light page without starting the browser', async () => {
    const before = renders();
    const res = await gw.call('POST', '/v1/fetch', { url: page('/article') });
    const { result } = PageRunResponse.parse(await res.json());
    expect(result.audit.engines_attempted).toEqual(['light']);
    expect(renders()).toBe(before);
  });

  it('never falls back after a refused target, a redirect limit or a size limit', async () => {
    const before = renders();
    for (const [url, reason] of [
      ['http://127.0.0.2:9/', 'blocked_target'],
      [page('/redirect/11'), 'redirect_limit'],
      [page('/endless'), 'body_size_limit'],
    ]) {
      const res = await gw.call('POST', '/v1/fetch', { url });
      expect(PublicErrorResponse.parse(await res.json()).error.details.block_reason).toBe(reason);
    }
    expect(renders()).toBe(before);
  });

  it('delivers the light page marked browser_capacity_full when the pool is busy', async () => {
    // Occupy the only browser page with a slow render, then ask for a page that needs the browser.
    const busy = gw.call('POST', '/v1/browser-scrape', { url: page('/slow?ms=2500') });
    await new Promise((r) => setTimeout(r, 600));
    const started = Date.now();
    const res = await gw.call('POST', '/v1/fetch', { url: page('/js-shell') });
    const elapsed = Date.now() - started;
    expect(res.status).toBe(200);
    const { result } = PageRunResponse.parse(await res.json());
    expect(result.status).toBe('low_quality');
    expect(result.audit.block_reason).toBe('browser_capacity_full');
    expect(result.audit.engine_winner).toBe('light');
    expect(result.audit.engines_attempted).toEqual(['light', 'browser']);
    expect(result.diagnostics.browser_failure).toMatchObject({ present: true, category: 'capacity', browser_lease_acquired: false });
    expect(elapsed).toBeLessThan(2000); // answered at once, not after the slow render
    expect((await busy).status).toBe(200);
  });
});

describe('POST /v1/browser-scrape', () => {
  it('renders with a screenshot and a HAR, as a browser_scrape run with downloadable artifacts', async () => {
    const res = await gw.call('POST', '/v1/browser-scrape', { url: page('/js-shell'), screenshot: true, record: true });
    expect(res.status).toBe(200);
    const { run, result } = PageRunResponse.parse(await res.json());
    expect(run.type).toBe('browser_scrape');
    expect(run.cost_units).toBe(1);
    expect(result.audit.engines_attempted).toEqual(['browser']);
    expect(result.content.markdown).toContain('Harbour Dashboard');
    const keys = result.artifacts.map((a) => a.key).sort();
    expect(keys).toEqual(['har', 'html', 'markdown', 'screenshot']);
    const shot = result.artifacts.find((a) => a.key === 'screenshot')!;
    expect(shot.content_type).toBe('image/png');
    const png = Buffer.from(await (await gw.call('GET', shot.url)).arrayBuffer());
    expect(png.subarray(0, 8).equals(Buffer.from([0x89, 0x50, 0x4e, 0x47, 0x0d, 0x0a, 0x1a, 0x0a]))).toBe(true);
    const har = result.artifacts.find((a) => a.key === 'har')!;
    const harBody = (await (await gw.call('GET', har.url)).json()) as { log: { entries: unknown[] } };
    expect(harBody.log.entries.length).toBeGreaterThan(0);
  });

  it('applies browser controls: a selector that never appears is reported, the page still delivered', async () => {
    const res = await gw.call('POST', '/v1/browser-scrape', {
      url: page('/js-shell'),
      browser: { wait_for_selector: '#never-there' },
    });
    expect(res.status).toBe(200);
    const { result } = PageRunResponse.parse(await res.json());
    expect(result.content.markdown).toContain('Harbour Dashboard');
    expect(result.diagnostics.browser_failure).toMatchObject({ present: true, category: 'timeout', stage: 'wait_for_selector' });
    expect(JSON.stringify(result.diagnostics)).not.toContain('never-there');
  }, 30_000);

  it('answers 503 service_unavailable, retryable, at once when the pool is full', async () => {
    const busy = gw.call('POST', '/v1/browser-scrape', { url: page('/slow?ms=2000') });
    await new Promise((r) => setTimeout(r, 600));
    const res = await gw.call('POST', '/v1/browser-scrape', { url: page('/article') });
    expect(res.status).toBe(503);
    expect(res.headers.get('retry-after')).toBe('1');
    const e = PublicErrorResponse.parse(await res.json()).error;
    expect(e).toMatchObject({ code: 'service_unavailable', retryable: true });
    expect(e.details.block_reason).toBe('browser_capacity_full');
    await busy;
  });

  it('rejects unknown browser controls and refused targets like Fetch', async () => {
    const unknown = await gw.call('POST', '/v1/browser-scrape', { url: page('/'), browser: { stealth: true } });
    expect(unknown.status).toBe(400);
    expect(PublicErrorResponse.parse(await unknown.json()).error).toMatchObject({ code: 'unsupported_feature', details: { fields: ['browser.stealth'] } });
    const blocked = await gw.call('POST', '/v1/browser-scrape', { url: 'http://127.0.0.2:9/' });
    expect(blocked.status).toBe(403);
    expect(PublicErrorResponse.parse(await blocked.json()).error.details.block_reason).toBe('blocked_target');
  });
});
