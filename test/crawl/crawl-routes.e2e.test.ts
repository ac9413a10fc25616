import { afterAll, beforeAll, describe, expect, it } from 'vitest';
import { CrawlCreateResponse, PublicErrorResponse, RunResponse } from '@trawl/contract';
import { allItems, getCrawl, sleep, startCrawl, waitForCrawl, withKey, type Caller } from '@trawl/test-support/crawl-client.ts';
import { MODES, startCrawlEnv, workerLogs, type CrawlEnv } from '@trawl/test-support/crawl-modes.ts';
import { startCrawlSite, type CrawlSite } from '@trawl/test-support/crawl-site.ts';

/**
 * Issue 3 points 1, 2 and 5 through the routes: 202 and Idempotency-Key on POST /v1/crawl, validation that names
 * the field and seed, foreign crawls look missing, pause/resume, and billing (shadow records delivered pages,
 * enforce ends the crawl budget_exhausted when credit runs out).
 */
let site: CrawlSite;
let u: (host: string, path?: string) => string;

/** A root linking to n slow pages on `host`. */
function slowWeb(host: string, n: number, latencyMs: number) {
  const children = Array.from({ length: n - 1 }, (_, i) => `/p${i + 1}`);
  site.page(u(host), { links: children });
  for (const p of children) site.page(u(host, p), { latencyMs });
}

beforeAll(async () => {
  site = await startCrawlSite();
  u = (host, path = '/') => site.url(host, path);
  // Each mode crawls its own hostnames: request-log assertions and once-only answers stay per mode.
  for (const mode of MODES) {
    for (const host of ['idem', 'one']) site.page(u(`${host}-${mode}.example.test`));
    slowWeb(`budget-${mode}.example.test`, 30, 50);
    slowWeb(`pause-${mode}.example.test`, 24, 250);
    slowWeb(`ledger-${mode}.example.test`, 6, 0);
  }
});
afterAll(async () => {
  await site?.close();
});

async function errorOf(res: Response) {
  return PublicErrorResponse.parse(await res.json()).error;
}

/** A fresh team with `credits` and a key for crawls and runs. */
async function newTeam(env: CrawlEnv, gwStore: CrawlEnv['gw']['ctx']['store'], name: string, credits: number) {
  const team = await gwStore.createTeam(`${name}-${env.mode}`);
  if (credits > 0) await gwStore.grantCredits(team.id, credits);
  const { secret } = await gwStore.createApiKey(team.id, { label: name, scopes: ['crawl', 'runs'] });
  return { id: team.id, caller: (gw: Caller) => withKey(gw, secret) };
}

