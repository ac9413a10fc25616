import { afterAll, beforeAll, describe, expect, it } from 'vitest';
import { startTestGateway, type TestGateway } from '@trawl/test-support/gateway.ts';
import { startHostileSite, type HostileSite } from '@trawl/test-support/hostile-site.ts';
import { DEADLINE_MS, expectError, expectOnTime, ordinaryWhile, resultOf, timedCall, warmUp, ORDINARY_BOUND_MS } from './hostile-checks.ts';

/**
 * Issue 12: the hostile pages through POST /v1/browser-scrape (Debian's Chromium). Chromium caps nesting itself;
 * what it hands back still goes through our content step, under the request's deadline and the same limits and
 * text check as the light engine. Ordinary Fetches sent meanwhile come back whole and quickly.
 */
let site: HostileSite;
let gw: TestGateway;

beforeAll(async () => {
  site = await startHostileSite();
  gw = await startTestGateway({
    TRAWL_FETCH_TIMEOUT_MS: String(DEADLINE_MS),
    TRAWL_CONTENT_THREADS: '1',
    TRAWL_BROWSER_PAGES: '6',
    TRAWL_BROWSER_ACQUIRE_MS: '5000',
    LOG_LEVEL: 'warn',
  });
  await warmUp(gw, site);
  // Chromium's first launch is not what this suite measures.
  resultOf(await timedCall(gw, '/v1/browser-scrape', site.url('hostile.test', '/ordinary?n=0'), 'warm-up'));
});
afterAll(async () => {
  await gw?.close();
  await site?.close();
});

describe('hostile pages through Browser scrape', () => {
  it('refuses random bytes that Chromium rendered as a page, with a short answer', async () => {
    const a = await timedCall(gw, '/v1/browser-scrape', site.url('hostile.test', '/binary?n=256'), '/binary?n=256');
    expectOnTime(a);
    expectError(a, 502, 'fetch_failed', 'unsupported_content_type', false);
    expect(JSON.stringify(a.body).length).toBeLessThan(2000);
  }, 30_000);

  it('answers every hostile page on time and in shape, while ordinary Fetches stay fast', async () => {
    const u = (p: string) => site.url('hostile.test', p);
    const scrape = (path: string) => timedCall(gw, '/v1/browser-scrape', u(path), path);
    const hostile = Promise.all(['/deep?n=300000', '/binary', '/silent', '/drip', '/loop-a', '/gzip-bomb'].map(scrape));
    const ordinary = await ordinaryWhile(gw, site, hostile);
    const answers = Object.fromEntries((await hostile).map((a) => [a.path, a]));
    for (const a of Object.values(answers)) expectOnTime(a);

    const deep = answers['/deep?n=300000'];
    if (deep.status === 200) expect(resultOf(deep).content.markdown).toContain('The bottom of the well.');
    else expectError(deep, 408, 'timeout', 'timeout', true);
    // 5 MiB of random bytes take Chromium itself past the deadline on two cores: a timeout, on time.
    if (answers['/binary'].status === 408) expectError(answers['/binary'], 408, 'timeout', 'timeout', true);
    else expectError(answers['/binary'], 502, 'fetch_failed', 'unsupported_content_type', false);
    for (const path of ['/silent', '/drip', '/loop-a', '/gzip-bomb']) {
      const a = answers[path];
      // A page that never finishes is read as it stands at the settle bound (200), or runs out of time (408); a
      // redirect loop is a failed render or out of time; Chromium inflates the bomb into an empty page.
      if (a.status === 408) expectError(a, 408, 'timeout', 'timeout', true);
      else expect([200, 502], path).toContain(a.status);
    }
    expect(ordinary.length).toBeGreaterThanOrEqual(3);
    expect(Math.max(...ordinary), JSON.stringify(ordinary)).toBeLessThan(ORDINARY_BOUND_MS);
  }, 60_000);
});
