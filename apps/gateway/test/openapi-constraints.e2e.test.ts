import { afterAll, beforeAll, describe, expect, it } from 'vitest';
import { BrowserScrapeRequest, CrawlRequest, FetchRequest, TrendsGrain } from '@trawl/contract';
import { startTestGateway, type TestGateway } from '@trawl/test-support/gateway.ts';
import { OpenApiCheck } from '@trawl/test-support/openapi-check.ts';
import { PIZZA_GRAIN } from '@trawl/test-support/trends-client.ts';

/**
 * The public document states the constraints the server enforces: a request the server refuses for a value is
 * refused by the document's schema too (a client validating against the document learns it before sending), and a
 * request the server accepts passes the document. Rules no JSON Schema can state (a date that does not exist, a
 * CSS selector our engine cannot run, seeds equal once normalized, max_pages below the number of seeds) are said
 * in the descriptions instead, and are not listed here.
 */
type Json = Record<string, any>;
let gw: TestGateway;
let check: OpenApiCheck;
beforeAll(async () => {
  gw = await startTestGateway({ LOG_LEVEL: 'warn', TRAWL_DATA_DIR: ':memory:', TRAWL_WORKERS: '0' });
  check = new OpenApiCheck((await (await fetch(`${gw.url}/api-docs/public-v1/openapi`)).json()) as Json);
});
afterAll(async () => {
  await gw?.close();
});

const bodyOf = (path: string) => ['paths', path, 'post', 'requestBody', 'content', 'application/json', 'schema'];
const url = 'https://tidewater.example/';
const long = (n: number) => 'x'.repeat(n);

const REFUSED: [label: string, path: string, body: Json][] = [
  ['not http(s)', '/v1/fetch', { url: 'ftp://tidewater.example/' }],
  ['userinfo', '/v1/fetch', { url: 'https://user:secret@tidewater.example/' }],
  ['relative URL', '/v1/fetch', { url: '/relative/path' }],
  ['URL over 8192 characters', '/v1/fetch', { url: `https://tidewater.example/${long(8200)}` }],
  ['unknown field', '/v1/fetch', { url, extra: true }],
  ['no url', '/v1/fetch', {}],
  ['scroll_count 0', '/v1/browser-scrape', { url, browser: { virtual_scroll: { container_selector: '.list', scroll_count: 0 } } }],
  ['selector over 1000 characters', '/v1/browser-scrape', { url, browser: { wait_for_selector: long(1001) } }],
  ['screenshot not a boolean', '/v1/browser-scrape', { url, screenshot: 'yes' }],
  ['no seed', '/v1/crawl', { urls: [] }],
  ['101 seeds', '/v1/crawl', { urls: Array.from({ length: 101 }, (_, i) => `${url}${i}`) }],
  ['max_depth 11', '/v1/crawl', { urls: [url], max_depth: 11 }],
  ['max_pages 0', '/v1/crawl', { urls: [url], max_pages: 0 }],
  ['max_pages 10001', '/v1/crawl', { urls: [url], max_pages: 10_001 }],
  ['unknown scope', '/v1/crawl', { urls: [url], scope: 'same_site' }],
  ['field name starting with a digit', '/v1/crawl', { urls: [url], extraction: { type: 'json_css', schema: { name: 'x', base_selector: 'li', fields: [{ name: '1bad', selector: 'a', type: 'text' }] } } }],
  ['extraction type xpath', '/v1/crawl', { urls: [url], extraction: { type: 'xpath', schema: { name: 'x', base_selector: 'li', fields: [{ name: 'a', selector: 'a', type: 'text' }] } } }],
  ['empty keyword', '/v1/search-trends/related-queries', { ...PIZZA_GRAIN, keyword: '' }],
  ['blank keyword', '/v1/search-trends/related-queries', { ...PIZZA_GRAIN, keyword: '   ' }],
  ['control character in keyword', '/v1/search-trends/related-queries', { ...PIZZA_GRAIN, keyword: 'pizza\u0007' }],
  ['keyword of 101 characters', '/v1/search-trends/related-queries', { ...PIZZA_GRAIN, keyword: long(101) }],
  ['lower-case geo', '/v1/search-trends/related-queries', { ...PIZZA_GRAIN, geo: 'us' }],
  ['unknown timeframe', '/v1/search-trends/related-queries', { ...PIZZA_GRAIN, timeframe: 'yesterday' }],
  ['malformed date range', '/v1/search-trends/related-queries', { ...PIZZA_GRAIN, timeframe: '2021-1-1 2021-12-31' }],
  ['category outside the tree', '/v1/search-trends/related-queries', { ...PIZZA_GRAIN, category: 1 }],
  ['unknown property', '/v1/search-trends/related-queries', { ...PIZZA_GRAIN, property: 'maps' }],
  ['not a language tag', '/v1/search-trends/related-queries', { ...PIZZA_GRAIN, hl: 'english!' }],
  ['tz beyond a day', '/v1/search-trends/related-queries', { ...PIZZA_GRAIN, tz: 1441 }],
  ['incomplete grain', '/v1/search-trends/related-queries', { keyword: 'pizza' }],
];

