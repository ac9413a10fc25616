import { afterAll, beforeAll, describe, expect, it } from 'vitest';
import { PublicErrorResponse, type CrawlJob } from '@trawl/contract';
import { allItems, checkProgress, duplicates, sorted, startCrawl, waitForCrawl } from '@trawl/test-support/crawl-client.ts';
import { CRAWL_TEST_ENV } from '@trawl/test-support/crawl-modes.ts';
import { defineTreeWeb, startCrawlSite, type CrawlSite } from '@trawl/test-support/crawl-site.ts';
import { startGatewayProcess, startWorkerProcess, stopAllProcesses, type ManagedProcess } from '@trawl/test-support/processes.ts';
import { randomPrefix, startRedisServer, type RedisServer } from '@trawl/test-support/redis-server.ts';
import { createTrendsJob, PIZZA_GRAIN, waitForTrendsJob } from '@trawl/test-support/trends-client.ts';
import { startTrendsSimulator, type TrendsSimulator } from '../../apps/trends-simulator/src/simulator.ts';

/**
 * Issue 12 point 3: Redis goes away under a running cluster, every part a real process (redis-server with AOF, a
 * gateway process, two worker processes). (a) Stopped ~10 s in the middle of two crawls and restarted with its
 * AOF: meanwhile /v1 answers 503 + Retry-After and /healthz 503 degraded; afterwards the same processes finish
 * both crawls exactly (every page once, the cap held). (b) Restarted empty: the bootstrap key works again and a
 * new crawl completes, still on the same processes. (c) In between, a search-trends job whose answer from Google
 * arrives while Redis is down keeps that answer: completed on its first attempt, Google asked once.
 */
const HOSTS = ['o0.example.test', 'o1.example.test', 'o2.example.test'];
/** A second web for the capped crawl, so every fetch of a URL belongs to one crawl (repeats are countable). */
const CAPPED_HOSTS = ['c0.capped.test', 'c1.capped.test'];
const OUTAGE_MS = 10_000;
const CAP = 40;

let site: CrawlSite;
let sim: TrendsSimulator;
let web: string[];
let cappedWeb: string[];
let redis: RedisServer;
let gateway: ManagedProcess & { url: string; call(method: string, path: string, body?: unknown, headers?: Record<string, string>): Promise<Response> };
let workers: ManagedProcess[];

beforeAll(async () => {
  site = await startCrawlSite();
  // 120 pages at 400 ms each: a few seconds of crawling, so the outage lands with every host still busy.
  web = defineTreeWeb(site, { hosts: HOSTS, fanout: 3, levels: 3, crossLinks: 2, latencyMs: 400 });
  cappedWeb = defineTreeWeb(site, { hosts: CAPPED_HOSTS, fanout: 3, levels: 3, crossLinks: 2, latencyMs: 400 });
  [redis, sim] = await Promise.all([startRedisServer({ appendonly: true }), startTrendsSimulator()]);
  const env = {
    ...CRAWL_TEST_ENV,
    REDIS_URL: redis.url,
    REDIS_PREFIX: randomPrefix(),
    TRAWL_STORE_OUTAGE_MS: '30000',
    TRAWL_TRENDS_BASE_URL: sim.url,
    TRAWL_TRENDS_RPM: '600',
  };
  [gateway, ...workers] = await Promise.all([
    startGatewayProcess('gateway', { ...env, TRAWL_WORKERS: '0' }),
    startWorkerProcess('worker 1', { ...env, TRAWL_WORKERS: '1' }),
    startWorkerProcess('worker 2', { ...env, TRAWL_WORKERS: '1' }),
  ]);
}, 60_000);
afterAll(async () => {
  await stopAllProcesses();
  await redis?.stop();
  await site?.close();
  await sim?.close();
});

const logs = () => [gateway, ...workers].map((p) => `--- ${p.name} (pid ${p.pid})\n${p.output().slice(-4000)}`).join('\n');

