import { afterAll, beforeAll, describe, expect, it } from 'vitest';
import { createTrawlClient } from '@trawl/client';
import { PublicErrorResponse, WebhookDeliveriesPage, type WebhookDelivery } from '@trawl/contract';
import { allItems, sleep, startCrawl, waitForCrawl, withKey, type Caller } from '@trawl/test-support/crawl-client.ts';
import { startCrawlEnv, workerLogs, type CrawlEnv, type Mode } from '@trawl/test-support/crawl-modes.ts';
import { startCrawlSite, type CrawlSite } from '@trawl/test-support/crawl-site.ts';
import { TEST_KEY } from '@trawl/test-support/gateway.ts';
import { startWebhookReceiver, type ReceivedHook, type WebhookReceiver } from '@trawl/test-support/webhook-receiver.ts';

/**
 * Issue 17 item 4: every delivery and its outcome visible on the crawl (GET /v1/crawl/{id}/webhooks), against a
 * real receiver: an event seen pending after a 503 with its next attempt due, then delivered on attempt 2; one
 * refused for good (410) and one that spent its attempts (500, 500) both failed with their reasons; paged with an
 * opaque cursor; the crawl's team only; never the URL, the secret, a signature, a header or a body. On each outbox
 * backend: the embedded data directory (disk), the in-memory store, and Redis in cluster mode (read from another
 * gateway too).
 */
let site: CrawlSite;
const SECRET = 'whsec_deliveries_0123456789';
const PAGES = 5;
/** Two attempts at most; a retry waits 1.5 to 3 s, long enough to read the pending state in between. */
const WEBHOOK_ENV = { TRAWL_WEBHOOK_TIMEOUT_MS: '2000', TRAWL_WEBHOOK_BACKOFF_MS: '3000', TRAWL_WEBHOOK_BACKOFF_MAX_MS: '3000', TRAWL_WEBHOOK_MAX_ATTEMPTS: '2' };
const BACKENDS: [string, Mode, Record<string, string>][] = [
  ['disk', 'embedded', {}],
  ['memory', 'embedded', { TRAWL_DATA_DIR: ':memory:' }],
  ['redis', 'cluster', {}],
];

beforeAll(async () => {
  site = await startCrawlSite();
  for (const [name] of BACKENDS) {
    const host = `deliveries-${name}.example.test`;
    const children = Array.from({ length: PAGES - 1 }, (_, i) => `/p${i}`);
    site.page(site.url(host, '/'), { links: children });
    for (const p of children) site.page(site.url(host, p));
    site.page(site.url(`plain-${name}.example.test`, '/'));
  }
});
afterAll(async () => {
  await site?.close();
});

const seqOf = (id: string) => Number(/_p(\d+)$/.exec(id)?.[1] ?? -1);

async function deliveriesPage(gw: Caller, crawlId: string, query = '') {
  const res = await gw.call('GET', `/v1/crawl/${crawlId}/webhooks${query}`);
  const text = await res.text();
  if (res.status !== 200) throw new Error(`GET …/webhooks${query} answered ${res.status}: ${text}`);
  return { text, page: WebhookDeliveriesPage.parse(JSON.parse(text)) };
}

/** Every entry, following next_cursor `limit` at a time; the number of requests it took. */
async function allDeliveries(gw: Caller, crawlId: string, limit: number) {
  const out: WebhookDelivery[] = [];
  let cursor: string | null = null;
  for (let requests = 1; requests < 1_000; requests++) {
    const { page } = await deliveriesPage(gw, crawlId, `?limit=${limit}${cursor ? `&cursor=${cursor}` : ''}`);
    out.push(...page.deliveries);
    if (page.next_cursor === null) return { deliveries: out, requests };
    cursor = page.next_cursor;
  }
  throw new Error('deliveries cursor never ended');
}

