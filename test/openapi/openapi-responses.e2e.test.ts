import { afterAll, beforeAll, describe, expect, it } from 'vitest';
import { startDemoSite, type DemoSite } from '../../apps/demo-site/src/demo-site.ts';
import { startTrendsSimulator, type TrendsSimulator } from '../../apps/trends-simulator/src/simulator.ts';
import { adminCall, newTeam, TEST_ADMIN_TOKEN } from '@trawl/test-support/admin-client.ts';
import { startTestGateway, type TestGateway } from '@trawl/test-support/gateway.ts';
import { answerOf, OpenApiCheck } from '@trawl/test-support/openapi-check.ts';
import { PIZZA_GRAIN, waitForTrendsJob } from '@trawl/test-support/trends-client.ts';
import { startWebhookReceiver, type WebhookReceiver } from '@trawl/test-support/webhook-receiver.ts';

/**
 * Real answers of every public route, successes and errors, held to the public OpenAPI document (not to the zod
 * schemas the gateway checks itself with): each status documented, each content type listed, each body valid
 * against the document's schema, each header documented and each required one sent. A generated client trusts
 * exactly these. Browser scrape renders once in Chromium for the screenshot and HAR downloads.
 */
type Json = Record<string, any>;
let site: DemoSite;
let sim: TrendsSimulator;
let gw: TestGateway;
let check: OpenApiCheck;
let hooks: WebhookReceiver;
const problems: string[] = [];
const seen = new Set<string>();

beforeAll(async () => {
  site = await startDemoSite({ port: 0 });
  // A webhook receiver that refuses each event's first attempt (503), so the deliveries show an outcome of each kind.
  hooks = await startWebhookReceiver((h) => ({ status: h.attempt === 1 ? 503 : 204 }));
  sim = await startTrendsSimulator();
  gw = await startTestGateway({
    LOG_LEVEL: 'warn',
    TRAWL_ADMIN_TOKEN: TEST_ADMIN_TOKEN,
    TRAWL_TRENDS_BASE_URL: sim.url,
    TRAWL_TRENDS_RPM: '6000',
    TRAWL_TRENDS_BACKOFF_MS: '50',
    TRAWL_TRENDS_TIMEOUT_MS: '5000',
  });
  check = new OpenApiCheck((await (await fetch(`${gw.url}/api-docs/public-v1/openapi`)).json()) as Json);
});
afterAll(async () => {
  await gw?.close();
  await sim?.close();
  await site?.close();
  await hooks?.close();
});

/** Calls a route (by its document path template and the concrete path), checks the answer, returns its body. */
async function call(
  method: string,
  template: string,
  path: string,
  opts: { body?: unknown; headers?: Record<string, string>; as?: (m: string, p: string, b?: unknown, h?: Record<string, string>) => Promise<Response> } = {},
): Promise<{ status: number; headers: Headers; json: () => Json; bytes: Buffer }> {
  const res = await (opts.as ?? gw.call)(method, path, opts.body, opts.headers);
  const answer = await answerOf(method, template, res);
  problems.push(...check.answerProblems(answer));
  seen.add(`${method} ${template} ${answer.status}`);
  return { status: answer.status, headers: answer.headers, json: () => JSON.parse(answer.body.toString('utf8')) as Json, bytes: answer.body };
}

const bare = (m: string, p: string, b?: unknown, h: Record<string, string> = {}) => gw.call(m, p, b, { authorization: '', ...h });

