import { afterAll, beforeAll, describe, expect, it } from 'vitest';
import { CrawlCreateResponse, PageRunResponse, PublicErrorResponse, QUOTA_RESOURCE_NAMES, type QuotaResource } from '@trawl/contract';
import { adminCall, newTeam, TEST_ADMIN_TOKEN, type TestTeam } from '@trawl/test-support/admin-client.ts';
import { waitForCrawl } from '@trawl/test-support/crawl-client.ts';
import { CRAWL_TEST_ENV } from '@trawl/test-support/crawl-modes.ts';
import { startCrawlSite, type CrawlSite } from '@trawl/test-support/crawl-site.ts';
import { startFixtureSite, type FixtureSite } from '@trawl/test-support/fixture-site.ts';
import { startTestGateway, TEST_KEY, type TestGateway } from '@trawl/test-support/gateway.ts';
import { randomPrefix, startRedisServer, type RedisServer } from '@trawl/test-support/redis-server.ts';
import { PIZZA_GRAIN } from '@trawl/test-support/trends-client.ts';

/**
 * Monthly quotas end to end in both modes: exactly N of many concurrent requests pass a quota of N (cluster: sent
 * through two gateways on one Redis), the rest get 429 quota_exceeded naming the resource; a run that delivers
 * nothing gives its unit back; a crawl is refused at creation when max_pages would cross the quota and gets back
 * what it did not admit when it ends; trends jobs; replays do not count; admin quotas.set/get; the month rollover.
 */
const ENV = {
  ...CRAWL_TEST_ENV,
  TRAWL_ADMIN_TOKEN: TEST_ADMIN_TOKEN,
  // Long enough for a first browser scrape to launch Chromium on a busy machine.
  TRAWL_FETCH_TIMEOUT_MS: '20000',
  // Trends jobs are only created here; a runner that picks one up reaches a closed local port, never Google.
  TRAWL_TRENDS_BASE_URL: 'http://127.0.0.1:9',
};

let redis: RedisServer;
let site: FixtureSite;
let crawlSite: CrawlSite;
beforeAll(async () => {
  [redis, site, crawlSite] = await Promise.all([startRedisServer(), startFixtureSite(), startCrawlSite()]);
});
afterAll(async () => {
  await Promise.all([redis?.stop(), site?.close(), crawlSite?.close()]);
});

/** Two gateways: embedded, the same one twice (its state is its own); cluster, two on one Redis, one with a worker. */
const modes: [string, () => Promise<[TestGateway, TestGateway]>][] = [
  [
    'embedded',
    async () => {
      const gw = await startTestGateway({ ...ENV, TRAWL_WORKERS: '1' });
      return [gw, gw];
    },
  ],
  [
    'cluster',
    async () => {
      const shared = { ...ENV, REDIS_URL: redis.url, REDIS_PREFIX: randomPrefix() };
      return Promise.all([startTestGateway({ ...shared, TRAWL_WORKERS: '1' }), startTestGateway({ ...shared, TRAWL_WORKERS: '0' })]);
    },
  ],
];

const setQuota = (gw: TestGateway, team_id: string, resource: QuotaResource, monthly: number | null) =>
  adminCall(gw, 'quotas.set', { team_id, resource, monthly });
type Quotas = { month: string; quotas: Record<QuotaResource, { monthly: number | null; used: number }> };
const usage = async (gw: TestGateway, team_id: string) => (await adminCall(gw, 'quotas.get', { team_id })).body.result.data as Quotas;

/** The body of a 429 quota_exceeded, checked against the contract. */
async function quotaError(res: Response, resource: QuotaResource) {
  expect(res.status).toBe(429);
  const { error } = PublicErrorResponse.parse(await res.json());
  expect(error).toMatchObject({ code: 'quota_exceeded', type: 'quota', retryable: false, details: { resource } });
  expect(Object.keys(error.details)).toEqual(['resource']);
  expect(res.headers.get('retry-after')).toBeNull();
  return error;
}