describe.each(MODES)('crawl routes (%s)', (mode) => {
  let env: CrawlEnv;
  const h = (name: string) => `${name}-${mode}.example.test`;
  beforeAll(async () => {
    env = await startCrawlEnv(mode, { workers: 1 });
  });
  afterAll(async () => {
    await env?.close();
  });

  it('POST /v1/crawl answers 202 and replays it for the same Idempotency-Key; another body conflicts', async () => {
    const body = { urls: [u(h('idem'))], max_depth: 0 };
    const first = await env.gw.call('POST', '/v1/crawl', body, { 'idempotency-key': 'crawl-once' });
    expect(first.status).toBe(202);
    const a = CrawlCreateResponse.parse(await first.json());
    expect(a.crawl.id).toMatch(/^crawl_/);
    expect(a.run).toMatchObject({ id: a.crawl.run_id, type: 'crawl' });
    const second = await env.gw.call('POST', '/v1/crawl', body, { 'idempotency-key': 'crawl-once' });
    expect(second.status).toBe(202);
    expect(second.headers.get('idempotent-replayed')).toBe('true');
    expect(CrawlCreateResponse.parse(await second.json()).crawl.id).toBe(a.crawl.id);
    const conflict = await env.gw.call('POST', '/v1/crawl', { ...body, max_depth: 1 }, { 'idempotency-key': 'crawl-once' });
    expect(conflict.status).toBe(409);
    expect((await errorOf(conflict)).code).toBe('idempotency_conflict');

    await waitForCrawl(env.gw, a.crawl.id);
    // One crawl ran: the seed was fetched once.
    expect(site.requests({ host: h('idem') })).toHaveLength(1);
    // The crawl's run follows the crawl.
    const run = RunResponse.parse(await (await env.gw.call('GET', `/v1/runs/${a.crawl.run_id}`)).json()).run;
    expect(run).toMatchObject({ id: a.crawl.run_id, type: 'crawl', status: 'completed' });
  });

  it('names the offending field and seed index, before anything is created', async () => {
    const ok = u(h('one'));
    const cases: [string, unknown, string, string][] = [
      ['not http', { urls: [ok, u(h('one'), '/2'), 'ftp://one.example.test/x'] }, 'validation_error', 'urls.2'],
      ['relative', { urls: ['/relative'] }, 'validation_error', 'urls.0'],
      ['userinfo', { urls: [ok, `http://user:pw@${h('one')}:${site.ports[0]}/`] }, 'validation_error', 'urls.1'],
      ['duplicate after normalization', { urls: [ok, `HTTP://${h('one').toUpperCase()}.:${site.ports[0]}/#top`] }, 'validation_error', 'urls.1'],
      ['no seeds', { urls: [] }, 'validation_error', 'urls'],
      ['101 seeds', { urls: Array.from({ length: 101 }, (_, i) => u(h('one'), `/s${i}`)) }, 'validation_error', 'urls'],
      ['max_depth 11', { urls: [ok], max_depth: 11 }, 'validation_error', 'max_depth'],
      ['max_depth -1', { urls: [ok], max_depth: -1 }, 'validation_error', 'max_depth'],
      ['max_depth 1.5', { urls: [ok], max_depth: 1.5 }, 'validation_error', 'max_depth'],
      ['max_pages 0', { urls: [ok], max_pages: 0 }, 'validation_error', 'max_pages'],
      ['max_pages 10001', { urls: [ok], max_pages: 10_001 }, 'validation_error', 'max_pages'],
      ['max_pages below the seeds', { urls: [ok, u(h('one'), '/2')], max_pages: 1 }, 'validation_error', 'max_pages'],
      ['unknown scope', { urls: [ok], scope: 'same_planet' }, 'validation_error', 'scope'],
      [
        'extraction CSS that does not parse',
        { urls: [ok], extraction: { type: 'json_css', schema: { name: 'x', base_selector: 'a', fields: [{ name: 'h', selector: 'a[', type: 'text' }] } } },
        'validation_error',
        'extraction.schema.fields.0.selector',
      ],
    ];
    for (const [name, body, code, field] of cases) {
      const res = await env.gw.call('POST', '/v1/crawl', body);
      expect(res.status, name).toBe(400);
      const e = await errorOf(res);
      expect(e.code, name).toBe(code);
      expect(e.details, name).toMatchObject({ field });
      expect(e.message, name).toContain(field);
    }
    const unsupported: [unknown, string][] = [
      [{ urls: [ok], follow_sitemaps: true }, 'follow_sitemaps'],
      [{ urls: [ok], browser: { wait_for_selector: 'main', colour: 'blue' } }, 'browser.colour'],
      [{ urls: [ok], extraction: { type: 'json_css', schema: { name: 'x', base_selector: 'a', fields: [{ name: 'h', selector: 'a', type: 'text', pattern: 'x+' }] } } }, 'extraction.schema.fields.0.pattern'],
    ];
    for (const [body, field] of unsupported) {
      const res = await env.gw.call('POST', '/v1/crawl', body);
      expect(res.status, field).toBe(400);
      const e = await errorOf(res);
      expect(e.code, field).toBe('unsupported_feature');
      expect(e.details, field).toMatchObject({ fields: [field] });
      expect(e.message, field).toContain(field);
    }
    // None of it reached the site.
    expect(site.requests({ host: h('one') })).toHaveLength(0);
  });

  it('another team’s crawl is missing to this team: status, items, pause, resume, run', async () => {
    const created = await startCrawl(env.gw, { urls: [u(h('one'))], max_depth: 0 });
    await waitForCrawl(env.gw, created.id);
    const stranger = (await newTeam(env, env.gw.ctx.store, 'routes-stranger', 10)).caller(env.gw);
    for (const [method, path, code] of [
      ['GET', `/v1/crawl/${created.id}`, 'crawl_not_found'],
      ['GET', `/v1/crawl/${created.id}/items`, 'crawl_not_found'],
      ['POST', `/v1/crawl/${created.id}/pause`, 'crawl_not_found'],
      ['POST', `/v1/crawl/${created.id}/resume`, 'crawl_not_found'],
      ['GET', `/v1/runs/${created.run_id}`, 'run_not_found'],
      ['GET', `/v1/crawl/crawl_doesnotexist`, 'crawl_not_found'],
    ] as const) {
      const res = await stranger.call(method, path);
      expect(res.status, path).toBe(404);
      expect((await errorOf(res)).code, path).toBe(code);
    }
  });

  it('pause stops the crawl asking for pages; resume finishes it', async () => {
    const created = await startCrawl(env.gw, { urls: [u(h('pause'))], max_depth: 1 });
    await waitForCrawl(env.gw, created.id, { until: (j) => j.progress.pages_completed >= 2, intervalMs: 20 });
    const paused = await env.gw.call('POST', `/v1/crawl/${created.id}/pause`);
    const mark = site.mark();
    expect(paused.status).toBe(200);
    const atPause = (await paused.json() as { crawl: { status: string; progress: { pages_in_flight: number } } }).crawl;
    expect(atPause.status).toBe('paused');
    // Pages leased before the pause may still run; nothing else may.
    const settled = await waitForCrawl(env.gw, created.id, { until: (j) => j.progress.pages_in_flight === 0 });
    expect(settled.status).toBe('paused');
    expect(site.requests({ since: mark }).length).toBeLessThanOrEqual(atPause.progress.pages_in_flight);
    const quiet = site.mark();
    await sleep(1000);
    expect(site.requests({ since: quiet })).toEqual([]);
    const still = await getCrawl(env.gw, created.id);
    expect(still.status).toBe('paused');
    expect(still.progress.pages_completed).toBe(settled.progress.pages_completed);
    expect(still.progress.pages_completed).toBeLessThan(24);

    const again = await env.gw.call('POST', `/v1/crawl/${created.id}/resume`);
    expect(again.status).toBe(200);
    expect((await again.json() as { crawl: { status: string } }).crawl.status).toBe('running');
    const wrong = await env.gw.call('POST', `/v1/crawl/${created.id}/resume`);
    expect(wrong.status).toBe(400);
    expect((await errorOf(wrong)).code).toBe('invalid_request');

    const done = await waitForCrawl(env.gw, created.id, { context: () => workerLogs(env) });
    expect(done.status).toBe('completed');
    expect(await allItems(env.gw, created.id)).toHaveLength(24);
    const late = await env.gw.call('POST', `/v1/crawl/${created.id}/pause`);
    expect(late.status).toBe(400);
    expect((await errorOf(late)).code).toBe('invalid_request');
  });

  it('shadow billing records one credit per delivered page, failed pages free', async () => {
    site.page(u(h('ledger'), '/p5'), { first: Array.from({ length: 5 }, () => ({ status: 404 })) });
    const team = await newTeam(env, env.gw.ctx.store, 'ledger', 100);
    const caller = team.caller(env.gw);
    const created = await startCrawl(caller, { urls: [u(h('ledger'))], max_depth: 1 });
    const done = await waitForCrawl(caller, created.id);
    expect(done.status).toBe('completed');
    expect(done.progress).toMatchObject({ pages_completed: 5, pages_failed: 1 });
    expect(done.usage).toEqual({ credits: 5, billing_mode: 'shadow' });
    // Settled by a worker right after the end.
    const deadline = Date.now() + 10_000;
    while ((await env.gw.ctx.store.balance(team.id)) !== 95 && Date.now() < deadline) await sleep(50);
    expect(await env.gw.ctx.store.balance(team.id)).toBe(95);
  });

  it('enforce billing ends the crawl budget_exhausted when credit runs out, never delivering more than it paid for', async () => {
    const gw = await env.extraGateway({ TRAWL_BILLING_MODE: 'enforce' });
    const team = await newTeam(env, gw.ctx.store, 'thrifty', 5);
    const caller = team.caller(gw);
    const created = await startCrawl(caller, { urls: [u(h('budget'))], max_depth: 1, max_pages: 30 });
    const done = await waitForCrawl(caller, created.id, { context: () => workerLogs(env) });
    expect(done.status).toBe('budget_exhausted');
    expect(done.failure?.code).toBe('budget_exhausted');
    expect(done.usage).toEqual({ credits: 5, billing_mode: 'enforce' });
    expect(done.progress.pages_completed).toBe(5);
    expect(done.progress.pages_dropped).toBeGreaterThan(0);
    expect(await allItems(caller, created.id)).toHaveLength(5);
    // Pages leased before the end come back as dropped; nothing stays queued or in flight.
    const settled = await waitForCrawl(caller, created.id, { until: (j) => j.progress.pages_in_flight === 0, timeoutMs: 15_000 });
    expect(settled.progress).toMatchObject({ pages_queued: 0, pages_completed: 5, pages_dropped: 25 });
    expect(await gw.ctx.store.balance(team.id)).toBe(0);
    // No credit left: the next crawl is refused before anything is created.
    const broke = await caller.call('POST', '/v1/crawl', { urls: [u(h('budget'), '/p1')] });
    expect(broke.status).toBe(402);
    expect((await errorOf(broke)).code).toBe('payment_required');
  });
});