describe('real answers against the public OpenAPI document', () => {
  it('Fetch and its runs and artifacts: delivered, replayed, refused and failed pages, auth and validation errors', async () => {
    const page = `${site.url}/journal/spring-count.html`;
    const fetched = await call('POST', '/v1/fetch', '/v1/fetch', { body: { url: page }, headers: { 'idempotency-key': 'openapi-responses-1' } });
    expect(fetched.status).toBe(200);
    const replay = await call('POST', '/v1/fetch', '/v1/fetch', { body: { url: page }, headers: { 'idempotency-key': 'openapi-responses-1' } });
    expect(replay.headers.get('idempotent-replayed')).toBe('true');
    expect((await call('POST', '/v1/fetch', '/v1/fetch', { body: { url: site.url }, headers: { 'idempotency-key': 'openapi-responses-1' } })).status).toBe(409);
    expect((await call('POST', '/v1/fetch', '/v1/fetch', { body: { url: `${site.url}/missing.html` } })).status).toBe(502);
    // Refused by the SSRF guard before any connection: 127.0.0.2 is outside TRAWL_ALLOW_PRIVATE.
    expect((await call('POST', '/v1/fetch', '/v1/fetch', { body: { url: 'http://127.0.0.2:9/' } })).status).toBe(403);
    expect((await call('POST', '/v1/fetch', '/v1/fetch', { body: { url: 'ftp://example.com/' } })).status).toBe(400);
    expect((await call('POST', '/v1/fetch', '/v1/fetch', { body: { url: page, wait: 1 } })).status).toBe(400);
    expect((await call('POST', '/v1/fetch', '/v1/fetch', { body: { url: page }, as: bare })).status).toBe(401);

    const run = fetched.json().run.id as string;
    expect((await call('GET', '/v1/runs/{run_id}', `/v1/runs/${run}`)).status).toBe(200);
    expect((await call('GET', '/v1/runs/{run_id}', '/v1/runs/run_nobody')).status).toBe(404);
    for (const a of fetched.json().result.artifacts as { url: string }[]) {
      expect((await call('GET', '/v1/runs/{run_id}/artifacts/{key}', a.url)).status).toBe(200);
    }
    expect((await call('GET', '/v1/runs/{run_id}/artifacts/{key}', `/v1/runs/${run}/artifacts/screenshot`)).status).toBe(404);
  });

  it('Browser scrape with a screenshot and a HAR, and their downloads', async () => {
    const r = await call('POST', '/v1/browser-scrape', '/v1/browser-scrape', {
      body: { url: `${site.url}/species/`, browser: { wait_for_selector: '.species-card' }, screenshot: true, record: true },
    });
    expect(r.status).toBe(200);
    const artifacts = r.json().result.artifacts as { key: string; url: string }[];
    expect(artifacts.map((a) => a.key).sort()).toEqual(['har', 'html', 'markdown', 'screenshot']);
    for (const a of artifacts) {
      const download = await call('GET', '/v1/runs/{run_id}/artifacts/{key}', a.url);
      expect(download.status, a.key).toBe(200);
      if (a.key === 'screenshot') expect(download.bytes.subarray(1, 4).toString('latin1')).toBe('PNG');
    }
    expect((await call('POST', '/v1/browser-scrape', '/v1/browser-scrape', { body: { url: site.url, screenshot: 'yes' } })).status).toBe(400);
  });

  it('a crawl: created, paused, resumed, followed, its items and their artifacts, its webhook deliveries', async () => {
    const webhook = { url: hooks.url, secret: 'whsec_openapi-responses-0123', events: ['crawl.page', 'crawl.completed'], payload: 'thin' };
    const created = await call('POST', '/v1/crawl', '/v1/crawl', { body: { urls: [`${site.url}/`], max_pages: 20, webhook } });
    expect(created.status).toBe(202);
    const id = created.json().crawl.id as string;
    // Paused while still queued or running (the demo site takes a second or two); a second pause is refused.
    const paused = await call('POST', '/v1/crawl/{crawl_id}/pause', `/v1/crawl/${id}/pause`);
    if (paused.status === 200) {
      expect((await call('POST', '/v1/crawl/{crawl_id}/pause', `/v1/crawl/${id}/pause`)).status).toBe(400);
      expect((await call('POST', '/v1/crawl/{crawl_id}/resume', `/v1/crawl/${id}/resume`)).status).toBe(200);
    }
    let status = '';
    for (let i = 0; i < 300 && !['completed', 'failed'].includes(status); i++) {
      status = (await call('GET', '/v1/crawl/{crawl_id}', `/v1/crawl/${id}`)).json().crawl.status;
      if (status !== 'completed') await new Promise((r) => setTimeout(r, 100));
    }
    expect(status).toBe('completed');
    // Its export and its event stream (an ended crawl: status, progress, end, then the stream closes).
    const lines = (await call('GET', '/v1/crawl/{crawl_id}/items.jsonl', `/v1/crawl/${id}/items.jsonl`)).bytes.toString('utf8').trim().split('\n');
    expect(lines.length).toBeGreaterThanOrEqual(3);
    expect((await call('GET', '/v1/crawl/{crawl_id}/events', `/v1/crawl/${id}/events`)).bytes.toString('utf8')).toContain('event: end');
    expect((await call('DELETE', '/v1/crawl/{crawl_id}', `/v1/crawl/${id}`)).status).toBe(400);
    const other = (await call('POST', '/v1/crawl', '/v1/crawl', { body: { urls: [`${site.url}/`], max_pages: 20 } })).json().crawl.id as string;
    expect((await call('DELETE', '/v1/crawl/{crawl_id}', `/v1/crawl/${other}`)).status).toBe(200);
    const items = await call('GET', '/v1/crawl/{crawl_id}/items', `/v1/crawl/${id}/items?limit=3`);
    expect(items.json().items).toHaveLength(3);
    for (const a of items.json().items[0].artifacts as { url: string }[]) {
      expect((await call('GET', '/v1/runs/{run_id}/artifacts/{key}', a.url)).status).toBe(200);
    }
    expect((await call('GET', '/v1/crawl/{crawl_id}/items', `/v1/crawl/${id}/items?cursor=nope`)).status).toBe(400);
    // Its webhook deliveries, once one was delivered on its second attempt; a crawl without a webhook has none.
    const deliveries = () => call('GET', '/v1/crawl/{crawl_id}/webhooks', `/v1/crawl/${id}/webhooks?limit=100`);
    const retried = (d: Json) => d.status === 'delivered' && d.attempts === 2 && d.last_outcome.http_status === 204;
    let hooked = (await deliveries()).json();
    for (let i = 0; i < 100 && !(hooked.deliveries as Json[]).some(retried); i++) {
      await new Promise((r) => setTimeout(r, 100));
      hooked = (await deliveries()).json();
    }
    expect((hooked.deliveries as Json[]).some(retried)).toBe(true);
    const paged = await call('GET', '/v1/crawl/{crawl_id}/webhooks', `/v1/crawl/${id}/webhooks?limit=1`);
    expect((await call('GET', '/v1/crawl/{crawl_id}/webhooks', `/v1/crawl/${id}/webhooks?cursor=${paged.json().next_cursor}`)).status).toBe(200);
    expect((await call('GET', '/v1/crawl/{crawl_id}/webhooks', `/v1/crawl/${other}/webhooks`)).json()).toEqual({ deliveries: [], next_cursor: null });
    expect((await call('GET', '/v1/crawl/{crawl_id}/webhooks', `/v1/crawl/${id}/webhooks?cursor=nope`)).status).toBe(400);
    expect((await call('GET', '/v1/crawl/{crawl_id}/webhooks', '/v1/crawl/crawl_nobody/webhooks')).status).toBe(404);
    expect((await call('GET', '/v1/crawl/{crawl_id}', '/v1/crawl/crawl_nobody')).status).toBe(404);
    expect((await call('POST', '/v1/crawl', '/v1/crawl', { body: { urls: [] } })).status).toBe(400);
  });

  it('a search-trends job, completed from the simulator', async () => {
    const created = await call('POST', '/v1/search-trends/related-queries', '/v1/search-trends/related-queries', { body: PIZZA_GRAIN });
    expect(created.status).toBe(202);
    const job = await waitForTrendsJob(gw, created.json().job.id);
    expect(job.state).toBe('completed');
    expect((await call('GET', '/v1/search-trends/jobs/{job_id}', `/v1/search-trends/jobs/${job.id}`)).status).toBe(200);
    expect((await call('GET', '/v1/search-trends/jobs/{job_id}', '/v1/search-trends/jobs/job_nobody')).status).toBe(404);
    expect((await call('POST', '/v1/search-trends/related-queries', '/v1/search-trends/related-queries', { body: { ...PIZZA_GRAIN, category: 1 } })).status).toBe(400);
  });

  it('a key without the scope (403) and a team over its rate limit (429, with Retry-After)', async () => {
    const team = await newTeam(gw, 'openapi-limited');
    const narrow = (await adminCall(gw, 'keys.create', { team_id: team.id, label: 'runs only', scopes: ['runs'] })).body.result.data.secret as string;
    const asNarrow = (m: string, p: string, b?: unknown, h: Record<string, string> = {}) => gw.call(m, p, b, { authorization: `Bearer ${narrow}`, ...h });
    expect((await call('POST', '/v1/crawl', '/v1/crawl', { body: { urls: [site.url] }, as: asNarrow })).status).toBe(403);
    await adminCall(gw, 'limits.set', { team_id: team.id, route_class: 'reads', per_minute: 1 });
    expect((await call('GET', '/v1/runs/{run_id}', '/v1/runs/run_nobody', { as: team.call })).status).toBe(404);
    const limited = await call('GET', '/v1/runs/{run_id}', '/v1/runs/run_nobody', { as: team.call });
    expect(limited.status).toBe(429);
    expect(Number(limited.headers.get('retry-after'))).toBeGreaterThanOrEqual(1);
  });

  it('found nothing the document gets wrong, and exercised every operation’s success', () => {
    expect(problems).toEqual([]);
    for (const [path, item] of Object.entries(check.doc.paths as Record<string, Json>)) {
      for (const [method, op] of Object.entries(item)) {
        const success = Object.keys((op as Json).responses).find((s) => s.startsWith('2'));
        expect(seen.has(`${method.toUpperCase()} ${path} ${success}`), `${method} ${path} ${success}`).toBe(true);
      }
    }
  });
});