describe.each(modes)('monthly quotas (%s)', (mode, start) => {
  let a: TestGateway;
  let b: TestGateway;
  beforeAll(async () => {
    [a, b] = await start();
  });
  afterAll(async () => {
    await a?.close();
    if (b !== a) await b?.close();
  });
  const team = (name: string) => newTeam(a, `${name}-${mode}`);
  const fetchOn = (t: TestTeam, gw: TestGateway, path: string, headers: Record<string, string> = {}) =>
    gw.call('POST', '/v1/fetch', { url: `${site.origin('site.test')}${path}` }, { authorization: `Bearer ${t.secret}`, ...headers });

  it('lets exactly N of 30 concurrent fetches through a quota of N, and refuses the rest with quota_exceeded', async () => {
    const t = await team('boundary');
    await setQuota(b, t.id, 'scrape', 4);
    const all = await Promise.all(Array.from({ length: 30 }, (_, i) => fetchOn(t, i % 2 ? a : b, '/article')));
    const ok = all.filter((r) => r.status === 200);
    expect(ok).toHaveLength(4);
    for (const r of ok) expect(PageRunResponse.parse(await r.json()).run.quota).toEqual({ resource: 'scrape', quantity_reserved: 1 });
    const refused = all.filter((r) => r.status !== 200);
    expect(refused).toHaveLength(26);
    const first = await quotaError(refused[0], 'scrape');
    // Nothing but the resource: no team, no limit, no URL.
    expect(first.message).not.toMatch(/team_|\d|site\.test/);
    for (const r of refused.slice(1)) await quotaError(r, 'scrape');
    expect((await usage(a, t.id)).quotas.scrape).toEqual({ monthly: 4, used: 4 });
    // Other resources and other teams are not affected.
    const other = await team('boundary-other');
    expect((await fetchOn(other, b, '/article')).status).toBe(200);
  });

  it('a fetch that delivers nothing gives its unit back', async () => {
    const t = await team('give-back');
    await setQuota(a, t.id, 'scrape', 1);
    expect((await fetchOn(t, b, '/loop')).status).toBe(502);
    expect((await usage(a, t.id)).quotas.scrape.used).toBe(0);
    expect((await fetchOn(t, a, '/article')).status).toBe(200);
    await quotaError(await fetchOn(t, b, '/article'), 'scrape');
  });

  it('browser scrapes draw on their own quota', async () => {
    const t = await team('browser');
    await setQuota(a, t.id, 'browser_scrape', 1);
    await setQuota(a, t.id, 'scrape', 0);
    const scrape = () => t.call('POST', '/v1/browser-scrape', { url: `${site.origin('site.test')}/article` });
    const res = await scrape();
    expect(res.status, await res.clone().text()).toBe(200);
    expect(PageRunResponse.parse(await res.json()).run.quota).toEqual({ resource: 'browser_scrape', quantity_reserved: 1 });
    await quotaError(await scrape(), 'browser_scrape');
    expect((await usage(b, t.id)).quotas).toMatchObject({ browser_scrape: { used: 1, monthly: 1 }, scrape: { used: 0, monthly: 0 } });
  });

  it('idempotent replays do not count, and a refusal is not stored for replay', async () => {
    const t = await team('replay');
    await setQuota(a, t.id, 'scrape', 1);
    const first = await fetchOn(t, a, '/article', { 'idempotency-key': 'q-1' });
    expect(first.status).toBe(200);
    for (const gw of [a, b, a]) {
      const again = await fetchOn(t, gw, '/article', { 'idempotency-key': 'q-1' });
      expect(again.status).toBe(200);
      expect(again.headers.get('idempotent-replayed')).toBe('true');
    }
    expect((await usage(a, t.id)).quotas.scrape.used).toBe(1);
    await quotaError(await fetchOn(t, b, '/article', { 'idempotency-key': 'q-2' }), 'scrape');
    // Once the quota is raised, the same key runs the request (the 429 created nothing and was not kept).
    await setQuota(a, t.id, 'scrape', 2);
    const retried = await fetchOn(t, b, '/article', { 'idempotency-key': 'q-2' });
    expect(retried.status).toBe(200);
    expect(retried.headers.get('idempotent-replayed')).toBeNull();
    expect((await usage(a, t.id)).quotas.scrape.used).toBe(2);
  });

  it('refuses a crawl whose max_pages would cross the quota, accepts one that fits exactly, and gives back what it did not admit', async () => {
    const t = await team('crawl');
    const host = `quota-${mode}.test`;
    crawlSite.page(crawlSite.url(host, '/'), { links: ['/a', '/b'] });
    crawlSite.page(crawlSite.url(host, '/a'));
    crawlSite.page(crawlSite.url(host, '/b'));
    await setQuota(a, t.id, 'crawl_pages', 10);
    const create = (max_pages: number, gw = b) =>
      gw.call('POST', '/v1/crawl', { urls: [crawlSite.url(host, '/')], max_pages }, { authorization: `Bearer ${t.secret}` });

    await quotaError(await create(11), 'crawl_pages');
    expect((await usage(a, t.id)).quotas.crawl_pages.used).toBe(0);
    const created = await create(10);
    expect(created.status).toBe(202);
    const { crawl, run } = CrawlCreateResponse.parse(await created.json());
    expect(run.quota).toEqual({ resource: 'crawl_pages', quantity_reserved: 10 });
    // While it runs its whole max_pages is reserved: not one page more fits.
    expect((await usage(a, t.id)).quotas.crawl_pages.used).toBe(10);
    await quotaError(await create(1, a), 'crawl_pages');

    const ended = await waitForCrawl(t, crawl.id);
    expect(ended.status).toBe('completed');
    expect(ended.progress.pages_discovered).toBe(3);
    // The finalize (moments after the status turns) gives back the 7 pages never admitted.
    await until(async () => (await usage(a, t.id)).quotas.crawl_pages.used === 3);
    expect((await create(7)).status).toBe(202);
    expect((await usage(a, t.id)).quotas.crawl_pages.used).toBe(10);
    await quotaError(await create(1, a), 'crawl_pages');
  });

  it('counts trends jobs: exactly N of many concurrent creations pass', async () => {
    const t = await team('trends');
    await setQuota(a, t.id, 'trends', 2);
    const create = (gw: TestGateway, keyword: string) =>
      gw.call('POST', '/v1/search-trends/related-queries', { ...PIZZA_GRAIN, keyword }, { authorization: `Bearer ${t.secret}` });
    const all = await Promise.all(Array.from({ length: 8 }, (_, i) => create(i % 2 ? a : b, `q${i}`)));
    expect(all.filter((r) => r.status === 202)).toHaveLength(2);
    const refused = all.filter((r) => r.status !== 202);
    expect(refused).toHaveLength(6);
    for (const r of refused) await quotaError(r, 'trends');
    expect((await usage(b, t.id)).quotas.trends).toEqual({ monthly: 2, used: 2 });
  });

  it('admin quotas.set / quotas.get: every resource with its limit and this month’s usage; admin token only', async () => {
    const t = await team('admin');
    const got = await adminCall(a, 'quotas.get', { team_id: t.id });
    expect(got.status).toBe(200);
    expect(got.body.result.data).toEqual({
      team_id: t.id,
      month: new Date().toISOString().slice(0, 7),
      quotas: Object.fromEntries(QUOTA_RESOURCE_NAMES.map((r) => [r, { monthly: null, used: 0 }])),
    });
    // Unlimited still counts, so usage is reported.
    expect((await fetchOn(t, a, '/article')).status).toBe(200);
    const set = await setQuota(b, t.id, 'scrape', 5);
    expect(set.status).toBe(200);
    expect(set.body.result.data.quotas.scrape).toEqual({ monthly: 5, used: 1 });
    expect((await setQuota(a, t.id, 'scrape', null)).body.result.data.quotas.scrape).toEqual({ monthly: null, used: 1 });

    for (const bad of [
      { team_id: t.id, resource: 'crawl', monthly: 1 },
      { team_id: t.id, resource: 'scrape', monthly: -1 },
      { team_id: t.id, resource: 'scrape', monthly: 1.5 },
      { team_id: t.id, resource: 'scrape' },
      { team_id: t.id, resource: 'scrape', monthly: 1, extra: true },
    ]) {
      expect((await adminCall(a, 'quotas.set', bad)).status, JSON.stringify(bad)).toBe(400);
    }
    expect((await adminCall(a, 'quotas.get', { team_id: 'team_nobody' })).status).toBe(404);
    expect((await setQuota(a, 'team_nobody', 'scrape', 1)).status).toBe(404);
    for (const token of [TEST_KEY, t.secret, null]) {
      const r = await adminCall(a, 'quotas.set', { team_id: t.id, resource: 'scrape', monthly: 0 }, token);
      expect(r.status).toBe(401);
      expect(r.body.error.data.code).toBe('UNAUTHORIZED');
      expect((await adminCall(a, 'quotas.get', { team_id: t.id }, token)).body.error.data.code).toBe('UNAUTHORIZED');
    }
    expect((await usage(a, t.id)).quotas.scrape.monthly).toBeNull();
  });
});

