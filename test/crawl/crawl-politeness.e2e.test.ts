import { afterAll, beforeAll, describe, expect, it } from 'vitest';
import { allItems, sleep, sorted, startCrawl, waitForCrawl } from '@trawl/test-support/crawl-client.ts';
import { MODES_WITH_REDIS_CLUSTER, startCrawlEnv, workerLogs, type CrawlEnv } from '@trawl/test-support/crawl-modes.ts';
import { startCrawlSite, type CrawlSite } from '@trawl/test-support/crawl-site.ts';

/**
 * Issue 3 point 8: a redirect that leaves the scope is not followed; a 429 with Retry-After slows the host (in
 * cluster mode for every worker: the worker that saw the 429 is killed and another one takes over the host during
 * the backoff); robots.txt disallow is honoured. Asserted at the fixture's request log (what was asked, and when), not only in
 * the crawl's counters.
 */
let site: CrawlSite;
let u: (host: string, path?: string) => string;
const QUEUED = Array.from({ length: 12 }, (_, i) => `/q${i + 1}`);

beforeAll(async () => {
  site = await startCrawlSite();
  u = (host, path = '/') => site.url(host, path);

  site.page(u('redir.example.test'), { links: ['/go-out', '/go-in', '/plain'] });
  site.page(u('redir.example.test', '/go-out'), { redirect: u('elsewhere.test', '/landing') });
  site.page(u('elsewhere.test', '/landing'));
  site.page(u('redir.example.test', '/go-in'), { redirect: '/target' });
  site.page(u('redir.example.test', '/target'));
  site.page(u('redir.example.test', '/plain'));

  site.page(u('robots.example.test', '/robots.txt'), { body: 'User-agent: *\nDisallow: /private\n' });
  site.page(u('robots.example.test'), { links: ['/public', '/private/secret', '/private-too'] });
  for (const p of ['/public', '/private/secret', '/private-too']) site.page(u('robots.example.test', p));
  // A group for our own agent, disallowing everything, the seed included.
  site.page(u('nobots.example.test', '/robots.txt'), { body: 'User-agent: *\nAllow: /\n\nUser-agent: TrawlBot\nDisallow: /\n' });
  site.page(u('nobots.example.test'), { links: ['/a'] });
});
afterAll(async () => {
  await site?.close();
});