function expectAlive(pids: number[]) {
  const procs = [gateway, ...workers];
  expect(procs.map((p) => p.exited())).toEqual(procs.map(() => false));
  expect(procs.map((p) => p.pid)).toEqual(pids);
}

function expectExact(job: CrawlJob, pages: number) {
  expect(job.status).toBe('completed');
  expect(job.progress).toMatchObject({ pages_discovered: pages, pages_completed: pages, pages_failed: 0, pages_blocked: 0, pages_queued: 0, pages_in_flight: 0 });
}

describe('Redis outage under a running cluster', () => {
  it('stopped 10 s mid-crawl and restarted with AOF: 503 + Retry-After meanwhile, then both crawls complete exactly', async () => {
    const pids = [gateway, ...workers].map((p) => p.pid);
    const full = await startCrawl(gateway, { urls: [site.url(HOSTS[0])], scope: 'same_domain', max_depth: 10, max_pages: 1000 });
    const capped = await startCrawl(gateway, { urls: [site.url(CAPPED_HOSTS[0])], scope: 'same_domain', max_depth: 10, max_pages: CAP });
    const atHalt = await waitForCrawl(gateway, full.id, { until: (j) => j.progress.pages_completed >= 15, intervalMs: 20 });
    expect(atHalt.status).toBe('running');

    await redis.halt();
    const haltedAt = Date.now();
    // While Redis is down: every /v1 call is a retryable 503 in the contract's shape, and /healthz is degraded.
    let calls = 0;
    while (Date.now() - haltedAt < OUTAGE_MS) {
      const res = await gateway.call('GET', `/v1/crawl/${full.id}`);
      expect(res.status).toBe(503);
      expect(Number(res.headers.get('retry-after'))).toBeGreaterThan(0);
      const body = PublicErrorResponse.parse(await res.json());
      expect(body.error).toMatchObject({ code: 'service_unavailable', retryable: true });
      const health = await fetch(`${gateway.url}/healthz`);
      expect(health.status).toBe(503);
      expect(await health.json()).toEqual({ ok: false, status: 'degraded', store: 'redis' });
      calls++;
      await new Promise((r) => setTimeout(r, 500));
    }
    expect(calls).toBeGreaterThan(5);
    expectAlive(pids);

    await redis.restart();
    const restartedAt = Date.now();
    // The gateway reconnects by itself (backoff at most 2 s): 503 until then, never anything else.
    for (;;) {
      const health = await fetch(`${gateway.url}/healthz`);
      expect([200, 503]).toContain(health.status);
      if (health.status === 200) break;
      expect(Date.now() - restartedAt).toBeLessThan(10_000);
      await new Promise((r) => setTimeout(r, 50));
    }
    const gatewayBackMs = Date.now() - restartedAt;
    // Resumed: pages are delivered again (the crawl moved past what it had before the outage).
    const resumed = await waitForCrawl(gateway, full.id, {
      until: (j) => j.progress.pages_completed > atHalt.progress.pages_completed || j.status === 'completed',
      intervalMs: 50,
      timeoutMs: 15_000,
      context: logs,
    });
    const resumeMs = Date.now() - restartedAt;
    process.stdout.write(
      `redis-outage: gateway healthy ${gatewayBackMs} ms and crawl delivering ${resumeMs} ms after Redis answered (pages ${atHalt.progress.pages_completed} -> ${resumed.progress.pages_completed})\n`,
    );
    expect(resumeMs).toBeLessThan(10_000);

    const done = await waitForCrawl(gateway, full.id, { timeoutMs: 30_000, context: logs });
    const cappedDone = await waitForCrawl(gateway, capped.id, { timeoutMs: 15_000, context: logs });
    expectExact(done, web.length);
    const urls = (await allItems(gateway, full.id)).map((i) => i.url);
    expect(duplicates(urls)).toEqual([]);
    expect(sorted(urls)).toEqual(sorted(web));
    expectExact(cappedDone, CAP);
    const cappedUrls = (await allItems(gateway, capped.id)).map((i) => i.url);
    expect(cappedUrls).toHaveLength(CAP);
    expect(duplicates(cappedUrls)).toEqual([]);
    for (const u of cappedUrls) expect(cappedWeb).toContain(u);

    // Pages in flight when Redis went away had their results held and written once it was back, although their
    // 2 s leases had lapsed during the 10 s outage: no worker reclaims for one lease period after an outage, so
    // live holders renew first. Measured: 0 pages fetched twice (7-14 without that grace; a little slack for a
    // loaded machine, where a holder may be slow to renew).
    const fetched = site.requests().map((r) => r.url);
    const refetched = fetched.length - new Set(fetched).size;
    process.stdout.write(`redis-outage: ${refetched} page fetches repeated; completed ${Date.now() - restartedAt} ms after Redis answered\n`);
    expect(refetched).toBeLessThanOrEqual(2);

    expectAlive(pids);
    for (const p of [gateway, ...workers]) {
      const out = p.output();
      // The outage was seen and logged once, with its end; never as an unhandled fault, never with a URL.
      expect(out).toMatch(/"kind":"store_unavailable"/);
      expect(out).toMatch(/"kind":"store_recovered"/);
      expect(out).not.toMatch(/unhandled_rejection|uncaught_exception/);
      expect(out).not.toContain('example.test');
    }
  }, 90_000);

  it('a trends job answered by Google while Redis is down completes on its first attempt, Google asked once', async () => {
    const pids = [gateway, ...workers].map((p) => p.pid);
    sim.reset();
    sim.inject('relatedsearches', { kind: 'slow', delayMs: 2_000 });
    const job = await createTrendsJob(gateway, { ...PIZZA_GRAIN, keyword: 'outage' });
    // The request to Google is on its way: Redis goes away before the answer comes back.
    for (let i = 0; i < 200 && sim.calls('relatedsearches').length === 0; i++) await new Promise((r) => setTimeout(r, 25));
    expect(sim.calls('relatedsearches')).toHaveLength(1);
    await redis.halt();
    await new Promise((r) => setTimeout(r, 4_000));
    expect(sim.calls('relatedsearches')[0].status).toBe(200);
    await redis.restart();
    let done = null;
    for (let i = 0; i < 100 && done === null; i++) {
      done = await waitForTrendsJob(gateway, job.id, { timeoutMs: 10_000, context: logs }).catch(() => null);
      if (done === null) await new Promise((r) => setTimeout(r, 100));
    }
    expect(done).toMatchObject({ state: 'completed', attempts: 1 });
    expect(sim.calls('relatedsearches')).toHaveLength(1);
    expectAlive(pids);
  }, 40_000);

  it('restarted empty: the bootstrap key works again without a restart, and a new crawl completes', async () => {
    const pids = [gateway, ...workers].map((p) => p.pid);
    await redis.restart({ empty: true });
    // No 401 on the way back: 503 while reconnecting, then the bootstrap key is there again.
    const started = Date.now();
    let status = 0;
    for (;;) {
      status = (await gateway.call('GET', '/v1/runs/run_none')).status;
      expect([503, 404]).toContain(status);
      if (status === 404 || Date.now() - started > 15_000) break;
      await new Promise((r) => setTimeout(r, 100));
    }
    expect(status).toBe(404);
    expect((await fetch(`${gateway.url}/healthz`)).status).toBe(200);

    const job = await startCrawl(gateway, { urls: [site.url(HOSTS[2])], scope: 'same_hostname', max_depth: 1, max_pages: 10 });
    const done = await waitForCrawl(gateway, job.id, { timeoutMs: 20_000, context: logs });
    checkProgress(done);
    expectExact(done, 4);
    expectAlive(pids);
  }, 60_000);
});