describe.each(['embedded', 'cluster'])('the month rollover (%s)', (mode) => {
  let gw: TestGateway;
  const clock = { offset: 0 };
  beforeAll(async () => {
    const backend: Record<string, string> = mode === 'cluster' ? { REDIS_URL: redis.url, REDIS_PREFIX: randomPrefix() } : {};
    gw = await startTestGateway({ ...ENV, ...backend, TRAWL_WORKERS: '0' }, () => Date.now() + clock.offset);
  });
  afterAll(async () => {
    await gw?.close();
  });

  it('counts each request in the UTC month it arrives in: a new month starts from zero under the same limits', async () => {
    clock.offset = Date.parse('2031-01-31T23:59:00Z') - Date.now();
    const t = await newTeam(gw, `rollover-${mode}`);
    await setQuota(gw, t.id, 'scrape', 1);
    await setQuota(gw, t.id, 'trends', 1);
    await setQuota(gw, t.id, 'crawl_pages', 5);
    const fetchPage = () => t.call('POST', '/v1/fetch', { url: `${site.origin('site.test')}/article` });
    const trends = () => t.call('POST', '/v1/search-trends/related-queries', PIZZA_GRAIN);
    const crawl = (max_pages: number) => t.call('POST', '/v1/crawl', { urls: [`${site.origin('site.test')}/`], max_pages });
    expect((await fetchPage()).status).toBe(200);
    expect((await trends()).status).toBe(202);
    expect((await crawl(5)).status).toBe(202);
    await quotaError(await fetchPage(), 'scrape');
    await quotaError(await trends(), 'trends');
    await quotaError(await crawl(1), 'crawl_pages');
    expect(await usage(gw, t.id)).toMatchObject({ month: '2031-01', quotas: { scrape: { used: 1 }, trends: { used: 1 }, crawl_pages: { used: 5 } } });

    clock.offset += 120_000; // 2031-02-01T00:01
    expect(await usage(gw, t.id)).toEqual({
      team_id: t.id,
      month: '2031-02',
      quotas: {
        crawl_pages: { monthly: 5, used: 0 },
        scrape: { monthly: 1, used: 0 },
        browser_scrape: { monthly: null, used: 0 },
        trends: { monthly: 1, used: 0 },
      },
    });
    expect((await fetchPage()).status).toBe(200);
    expect((await trends()).status).toBe(202);
    expect((await crawl(5)).status).toBe(202);
    await quotaError(await fetchPage(), 'scrape');
  });
});

async function until(check: () => Promise<boolean>, timeoutMs = 10_000): Promise<void> {
  const deadline = Date.now() + timeoutMs;
  while (!(await check())) {
    if (Date.now() > deadline) throw new Error('condition not met in time');
    await new Promise((r) => setTimeout(r, 50));
  }
}
