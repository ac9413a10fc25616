import { afterAll, beforeAll, describe, expect, it } from 'vitest';
import { startTrendsSimulator, type TrendsSimulator } from '../../trends-simulator/src/simulator.ts';
import { startCrawl, waitForCrawl } from '@trawl/test-support/crawl-client.ts';
import { CRAWL_TEST_ENV, startCrawlEnv } from '@trawl/test-support/crawl-modes.ts';
import { startFixtureSite, type FixtureSite } from '@trawl/test-support/fixture-site.ts';
import { freePort } from '@trawl/test-support/free-port.ts';
import { TEST_KEY, startTestGateway, type TestGateway } from '@trawl/test-support/gateway.ts';
import { startWorkerProcess, stopAllProcesses } from '@trawl/test-support/processes.ts';
import { createTrendsJob, PIZZA_GRAIN, waitForTrendsJob } from '@trawl/test-support/trends-client.ts';

const ADMIN = 'admin-token-0123456789abcdef';

interface Sample {
  name: string;
  labels: Record<string, string>;
  value: number;
}

/** The samples of a Prometheus text exposition (no escaped quotes in our label values). */
function parse(text: string): Sample[] {
  const out: Sample[] = [];
  for (const line of text.split('\n')) {
    if (line === '' || line.startsWith('#')) continue;
    const m = /^([a-zA-Z_:][a-zA-Z0-9_:]*)(?:\{(.*)\})? (\S+)$/.exec(line);
    if (!m) throw new Error(`not an exposition line: ${line}`);
    const labels: Record<string, string> = {};
    for (const l of (m[2] ?? '').matchAll(/([a-zA-Z_][a-zA-Z0-9_]*)="([^"]*)"/g)) labels[l[1]] = l[2];
    out.push({ name: m[1], labels, value: Number(m[3]) });
  }
  return out;
}

const total = (samples: Sample[], name: string, labels: Record<string, string> = {}) =>
  samples.filter((s) => s.name === name && Object.entries(labels).every(([k, v]) => s.labels[k] === v)).reduce((n, s) => n + s.value, 0);

describe('/metrics (embedded gateway)', () => {
  let site: FixtureSite;
  let sim: TrendsSimulator;
  let gw: TestGateway;
  const secrets: string[] = [];

  beforeAll(async () => {
    [site, sim] = await Promise.all([startFixtureSite(), startTrendsSimulator()]);
    gw = await startTestGateway({
      ...CRAWL_TEST_ENV,
      TRAWL_ADMIN_TOKEN: ADMIN,
      TRAWL_WORKERS: '1',
      TRAWL_METRICS_PORT: '0',
      TRAWL_TRENDS_BASE_URL: sim.url,
      TRAWL_TRENDS_RPM: '6000',
      // The fallback test's render launches Chromium: a busy machine needs more than the crawl suites' 10 s.
      TRAWL_FETCH_TIMEOUT_MS: '30000',
    });
  });
  afterAll(async () => {
    await gw?.close();
    await site?.close();
    await sim?.close();
  });

  const scrape = () => fetch(`${gw.url}/metrics`, { headers: { authorization: `Bearer ${ADMIN}` } });

  it('counts requests, pages, a crawl and the pool after traffic, with no URL, host, id or key in any label', async () => {
    const fetched = await gw.call('POST', '/v1/fetch', { url: `${site.origin('metrics.test')}/article` });
    expect(fetched.status).toBe(200);
    const run = ((await fetched.json()) as { run: { id: string } }).run.id;
    expect((await gw.call('GET', `/v1/runs/${run}`)).status).toBe(200);
    expect((await gw.call('GET', '/v1/runs/run_0123456789abcdef0123456789')).status).toBe(404);
    expect((await gw.call('GET', '/v1/no-such-route?token=secret-query-value')).status).toBe(404);
    const crawl = await startCrawl(gw, { urls: [`${site.origin('crawl-metrics.test')}/article`], max_depth: 0 });
    const done = await waitForCrawl(gw, crawl.id);
    expect(done.status).toBe('completed');
    secrets.push(run, crawl.id, TEST_KEY, ADMIN, String(site.port), 'secret-query-value');

    const res = await scrape();
    expect(res.status).toBe(200);
    expect(res.headers.get('content-type')).toMatch(/^text\/plain; version=0\.0\.4/);
    const text = await res.text();
    const samples = parse(text);
    expect(total(samples, 'trawl_http_requests_total', { route: '/v1/fetch', method: 'POST', status: '200' })).toBe(1);
    expect(total(samples, 'trawl_http_requests_total', { route: '/v1/runs/:run_id', method: 'GET', status: '200' })).toBeGreaterThanOrEqual(1);
    expect(total(samples, 'trawl_http_requests_total', { route: '/v1/runs/:run_id', method: 'GET', status: '404' })).toBe(1);
    expect(total(samples, 'trawl_http_requests_total', { route: 'unmatched', status: '404' })).toBe(1);
    expect(total(samples, 'trawl_http_requests_total', { route: '/v1/crawl', method: 'POST', status: '202' })).toBe(1);
    expect(total(samples, 'trawl_http_request_duration_seconds_count', { route: '/v1/fetch' })).toBe(1);
    expect(total(samples, 'trawl_http_request_duration_seconds_sum', { route: '/v1/fetch' })).toBeGreaterThan(0);
    // The Fetch and the crawl's page: two light retrievals, completed.
    expect(total(samples, 'trawl_pages_fetched_total', { engine: 'light', outcome: 'completed', reason: 'none' })).toBeGreaterThanOrEqual(2);
    expect(total(samples, 'trawl_browser_pool_pages')).toBeGreaterThan(0);
    expect(total(samples, 'trawl_workers_alive')).toBeGreaterThanOrEqual(1);
    for (const name of ['trawl_browser_pool_busy', 'trawl_browser_pool_rejections_total', 'trawl_frontier_queued_pages', 'process_cpu_seconds_total', 'nodejs_heap_size_used_bytes']) {
      expect(samples.some((s) => s.name === name), name).toBe(true);
    }
    for (const name of ['trawl_waterfall_fallbacks_total', 'trawl_trends_upstream_calls_total', 'trawl_store_unavailable_errors_total']) {
      expect(text).toContain(`# TYPE ${name} counter`);
    }
    for (const s of samples) {
      for (const v of Object.values(s.labels)) {
        expect(v).not.toMatch(/\.test|:\/\/|127\.0\.0\.1|\?/);
        for (const secret of secrets) expect(v).not.toContain(secret);
      }
    }

    // The same exposition on the plain listener (TRAWL_METRICS_PORT), loopback only.
    expect(gw.runtime.metrics?.url).toMatch(/^http:\/\/127\.0\.0\.1:\d+$/);
    const plain = await fetch(`${gw.runtime.metrics!.url}/metrics`);
    expect(plain.status).toBe(200);
    expect(total(parse(await plain.text()), 'trawl_http_requests_total', { route: '/v1/fetch' })).toBe(1);
    expect((await fetch(`${gw.runtime.metrics!.url}/other`)).status).toBe(404);
  });

  it('counts a waterfall fallback to the browser and the upstream calls of a trends job, by reason and endpoint', async () => {
    const shell = await gw.call('POST', '/v1/fetch', { url: `${site.origin('metrics.test')}/js-shell` });
    expect(shell.status).toBe(200);
    expect(((await shell.json()) as { result: { audit: { engine_winner: string } } }).result.audit.engine_winner).toBe('browser');
    const job = await createTrendsJob(gw, { ...PIZZA_GRAIN, keyword: 'metrics' });
    expect((await waitForTrendsJob(gw, job.id)).state).toBe('completed');

    const samples = parse(await (await scrape()).text());
    // Nothing else this process ran fell back: the one render of the script-only shell.
    expect(total(samples, 'trawl_waterfall_fallbacks_total')).toBe(1);
    expect(total(samples, 'trawl_waterfall_fallbacks_total', { reason: 'script_only' })).toBe(1);
    expect(total(samples, 'trawl_pages_fetched_total', { engine: 'browser', outcome: 'completed' })).toBe(1);
    // The simulator's log of what it was asked, call by call, against the counter's endpoints and outcomes.
    const asked = sim.calls();
    expect(asked.map((c) => c.endpoint)).toEqual(['cookie', 'explore', 'relatedsearches']);
    expect(total(samples, 'trawl_trends_upstream_calls_total')).toBe(3);
    for (const endpoint of ['cookie', 'explore', 'relatedsearches']) {
      expect(total(samples, 'trawl_trends_upstream_calls_total', { endpoint, outcome: 'ok' }), endpoint).toBe(1);
    }
  });

  it('refuses a scrape without the admin token, and an API key, with 401', async () => {
    const none = await fetch(`${gw.url}/metrics`);
    expect(none.status).toBe(401);
    expect(((await none.json()) as { error: { code: string } }).error.code).toBe('authentication_required');
    expect((await gw.call('GET', '/metrics')).status).toBe(401);
    expect((await fetch(`${gw.url}/metrics`, { headers: { authorization: `Bearer ${ADMIN}x` } })).status).toBe(401);
  });
});