describe.each(BACKENDS)('crawl webhook deliveries (%s)', (name, mode, env) => {
  let crawlEnv: CrawlEnv;
  let receiver: WebhookReceiver;
  beforeAll(async () => {
    crawlEnv = await startCrawlEnv(mode, { workers: 1, env: { ...WEBHOOK_ENV, ...env } });
    // Page 0: 503 first, then 200. Page 1: 410, refused for good. Page 2: 500 at both attempts. The rest: 200.
    receiver = await startWebhookReceiver((h: ReceivedHook) => {
      const seq = h.type === 'crawl.page' ? seqOf(h.id) : -1;
      if (seq === 0) return { status: h.attempt === 1 ? 503 : 200 };
      if (seq === 1) return { status: 410 };
      if (seq === 2) return { status: 500 };
      return { status: 200 };
    });
  });
  afterAll(async () => {
    await crawlEnv?.close();
    await receiver?.close();
  });

  it('shows every event and its outcome: pending after a 503 with its retry due, then delivered on attempt 2; refused and exhausted ones failed', async () => {
    const gw = crawlEnv.gw;
    const created = await startCrawl(gw, { urls: [site.url(`deliveries-${name}.example.test`, '/')], max_depth: 1, webhook: { url: receiver.url, secret: SECRET } });

    // The first attempt of page 0 answered 503: the entry is pending, its outcome recorded, its retry due later.
    const deadline = Date.now() + 30_000;
    let pending: WebhookDelivery | undefined;
    while (!pending && Date.now() < deadline) {
      const { page } = await deliveriesPage(gw, created.id, '?limit=100');
      pending = page.deliveries.find((d) => d.event === 'crawl.page' && seqOf(d.id) === 0 && d.last_outcome !== null);
      if (!pending) await sleep(20);
    }
    expect(pending, workerLogs(crawlEnv)).toBeDefined();
    expect(pending).toMatchObject({ status: 'pending', attempts: 1, last_outcome: { reason: 'http_5xx', http_status: 503 } });
    expect(Date.parse(pending!.next_attempt_at!)).toBeGreaterThan(Date.parse(pending!.last_attempt_at!));

    await waitForCrawl(gw, created.id, { context: () => workerLogs(crawlEnv) });
    // Every event settled: the end event comes once every page event is delivered or given up.
    let all: WebhookDelivery[] = [];
    for (let i = 0; i < 400; i++) {
      all = (await deliveriesPage(gw, created.id, '?limit=100')).page.deliveries;
      if (all.length === PAGES + 2 && all.every((d) => d.status !== 'pending')) break;
      await sleep(50);
    }
    expect(all.map((d) => d.event)).toEqual(['crawl.started', ...Array<string>(PAGES).fill('crawl.page'), 'crawl.completed']);
    const bySeq = new Map(all.filter((d) => d.event === 'crawl.page').map((d) => [seqOf(d.id), d]));
    expect(bySeq.get(0)).toMatchObject({ id: pending!.id, status: 'delivered', attempts: 2, next_attempt_at: null, last_outcome: { reason: 'none', http_status: 200 } });
    expect(Date.parse(bySeq.get(0)!.last_attempt_at!)).toBeGreaterThanOrEqual(Date.parse(pending!.next_attempt_at!) - 5);
    expect(bySeq.get(1)).toMatchObject({ status: 'failed', attempts: 1, next_attempt_at: null, last_outcome: { reason: 'http_4xx', http_status: 410 } });
    expect(bySeq.get(2)).toMatchObject({ status: 'failed', attempts: 2, next_attempt_at: null, last_outcome: { reason: 'http_5xx', http_status: 500 } });
    for (const seq of [3, 4]) expect(bySeq.get(seq)).toMatchObject({ status: 'delivered', attempts: 1, last_outcome: { reason: 'none', http_status: 200 } });
    for (const d of all) {
      expect(Number.isInteger(d.last_outcome!.duration_ms) && d.last_outcome!.duration_ms >= 0, d.id).toBe(true);
      expect(Date.parse(d.last_attempt_at!)).toBeGreaterThanOrEqual(Date.parse(d.created_at));
    }
    // Entries agree with what the receiver saw (ids, attempts) and with the crawl's counters and items.
    for (const d of all) expect(receiver.received().filter((h) => h.id === d.id).length, d.id).toBe(d.attempts);
    const items = await allItems(gw, created.id);
    for (const [seq, d] of bySeq) expect(d.item_id).toBe(items[seq].id);
    expect(all.filter((d) => d.event !== 'crawl.page').every((d) => d.item_id === null)).toBe(true);
    const job = (await gw.call('GET', `/v1/crawl/${created.id}`).then((r) => r.json())) as { crawl: { diagnostics: { webhooks: Record<string, unknown> } } };
    expect(job.crawl.diagnostics.webhooks).toMatchObject({ events: PAGES + 2, delivered: PAGES, failed: 2, pending: 0, failure_reasons: { http_5xx: 3, http_4xx: 1 } });

    // Paged: two at a time gives the same entries, in the same order, and ends (the crawl and its events ended).
    const paged = await allDeliveries(gw, created.id, 2);
    expect(paged.deliveries).toEqual(all);
    expect(paged.requests).toBe(Math.ceil((PAGES + 2) / 2));
    const first = (await deliveriesPage(gw, created.id, '?limit=3')).page;
    expect(first.deliveries.map((d) => d.id)).toEqual(all.slice(0, 3).map((d) => d.id));
    const rest = (await deliveriesPage(gw, created.id, `?cursor=${first.next_cursor}`)).page;
    expect(rest).toEqual({ deliveries: all.slice(3), next_cursor: null });
    // The client reads the same pages.
    const client = createTrawlClient({ baseUrl: gw.url, apiKey: TEST_KEY });
    expect(await client.crawlWebhookDeliveries(created.id, { cursor: first.next_cursor! })).toEqual(rest);

    // Nothing secret: not the URL, the secret, a signature, a header or a body; exactly the documented fields.
    const { text } = await deliveriesPage(gw, created.id, '?limit=100');
    for (const secret of [SECRET, receiver.url, new URL(receiver.url).host, 'v1=', 'signature', 'trawl-', 'content-type', '"data"']) {
      expect(text.toLowerCase(), secret).not.toContain(secret.toLowerCase());
    }
    for (const d of all) {
      expect(Object.keys(d).sort()).toEqual(['attempts', 'created_at', 'event', 'id', 'item_id', 'last_attempt_at', 'last_outcome', 'next_attempt_at', 'status']);
      expect(Object.keys(d.last_outcome!).sort()).toEqual(['duration_ms', 'http_status', 'reason']);
    }

    // Cluster mode: any gateway reads the same entries from Redis.
    if (mode === 'cluster') {
      const other = await crawlEnv.extraGateway({});
      expect((await deliveriesPage(other, created.id, '?limit=100')).page.deliveries).toEqual(all);
    }
  });

  it('a crawl without a webhook has none; cursors of other lists are refused; another team and a missing crawl get 404; other methods 405', async () => {
    const gw = crawlEnv.gw;
    const plain = await startCrawl(gw, { urls: [site.url(`plain-${name}.example.test`, '/')], max_depth: 0 });
    expect((await deliveriesPage(gw, plain.id)).page).toEqual({ deliveries: [], next_cursor: null });
    await waitForCrawl(gw, plain.id);
    expect((await deliveriesPage(gw, plain.id)).page).toEqual({ deliveries: [], next_cursor: null });

    const itemsCursor = ((await gw.call('GET', `/v1/crawl/${plain.id}/items?limit=1`).then((r) => r.json())) as { next_cursor: string }).next_cursor;
    for (const cursor of [itemsCursor, 'nope', 'dzE6']) {
      const res = await gw.call('GET', `/v1/crawl/${plain.id}/webhooks?cursor=${cursor}`);
      expect(res.status, cursor).toBe(400);
      expect(PublicErrorResponse.parse(await res.json()).error).toMatchObject({ code: 'validation_error', details: { field: 'cursor' } });
    }
    for (const q of ['?limit=0', '?limit=101', '?unknown=1']) expect((await gw.call('GET', `/v1/crawl/${plain.id}/webhooks${q}`)).status, q).toBe(400);

    const team = await gw.ctx.store.createTeam(`deliveries-stranger-${name}`);
    const { secret } = await gw.ctx.store.createApiKey(team.id, { label: 'x', scopes: ['crawl', 'runs'] });
    const stranger = withKey(gw, secret);
    for (const [caller, id] of [
      [stranger, plain.id],
      [gw, 'crawl_nobody'],
    ] as const) {
      const res = await caller.call('GET', `/v1/crawl/${id}/webhooks`);
      expect(res.status, id).toBe(404);
      expect(PublicErrorResponse.parse(await res.json()).error.code).toBe('crawl_not_found');
    }
    expect((await gw.call('GET', `/v1/crawl/${plain.id}/webhooks`, undefined, { authorization: '' })).status).toBe(401);

    const res = await gw.call('POST', `/v1/crawl/${plain.id}/webhooks`, {});
    expect(res.status).toBe(405);
    expect(res.headers.get('allow')).toBe('GET, HEAD');
    expect(PublicErrorResponse.parse(await res.json()).error.code).toBe('method_not_allowed');
  });
});
