import { afterAll, beforeAll, describe, expect, it } from 'vitest';
import { getCrawl, sleep, startCrawl, waitForCrawl } from '@trawl/test-support/crawl-client.ts';
import { MODES, startCrawlEnv, workerLogs, type CrawlEnv } from '@trawl/test-support/crawl-modes.ts';
import { startCrawlSite, type CrawlSite } from '@trawl/test-support/crawl-site.ts';

/**
 * Workers hear of new work when it is announced, not at their next heartbeat: here the heartbeat is 30 s, so a
 * crawl that waited for it would sit queued for up to 30 s, and a pause would leave buffered pages running.
 */
const SLOW_HEARTBEAT = { TRAWL_HEARTBEAT_MS: '30000', TRAWL_SHARD_TTL_MS: '120000', TRAWL_LEASE_MS: '120000' };
let site: CrawlSite;

beforeAll(async () => {
  site = await startCrawlSite();
  for (const mode of MODES) {
    site.page(site.url(`start-${mode}.example.test`), { links: ['/a', '/b'] });
    for (const p of ['/a', '/b']) site.page(site.url(`start-${mode}.example.test`, p));
    const children = Array.from({ length: 39 }, (_, i) => `/p${i + 1}`);
    site.page(site.url(`hold-${mode}.example.test`), { links: children });
    for (const p of children) site.page(site.url(`hold-${mode}.example.test`, p), { latencyMs: 200 });
  }
});
afterAll(async () => {
  await site?.close();
});

describe.each(MODES)('crawl wake-up (%s)', (mode) => {
  let env: CrawlEnv;
  beforeAll(async () => {
    env = await startCrawlEnv(mode, { workers: 1, env: SLOW_HEARTBEAT });
    // Let the worker finish its first heartbeat and go idle.
    await sleep(500);
  });
  afterAll(async () => {
    await env?.close();
  });

  it('an idle worker starts a new crawl at once, not at its next heartbeat', async () => {
    const created = await startCrawl(env.gw, { urls: [site.url(`start-${mode}.example.test`)], max_depth: 1 });
    // The worker takes the seed well before its next heartbeat (30 s)...
    const started = (j: { progress: { pages_in_flight: number; pages_completed: number } }) => j.progress.pages_in_flight + j.progress.pages_completed > 0;
    await waitForCrawl(env.gw, created.id, { until: started, intervalMs: 20, timeoutMs: 10_000, context: () => workerLogs(env) });
    // ...and finishes (a fresh worker process's first fetch once took over 10 s on a loaded machine).
    const done = await waitForCrawl(env.gw, created.id, { timeoutMs: 30_000, context: () => workerLogs(env) });
    expect(done.status).toBe('completed');
    expect(done.progress.pages_completed).toBe(3);
  });

  it('a pause reaches the worker at once: pages it had buffered are not fetched', async () => {
    const created = await startCrawl(env.gw, { urls: [site.url(`hold-${mode}.example.test`)], max_depth: 1 });
    await waitForCrawl(env.gw, created.id, { until: (j) => j.progress.pages_completed >= 2, intervalMs: 20, timeoutMs: 10_000 });
    const res = await env.gw.call('POST', `/v1/crawl/${created.id}/pause`);
    const mark = site.mark();
    expect(res.status).toBe(200);
    const atPause = ((await res.json()) as { crawl: { progress: { pages_in_flight: number } } }).crawl;
    const settled = await waitForCrawl(env.gw, created.id, { until: (j) => j.progress.pages_in_flight === 0, timeoutMs: 10_000 });
    expect(settled.status).toBe('paused');
    await sleep(600);
    // Only pages already being fetched at the pause may have gone out.
    expect(site.requests({ since: mark }).length).toBeLessThanOrEqual(atPause.progress.pages_in_flight);
    expect((await getCrawl(env.gw, created.id)).progress.pages_completed).toBeLessThan(40);
    // A resume is announced too: the crawl finishes without waiting for a heartbeat.
    expect((await env.gw.call('POST', `/v1/crawl/${created.id}/resume`)).status).toBe(200);
    const done = await waitForCrawl(env.gw, created.id, { timeoutMs: 20_000, context: () => workerLogs(env) });
    expect(done.status).toBe('completed');
    expect(done.progress.pages_completed).toBe(40);
  });
});