describe('/metrics without TRAWL_ADMIN_TOKEN or with TRAWL_METRICS=off', () => {
  it('is absent (404)', async () => {
    const plain = await startTestGateway({ TRAWL_WORKERS: '0' });
    const off = await startTestGateway({ TRAWL_WORKERS: '0', TRAWL_ADMIN_TOKEN: ADMIN, TRAWL_METRICS: 'off' });
    try {
      expect((await fetch(`${plain.url}/metrics`)).status).toBe(404);
      expect((await fetch(`${off.url}/metrics`, { headers: { authorization: `Bearer ${ADMIN}` } })).status).toBe(404);
      expect(plain.runtime.metrics).toBeNull();
    } finally {
      await plain.close();
      await off.close();
    }
  });
});

describe('a worker process (cluster mode)', () => {
  afterAll(() => stopAllProcesses());

  it('serves its metrics on TRAWL_METRICS_PORT', async () => {
    const env = await startCrawlEnv('cluster', { workers: 0 });
    try {
      const port = await freePort();
      const worker = await startWorkerProcess('metrics worker', { ...env.processEnv!, TRAWL_WORKERS: '1', TRAWL_METRICS_PORT: String(port) });
      expect(worker.workerIds).toHaveLength(1);
      const site = await startFixtureSite();
      try {
        const crawl = await startCrawl(env.gw, { urls: [`${site.origin('worker-metrics.test')}/article`], max_depth: 0 });
        expect((await waitForCrawl(env.gw, crawl.id)).status).toBe('completed');
      } finally {
        await site.close();
      }
      const res = await fetch(`http://127.0.0.1:${port}/metrics`);
      expect(res.status).toBe(200);
      const samples = parse(await res.text());
      expect(total(samples, 'trawl_pages_fetched_total', { engine: 'light', outcome: 'completed' })).toBe(1);
      expect(total(samples, 'trawl_workers_alive')).toBeGreaterThanOrEqual(1);
      expect(samples.some((s) => s.name === 'process_cpu_seconds_total')).toBe(true);
      // A worker answers no /v1 request.
      expect(total(samples, 'trawl_http_requests_total')).toBe(0);
    } finally {
      await env.close();
    }
  });
});
