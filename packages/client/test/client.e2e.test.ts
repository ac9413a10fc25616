import { afterAll, beforeAll, describe, expect, it } from 'vitest';
import { createTrawlClient, TrawlApiError, TrawlNetworkError, type CrawlItem, type TrawlClient } from '@trawl/client';
import { allItems, duplicates, getCrawl, isTerminal } from '@trawl/test-support/crawl-client.ts';
import { startCrawlSite, type CrawlSite } from '@trawl/test-support/crawl-site.ts';
import { startFixtureSite, type FixtureSite } from '@trawl/test-support/fixture-site.ts';
import { freePort } from '@trawl/test-support/free-port.ts';
import { startTestGateway, TEST_KEY, type TestGateway } from '@trawl/test-support/gateway.ts';

/** The typed client against a real in-memory gateway and local fixture sites. */
let gw: TestGateway;
let fixture: FixtureSite;
let site: CrawlSite;
let trawl: TrawlClient;
const PAGES = 12;

beforeAll(async () => {
  [gw, fixture, site] = await Promise.all([startTestGateway({ LOG_LEVEL: 'warn' }), startFixtureSite(), startCrawlSite()]);
  trawl = createTrawlClient({ baseUrl: gw.url, apiKey: TEST_KEY });
  const children = Array.from({ length: PAGES - 1 }, (_, i) => `/p${i + 1}`);
  site.page(site.url('client.example.test'), { title: 'Client seed', links: children });
  // Slow pages: the iterator reads while the crawl runs.
  for (const p of children) site.page(site.url('client.example.test', p), { title: `Page ${p}`, latencyMs: 200 });
});
afterAll(async () => {
  await gw?.close();
  await fixture?.close();
  await site?.close();
});

describe('typed client', () => {
  it('fetches a page, and an explicit Idempotency-Key replays the first run while generated keys create new runs', async () => {
    const url = `${fixture.origin('site.test')}/article`;
    const first = await trawl.fetchPage({ url }, { idempotencyKey: 'client-test-key-1' });
    expect(first.run.type).toBe('fetch');
    expect(first.result.content.markdown.length).toBeGreaterThan(100);
    const replay = await trawl.fetchPage({ url }, { idempotencyKey: 'client-test-key-1' });
    expect(replay.run.id).toBe(first.run.id);
    const fresh = await trawl.fetchPage({ url });
    const fresh2 = await trawl.fetchPage({ url });
    expect(new Set([first.run.id, fresh.run.id, fresh2.run.id]).size).toBe(3);
    expect((await trawl.getRun(first.run.id)).id).toBe(first.run.id);
  });

  it('throws TrawlApiError carrying the contract error object, and the generated Idempotency-Key of a creation call', async () => {
    const stranger = createTrawlClient({ baseUrl: gw.url, apiKey: 'not-a-key-0123456789' });
    const denied = await stranger.createCrawl({ urls: [site.url('client.example.test')] }).catch((e: unknown) => e);
    expect(denied).toBeInstanceOf(TrawlApiError);
    const e = denied as TrawlApiError;
    expect(e).toMatchObject({ status: 401, code: 'authentication_required', type: 'authentication', retryable: false });
    expect(e.error?.request_id).toBe(e.requestId);
    expect(e.requestId).toBeTruthy();
    expect(e.idempotencyKey).toMatch(/^[0-9a-f-]{36}$/);

    const invalid = (await trawl.createCrawl({ urls: [], max_pages: 0 }).catch((x: unknown) => x)) as TrawlApiError;
    expect(invalid.code).toBe('validation_error');
    expect(invalid.details.field).toBeTruthy();
    const missing = (await trawl.getCrawl('crawl_nope').catch((x: unknown) => x)) as TrawlApiError;
    expect(missing).toMatchObject({ status: 404, code: 'crawl_not_found', idempotencyKey: null, retryAfterS: null });
  });

  it('reads Retry-After of a rate-limited answer', async () => {
    const limited = await startTestGateway({ LOG_LEVEL: 'warn', TRAWL_RATE_LIMIT_READS_PER_MIN: '1' });
    try {
      const c = createTrawlClient({ baseUrl: limited.url, apiKey: TEST_KEY });
      await c.getCrawl('crawl_one').catch(() => undefined);
      const e = (await c.getCrawl('crawl_two').catch((x: unknown) => x)) as TrawlApiError;
      expect(e).toMatchObject({ status: 429, code: 'rate_limited', retryable: true });
      expect(e.retryAfterS).toBeGreaterThanOrEqual(1);
    } finally {
      await limited.close();
    }
  });

  it('throws TrawlNetworkError when nothing listens at the base URL', async () => {
    const nowhere = createTrawlClient({ baseUrl: `http://127.0.0.1:${await freePort()}`, apiKey: TEST_KEY });
    const e = await nowhere.fetchPage({ url: 'http://site.test/' }, { idempotencyKey: 'k-network' }).catch((x: unknown) => x);
    expect(e).toBeInstanceOf(TrawlNetworkError);
    expect((e as TrawlNetworkError).message).toContain('ECONNREFUSED');
    expect((e as TrawlNetworkError).idempotencyKey).toBe('k-network');
  });

  it('iterates every crawl item exactly once while the crawl runs, ending after the crawl ended', async () => {
    const { crawl } = await trawl.createCrawl({ urls: [site.url('client.example.test')], max_depth: 1 });
    const seen: CrawlItem[] = [];
    let whileRunning = 0;
    for await (const item of trawl.crawlItems(crawl.id, { limit: 3, pollIntervalMs: 100 })) {
      seen.push(item);
      if (!isTerminal(await getCrawl(gw, crawl.id))) whileRunning++;
    }
    expect((await trawl.getCrawl(crawl.id)).status).toBe('completed');
    expect(whileRunning).toBeGreaterThan(0);
    expect(duplicates(seen.map((i) => i.id))).toEqual([]);
    expect(seen.map((i) => i.id)).toEqual((await allItems(gw, crawl.id)).map((i) => i.id));
    expect(seen).toHaveLength(PAGES);
  });

  it('downloads artifacts by their returned URL or by run id and key, with their content type, and refuses other hosts', async () => {
    const { crawl } = await trawl.createCrawl({ urls: [site.url('client.example.test', '/p1')], max_depth: 0 });
    const items: CrawlItem[] = [];
    for await (const i of trawl.crawlItems(crawl.id, { pollIntervalMs: 100 })) items.push(i);
    const [item] = items;
    const md = item.artifacts.find((a) => a.key === 'markdown')!;
    const viaUrl = await trawl.downloadArtifact(md.url);
    expect(viaUrl.contentType).toBe(md.content_type);
    expect(viaUrl.text()).toBe(item.content.markdown);
    expect(Buffer.from(viaUrl.bytes).toString('utf8')).toBe(item.content.markdown);
    expect((await trawl.downloadArtifact(`${gw.url}${md.url}`)).text()).toBe(item.content.markdown);

    const withoutCrawl = await trawl.downloadArtifact({ runId: item.page_run_id, key: 'markdown' }).catch((x: unknown) => x);
    expect((withoutCrawl as TrawlApiError).code).toBe('artifact_not_found');
    const html = await trawl.downloadArtifact({ runId: item.page_run_id, key: 'html', crawlId: crawl.id });
    expect(html.contentType).toContain('text/html');
    expect(html.text()).toBe(item.content.html);

    for (const foreign of [`http://elsewhere.test${md.url}`, '/v1/crawl/x', `${md.url}&other=1`]) {
      await expect(trawl.downloadArtifact(foreign), foreign).rejects.toThrow(TypeError);
    }
  });
});