describe.each(MODES_WITH_REDIS_CLUSTER)('crawl politeness (%s)', (mode) => {
  let env: CrawlEnv;
  // The 429 is answered once per host: each mode gets its own.
  const busy = `busy-${mode}.example.test`;
  beforeAll(async () => {
    // /step answers 429 Retry-After: 2 once. The other pages are slow enough that plenty is still queued for the
    // host when the 429 comes back: without a backoff they would be asked for at once.
    site.page(u(busy), { links: ['/step', ...QUEUED] });
    site.page(u(busy, '/step'), { first: [{ status: 429, headers: { 'retry-after': '2' } }], links: ['/after1', '/after2'] });
    for (const p of [...QUEUED, '/after1', '/after2']) site.page(u(busy, p), { latencyMs: 100 });
    env = await startCrawlEnv(mode, { workers: mode !== 'embedded' ? 2 : 1 });
  });
  afterAll(async () => {
    await env?.close();
  });
  const wait = (id: string) => waitForCrawl(env.gw, id, { context: () => workerLogs(env) });

  it('does not follow a redirect that leaves the scope, and counts it as out_of_scope_redirect', async () => {
    const from = site.mark();
    const created = await startCrawl(env.gw, { urls: [u('redir.example.test')], scope: 'same_hostname' });
    const done = await wait(created.id);
    expect(done.status).toBe('completed');
    expect(done.diagnostics.block_reasons).toEqual({ out_of_scope_redirect: 1 });
    expect(done.progress).toMatchObject({ pages_discovered: 4, pages_completed: 3, pages_blocked: 1, pages_failed: 0 });

    const items = await allItems(env.gw, created.id);
    expect(sorted(items.map((i) => i.url))).toEqual(sorted([u('redir.example.test'), u('redir.example.test', '/go-in'), u('redir.example.test', '/plain')]));
    // An in-scope redirect is followed and the item says where it ended.
    expect(items.find((i) => i.url === u('redir.example.test', '/go-in'))!.final_url).toBe(u('redir.example.test', '/target'));
    const asked = site.requests({ since: from, robots: true });
    expect(asked.filter((r) => r.host === 'elsewhere.test')).toEqual([]);
    expect(asked.filter((r) => r.path === '/go-out')).toHaveLength(1);
  });

  it('a 429 with Retry-After holds every request to the host until it has passed, then retries', async () => {
    const from = site.mark();
    const created = await startCrawl(env.gw, { urls: [u(busy)] });
    if (mode !== 'embedded') {
      // The backoff is for every worker, not only the one that saw the 429. Once that worker has recorded the
      // backoff and requeued the page (not before: a worker killed before that never learnt of the 429, or its
      // lease is simply reclaimed), kill -9 it, so another worker takes the shard and the retry mid-backoff.
      await waitForCrawl(env.gw, created.id, { until: (j) => j.diagnostics.retry.categories.http_429 === 1, intervalMs: 10 });
      const redis = await env.connectRedis();
      const slowUntil = await redis.get(`${env.prefix}shard:{${busy}}:slow`);
      const owner = await redis.get(`${env.prefix}shard:{${busy}}:owner`);
      await redis.quit();
      const victim = env.workers.find((w) => owner !== null && w.workerIds.includes(owner));
      expect(victim, `owner ${owner}`).toBeDefined();
      await victim!.kill9();
      const t429 = site.requests({ since: from, host: busy }).find((r) => r.status === 429)!.at;
      expect(Number(slowUntil)).toBeGreaterThanOrEqual(t429 + 1950);
    }
    const done = await wait(created.id);
    expect(done.status).toBe('completed');
    expect(done.diagnostics.retry.categories).toEqual({ http_429: 1 });
    expect(done.progress).toMatchObject({ pages_discovered: 16, pages_completed: 16, pages_failed: 0, pages_blocked: 0 });
    expect(sorted((await allItems(env.gw, created.id)).map((i) => new URL(i.url).pathname))).toEqual(
      sorted(['/', '/step', ...QUEUED, '/after1', '/after2']),
    );

    const log = site.requests({ since: from, robots: true, host: busy });
    const steps = log.filter((r) => r.path === '/step');
    expect(steps.map((r) => r.status)).toEqual([429, 200]);
    const t429 = steps[0].at;
    // The retry waited for Retry-After (same clock: both are arrival times at the fixture).
    expect(steps[1].at - t429).toBeGreaterThanOrEqual(1950);
    // Requests already on the wire when the 429 left may still land just after it (300 ms grace); after that,
    // nothing reaches the host until the backoff is over, although most of its pages were still waiting.
    const during = log.filter((r) => r.at > t429 + 300 && r.at < t429 + 1950);
    expect(during.map((r) => r.path)).toEqual([]);
    expect(log.filter((r) => r.at >= t429 + 1950).length).toBeGreaterThanOrEqual(6);
  });

  it('honours robots.txt: disallowed pages are never requested and count as robots_disallowed', async () => {
    const from = site.mark();
    const created = await startCrawl(env.gw, { urls: [u('robots.example.test')] });
    const done = await wait(created.id);
    expect(done.status).toBe('completed');
    expect(done.diagnostics.block_reasons).toEqual({ robots_disallowed: 2 });
    expect(done.progress).toMatchObject({ pages_discovered: 4, pages_completed: 2, pages_blocked: 2 });
    expect(sorted((await allItems(env.gw, created.id)).map((i) => i.url))).toEqual(
      sorted([u('robots.example.test'), u('robots.example.test', '/public')]),
    );
    const asked = site.requests({ since: from, robots: true, host: 'robots.example.test' }).map((r) => r.path);
    expect(sorted(asked)).toEqual(sorted(['/robots.txt', '/', '/public']));
  });

  it('a crawl whose seed robots.txt forbids our agent ends failed without requesting the page', async () => {
    const from = site.mark();
    const created = await startCrawl(env.gw, { urls: [u('nobots.example.test')] });
    const done = await wait(created.id);
    expect(done.status).toBe('failed');
    expect(done.failure?.code).toBe('no_pages_delivered');
    expect(done.diagnostics.block_reasons).toEqual({ robots_disallowed: 1 });
    expect(site.requests({ since: from, robots: true, host: 'nobots.example.test' }).map((r) => r.path)).toEqual(['/robots.txt']);
  });
});
