import { afterAll, beforeAll, describe, expect, it } from 'vitest';
import { allItems, duplicates, getCrawl, startCrawl, waitForCrawl } from '@trawl/test-support/crawl-client.ts';
import { CRAWL_TEST_ENV } from '@trawl/test-support/crawl-modes.ts';
import { startCrawlSite, type CrawlSite } from '@trawl/test-support/crawl-site.ts';
import { startTestGateway, type TestGateway } from '@trawl/test-support/gateway.ts';
import { PIZZA_GRAIN } from '@trawl/test-support/trends-client.ts';

/**
 * TRAWL_DATA_MAX_BYTES end to end: a gateway on a data directory limited to 1 MiB is filled by Fetches of a large
 * page; then every creation answers 503 `service_unavailable` (`details.reason: "data_dir_full"`) while reads,
 * idempotent replays and a crawl created before go on; /readyz, /metrics and the log say so.
 */
const MAX = 1024 * 1024;
const ADMIN = 'admin-token-0123456789abcdef';
const HOST = 'full.example.test';
const CHILDREN = 5;
let site: CrawlSite;
let gw: TestGateway;

// ~120 KB of text: each Fetch stores its Markdown and HTML, so a handful fill 1 MiB.
const bigPage = `<!doctype html><html><head><title>Almanac</title></head><body><main><h1>Almanac</h1>${Array.from(
  { length: 400 },
  (_, i) => `<p>Paragraph ${i}: the harbour almanac lists every berth, crane and slipway along the inner quay, with the hours each is open.</p>`,
).join('')}</main></body></html>`;

beforeAll(async () => {
  site = await startCrawlSite();
  site.page(site.url(HOST, '/big'), { body: bigPage, contentType: 'text/html; charset=utf-8' });
  const children = Array.from({ length: CHILDREN }, (_, i) => `/c${i}`);
  site.page(site.url(HOST), { links: children });
  for (const c of children) site.page(site.url(HOST, c));
  gw = await startTestGateway({ ...CRAWL_TEST_ENV, LOG_LEVEL: 'info', TRAWL_DATA_MAX_BYTES: String(MAX), TRAWL_ADMIN_TOKEN: ADMIN });
});
afterAll(async () => {
  await gw?.close();
  await site?.close();
});

const fetchBig = (headers: Record<string, string> = {}) => gw.call('POST', '/v1/fetch', { url: site.url(HOST, '/big') }, headers);

async function metric(name: string): Promise<number> {
  const text = await (await fetch(`${gw.url}/metrics`, { headers: { authorization: `Bearer ${ADMIN}` } })).text();
  const m = new RegExp(`^${name} (\\S+)$`, 'm').exec(text);
  if (!m) throw new Error(`${name} not in /metrics`);
  return Number(m[1]);
}

describe('TRAWL_DATA_MAX_BYTES', () => {
  it('refuses new work with 503 data_dir_full once the store holds the limit; reads, replays and an existing crawl go on', async () => {
    expect(await (await fetch(`${gw.url}/readyz`)).json()).toEqual({ ok: true, status: 'ready', store: 'ok', browser: 'ok', data_dir: 'ok' });
    // A crawl created while there is room, paused at once so that its pages are still to come when the store is full.
    const crawl = await startCrawl(gw, { urls: [site.url(HOST)], max_depth: 1, max_pages: 1 + CHILDREN });
    expect((await gw.call('POST', `/v1/crawl/${crawl.id}/pause`)).status).toBe(200);

    const first = await fetchBig({ 'idempotency-key': 'before-full' });
    expect(first.status).toBe(200);
    const firstBody = (await first.json()) as { run: { id: string }; result: { artifacts: { key: string; url: string }[] } };
    let refused: Response | null = null;
    let delivered = 1;
    for (let i = 0; i < 40 && !refused; i++) {
      const r = await fetchBig();
      if (r.status === 200) delivered++;
      else refused = r;
      await r.arrayBuffer().catch(() => undefined);
      // The measure is reused for up to a second: give it the chance to see what was written.
      await new Promise((res) => setTimeout(res, 100));
    }
    expect(refused, 'the store never filled').not.toBeNull();
    expect(delivered).toBeGreaterThanOrEqual(2);

    // Every creation now gets the same object, naming the reason and nothing else.
    const creations: [string, unknown][] = [
      ['/v1/fetch', { url: site.url(HOST, '/big') }],
      ['/v1/browser-scrape', { url: site.url(HOST, '/big') }],
      ['/v1/crawl', { urls: [site.url(HOST)] }],
      ['/v1/search-trends/related-queries', PIZZA_GRAIN],
    ];
    for (const [path, body] of creations) {
      const r = await gw.call('POST', path, body);
      expect(r.status, path).toBe(503);
      expect(r.headers.get('retry-after'), path).toBe('60');
      const { error } = (await r.json()) as { error: Record<string, unknown> };
      expect(error, path).toEqual({
        code: 'service_unavailable',
        message: 'the data directory is full: no new work is accepted until retention frees space; reads still answer',
        type: 'server',
        retryable: true,
        request_id: expect.any(String),
        details: { reason: 'data_dir_full' },
      });
    }

    // A replay creates nothing: answered. A new key is refused and released, so its retry is refused again (not 409).
    const replay = await fetchBig({ 'idempotency-key': 'before-full' });
    expect(replay.status).toBe(200);
    expect(replay.headers.get('idempotent-replayed')).toBe('true');
    expect(((await replay.json()) as { run: { id: string } }).run.id).toBe(firstBody.run.id);
    for (let i = 0; i < 2; i++) expect((await fetchBig({ 'idempotency-key': 'after-full' })).status).toBe(503);

    // Reads still answer.
    expect((await gw.call('GET', `/v1/runs/${firstBody.run.id}`)).status).toBe(200);
    const markdown = await gw.call('GET', firstBody.result.artifacts.find((a) => a.key === 'markdown')!.url);
    expect(markdown.status).toBe(200);
    expect(await markdown.text()).toContain('Paragraph 399');

    // Operators see it: /readyz stays ready (reads still answer) and says full; the gauges; one warning.
    const ready = await fetch(`${gw.url}/readyz`);
    expect(ready.status).toBe(200);
    expect(await ready.json()).toEqual({ ok: true, status: 'ready', store: 'ok', browser: 'ok', data_dir: 'full' });
    expect(await metric('trawl_data_dir_limit_bytes')).toBe(MAX);
    expect(await metric('trawl_data_dir_used_bytes')).toBeGreaterThanOrEqual(MAX);
    expect(await metric('trawl_data_dir_file_bytes')).toBeGreaterThanOrEqual(MAX);
    const warnings = gw.logs.filter((l) => l.kind === 'data_dir_full');
    expect(warnings).toHaveLength(1);
    expect(warnings[0]).toMatchObject({ level: 40, max_bytes: MAX });

    // The crawl created before goes on to its end while the store is full: no page lost, none twice.
    expect((await getCrawl(gw, crawl.id)).progress.pages_completed).toBeLessThan(1 + CHILDREN);
    expect((await gw.call('POST', `/v1/crawl/${crawl.id}/resume`)).status).toBe(200);
    const done = await waitForCrawl(gw, crawl.id);
    expect(done.status).toBe('completed');
    expect(done.progress.pages_completed).toBe(1 + CHILDREN);
    const items = await allItems(gw, crawl.id);
    expect(items).toHaveLength(1 + CHILDREN);
    expect(duplicates(items.map((i) => i.url))).toEqual([]);
  });
});
