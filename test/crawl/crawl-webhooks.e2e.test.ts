import { afterAll, beforeAll, describe, expect, it } from 'vitest';
import { verifySignature } from '@trawl/webhooks';
import { allItems, sleep, startCrawl, waitForCrawl, getCrawl } from '@trawl/test-support/crawl-client.ts';
import { startCanary, type Canary } from '@trawl/test-support/canary.ts';
import { MODES, startCrawlEnv, workerLogs, type CrawlEnv } from '@trawl/test-support/crawl-modes.ts';
import { startCrawlSite, type CrawlSite } from '@trawl/test-support/crawl-site.ts';
import { startWebhookReceiver, type HookAnswer, type ReceivedHook, type WebhookReceiver } from '@trawl/test-support/webhook-receiver.ts';

/**
 * Issue 17 item 4: crawl webhooks against a local receiver that fails (5xx, 4xx), times out and answers slowly:
 * every event arrives at least once with a stable id and a valid signature, retried with backoff; the terminal event
 * comes after every page event settled; refused targets are never contacted; the counts show on the crawl; the
 * secret shows nowhere. Cluster mode: a worker killed mid-delivery loses no event.
 */
let site: CrawlSite;
let canary: Canary;
const u = (host: string, path = '/') => site.url(host, path);
const SECRET = 'whsec_0123456789abcdef';
const PAGES = 12;
const WEBHOOK_ENV = { TRAWL_WEBHOOK_TIMEOUT_MS: '400', TRAWL_WEBHOOK_BACKOFF_MS: '50', TRAWL_WEBHOOK_BACKOFF_MAX_MS: '200', TRAWL_WEBHOOK_MAX_ATTEMPTS: '6' };

beforeAll(async () => {
  [site, canary] = await Promise.all([startCrawlSite(), startCanary()]);
  for (const mode of MODES) {
    for (const name of ['hooks', 'thin', 'kill']) {
      const host = `${name}-${mode}.example.test`;
      const children = Array.from({ length: PAGES - 1 }, (_, i) => `/p${i}`);
      site.page(u(host), { links: children });
      for (const p of children) site.page(u(host, p));
    }
  }
});
afterAll(async () => {
  await site?.close();
  await canary?.close();
});

const seqOf = (h: ReceivedHook) => Number(/_p(\d+)$/.exec(h.id)?.[1] ?? -1);