const ACCEPTED: [label: string, path: string, body: Json, schema: { safeParse(v: unknown): { success: boolean } }][] = [
  ['upper-case scheme, port, query, fragment', '/v1/fetch', { url: 'HTTPS://Tidewater.example:8443/a?b=c#d' }, FetchRequest],
  ['browser controls', '/v1/browser-scrape', { url, browser: { wait_for_selector: 'article h1', process_iframes: true }, screenshot: true, record: false }, BrowserScrapeRequest],
  ['defaults', '/v1/crawl', { urls: [url] }, CrawlRequest],
  ['bounds', '/v1/crawl', { urls: [url, `${url}journal/`], max_depth: 0, max_pages: 10_000, scope: 'same_origin' }, CrawlRequest],
  ['the recorded grain', '/v1/search-trends/related-queries', PIZZA_GRAIN, TrendsGrain],
  ['other values of every field', '/v1/search-trends/related-queries', { ...PIZZA_GRAIN, keyword: 'pizza napoletana', geo: 'US-CA', timeframe: 'now 7-d', category: 71, property: 'youtube', hl: 'de', tz: -120 }, TrendsGrain],
  ['an hourly range', '/v1/search-trends/related-queries', { ...PIZZA_GRAIN, timeframe: '2024-03-01T05 2024-03-02T05' }, TrendsGrain],
];

describe('the OpenAPI document states the constraints the server enforces', () => {
  it.each(REFUSED)('refused by both: %s (%s)', async (_label, path, body) => {
    const res = await gw.call('POST', path, body);
    expect(res.status).toBe(400);
    expect(check.problems(bodyOf(path), body)).not.toEqual([]);
  });

  it.each(ACCEPTED)('accepted by both: %s (%s)', (_label, path, body, schema) => {
    // The gateway validates bodies with exactly these contract schemas (no request is sent: nothing is created).
    expect(schema.safeParse(body).success).toBe(true);
    expect(check.problems(bodyOf(path), body)).toEqual([]);
  });

  it('states the Idempotency-Key rule, the items query and the path parameters', async () => {
    const keyAt = ['paths', '/v1/fetch', 'post', 'parameters', 0, 'schema'];
    expect(check.operation('post', '/v1/fetch')!.parameters[0].name).toBe('idempotency-key');
    const bad = await gw.call('POST', '/v1/fetch', { url }, { 'idempotency-key': 'has space' });
    expect(bad.status).toBe(400);
    expect(check.problems(keyAt, 'has space')).not.toEqual([]);
    expect(check.problems(keyAt, long(256))).not.toEqual([]);
    expect(check.problems(keyAt, 'order-2026-11-27#1')).toEqual([]);

    const items = check.operation('get', '/v1/crawl/{crawl_id}/items')!.parameters as Json[];
    const at = (name: string) => ['paths', '/v1/crawl/{crawl_id}/items', 'get', 'parameters', items.findIndex((p) => p.name === name), 'schema'];
    for (const limit of ['0', '101']) {
      expect((await gw.call('GET', `/v1/crawl/crawl_x/items?limit=${limit}`)).status, limit).toBe(400);
      expect(check.problems(at('limit'), Number(limit)), limit).not.toEqual([]);
    }
    expect((await gw.call('GET', `/v1/crawl/crawl_x/items?cursor=${long(65)}`)).status).toBe(400);
    expect(check.problems(at('cursor'), long(65))).not.toEqual([]);
    expect((await gw.call('GET', `/v1/crawl/${long(201)}`)).status).toBe(400);
    expect(check.problems(at('crawl_id'), long(201))).not.toEqual([]);
  });
});