describe.each(MODES)('crawl webhooks (%s)', (mode) => {
  let env: CrawlEnv;
  const receivers: WebhookReceiver[] = [];
  beforeAll(async () => {
    env = await startCrawlEnv(mode, { workers: 1, env: WEBHOOK_ENV });
  });
  afterAll(async () => {
    await env?.close();
    for (const r of receivers) await r.close();
  });
  async function receiver(answer: (h: ReceivedHook) => HookAnswer) {
    const r = await startWebhookReceiver(answer);
    receivers.push(r);
    return r;
  }
  async function untilAccepted(r: WebhookReceiver, n: number) {
    const deadline = Date.now() + 30_000;
    while (r.accepted().size < n && Date.now() < deadline) await sleep(50);
    expect(r.accepted().size, workerLogs(env)).toBe(n);
  }

  it('delivers every event at least once, signed, through failures, timeouts and slow answers; the end comes last', async () => {
    // Page events: the first attempt of every third fails with 503, of the next hangs past the timeout, of the
    // next answers slowly (under the timeout). Later attempts succeed.
    const r = await receiver((h) => {
      if (h.attempt > 1 || h.type !== 'crawl.page') return { status: 200 };
      const k = seqOf(h) % 3;
      return k === 0 ? { status: 503 } : k === 1 ? 'hang' : { status: 202, delayMs: 150 };
    });
    const created = await startCrawl(env.gw, { urls: [u(`hooks-${mode}.example.test`)], max_depth: 1, webhook: { url: r.url, secret: SECRET } });
    expect(created.request.webhook).toEqual({ url: r.url, events: ['crawl.started', 'crawl.page', 'crawl.completed', 'crawl.failed'], payload: 'full' });
    const done = await waitForCrawl(env.gw, created.id, { context: () => workerLogs(env) });
    expect(done.status).toBe('completed');
    await untilAccepted(r, PAGES + 2);

    const got = r.received();
    for (const h of got) expect(verifySignature(SECRET, h.signature, h.body, Math.floor(h.at / 1000)), h.id).toBe(true);
    expect(verifySignature('another-secret-0123', got[0].signature, got[0].body, Math.floor(got[0].at / 1000))).toBe(false);
    const items = await allItems(env.gw, created.id);
    const firstOk = new Map<string, ReceivedHook>();
    for (const h of got) if (h.status >= 200 && h.status < 300 && !firstOk.has(h.id)) firstOk.set(h.id, h);
    const pages = [...firstOk.values()].filter((h) => h.type === 'crawl.page');
    // Each page event carries its item, exactly as the API serves it, and its id is the same at every attempt.
    expect(pages.map((h) => JSON.parse(h.body).data.item.id).sort()).toEqual(items.map((i) => i.id).sort());
    for (const h of pages) {
      const body = JSON.parse(h.body);
      expect(body).toMatchObject({ id: h.id, type: 'crawl.page', crawl_id: created.id });
      expect(body.data.item).toEqual(items.find((i) => i.id === body.data.item.id));
      expect(got.filter((x) => x.id === h.id).every((x) => x.body === h.body)).toBe(true);
    }
    // Failed attempts were retried (and a timed-out one may have arrived twice: receivers dedupe by id).
    expect(got.filter((h) => h.attempt > 1).length).toBeGreaterThanOrEqual(Math.floor(PAGES / 3));
    const end = firstOk.get([...firstOk.keys()].find((id) => firstOk.get(id)!.type === 'crawl.completed')!)!;
    expect(JSON.parse(end.body).data).toMatchObject({ status: 'completed', progress: { pages_completed: PAGES } });
    expect(end.at).toBeGreaterThanOrEqual(Math.max(...pages.map((h) => h.at)));
    expect(got.filter((h) => h.type === 'crawl.started')[0].at).toBeLessThanOrEqual(end.at);

    // The crawl shows the deliveries, counted; the secret shows nowhere.
    let job = await getCrawl(env.gw, created.id);
    for (let i = 0; i < 50 && job.diagnostics.webhooks?.pending !== 0; i++) job = await getCrawl(env.gw, created.id).then(async (j) => (await sleep(50), j));
    expect(job.diagnostics.webhooks).toMatchObject({ events: PAGES + 2, delivered: PAGES + 2, failed: 0, pending: 0 });
    expect(job.diagnostics.webhooks!.failure_reasons).toMatchObject({ http_5xx: expect.any(Number), timeout: expect.any(Number) });
    expect(job.diagnostics.webhooks!.retries).toBeGreaterThanOrEqual(Math.floor(PAGES / 3));
    expect(JSON.stringify(job)).not.toContain(SECRET);
    expect(JSON.stringify(env.gw.logs)).not.toContain(SECRET);
    if (mode === 'cluster') expect(workerLogs(env)).not.toContain(SECRET);
  });

  it('thin payloads, chosen events, a permanent refusal given up at once, a refused target never contacted', async () => {
    const r = await receiver((h) => (seqOf(h) === 3 ? { status: 410 } : { status: 200 }));
    const created = await startCrawl(env.gw, {
      urls: [u(`thin-${mode}.example.test`)],
      max_depth: 1,
      webhook: { url: r.url, secret: SECRET, events: ['crawl.page'], payload: 'thin' },
    });
    await waitForCrawl(env.gw, created.id, { context: () => workerLogs(env) });
    await untilAccepted(r, PAGES - 1);
    await sleep(300);
    const got = r.received();
    expect(new Set(got.map((h) => h.type))).toEqual(new Set(['crawl.page']));
    expect(got.filter((h) => seqOf(h) === 3)).toHaveLength(1);
    const body = JSON.parse(got.find((h) => h.status === 200)!.body);
    expect(Object.keys(body.data.item).sort()).toEqual(['final_url', 'id', 'url']);
    const job = await getCrawl(env.gw, created.id);
    // (Other events may have been retried after a timeout on a loaded machine; the refused one never is.)
    expect(job.diagnostics.webhooks).toMatchObject({ events: PAGES, delivered: PAGES - 1, failed: 1, failure_reasons: { http_4xx: 1 } });

    // 127.0.0.2 is not allowed (TRAWL_ALLOW_PRIVATE is 127.0.0.1/32): judged refused, never connected to.
    const refused = await startCrawl(env.gw, {
      urls: [u(`thin-${mode}.example.test`, '/p1')],
      max_depth: 0,
      webhook: { url: `${canary.origin}/hooks`, secret: SECRET },
    });
    await waitForCrawl(env.gw, refused.id);
    let j = await getCrawl(env.gw, refused.id);
    for (let i = 0; i < 100 && (j.diagnostics.webhooks?.failed ?? 0) < 3; i++) j = await getCrawl(env.gw, refused.id).then(async (x) => (await sleep(50), x));
    expect(j.diagnostics.webhooks).toMatchObject({ events: 3, failed: 3, delivered: 0, retries: 0, failure_reasons: { blocked_target: 3 } });
    expect(canary.connections()).toBe(0);
  });

  it('refuses unknown events and weak secrets naming the path', async () => {
    const seed = u(`thin-${mode}.example.test`);
    for (const [webhook, field] of [
      [{ url: 'http://127.0.0.1:1/x', secret: SECRET, events: ['crawl.page', 'crawl.exploded'] }, 'webhook.events.1'],
      [{ url: 'http://127.0.0.1:1/x', secret: 'short' }, 'webhook.secret'],
      [{ url: 'ftp://x.test/', secret: SECRET }, 'webhook.url'],
      [{ url: 'http://127.0.0.1:1/x', secret: SECRET, events: [] }, 'webhook.events'],
      [{ url: 'http://127.0.0.1:1/x', secret: SECRET, payload: 'fat' }, 'webhook.payload'],
    ] as const) {
      const res = await env.gw.call('POST', '/v1/crawl', { urls: [seed], webhook });
      expect(res.status, field).toBe(400);
      expect(((await res.json()) as { error: { code: string; details: unknown } }).error, field).toMatchObject({ code: 'validation_error', details: { field } });
    }
    const res = await env.gw.call('POST', '/v1/crawl', { urls: [seed], webhook: { url: 'http://127.0.0.1:1/x', secret: SECRET, retries: 3 } });
    expect(((await res.json()) as { error: { code: string } }).error.code).toBe('unsupported_feature');
  });

  it.runIf(mode === 'cluster')('a worker killed while delivering loses no event: another delivers it, same id', async () => {
    let hanging = true;
    const r = await receiver(() => (hanging ? 'hang' : { status: 200 }));
    const created = await startCrawl(env.gw, { urls: [u(`kill-${mode}.example.test`)], max_depth: 1, webhook: { url: r.url, secret: SECRET, events: ['crawl.page'] } });
    await waitForCrawl(env.gw, created.id, { context: () => workerLogs(env) });
    const deadline = Date.now() + 10_000;
    while (r.received().length === 0 && Date.now() < deadline) await sleep(20);
    expect(r.received().length).toBeGreaterThan(0);
    await env.workers[0].kill9();
    hanging = false;
    await env.addWorkers(1);
    await untilAccepted(r, PAGES);
    const ids = new Set(r.received().map((h) => h.id));
    expect(ids.size).toBe(PAGES);
  });
});
