import { readFileSync } from 'node:fs';
import { afterAll, beforeAll, beforeEach, describe, expect, it } from 'vitest';
import { PublicErrorResponse, TrendsJobResponse } from '@trawl/contract';
import { startTrendsSimulator, type TrendsSimulator } from '../../apps/trends-simulator/src/simulator.ts';
import { startTestGateway, type TestGateway } from '@trawl/test-support/gateway.ts';
import { createTrendsJob, PIZZA_GRAIN, waitForTrendsJob } from '@trawl/test-support/trends-client.ts';

/**
 * Issue 4 in embedded mode: the gateway runs the job runner in-process against the Google Trends simulator,
 * through the real light engine and SSRF guard (TRAWL_ALLOW_PRIVATE lets the simulator's loopback through).
 * Backoff is shortened; every job uses its own grain unless a test is about reusing results.
 */
const MAX_ATTEMPTS = 3;
let sim: TrendsSimulator;
let gw: TestGateway;
beforeAll(async () => {
  sim = await startTrendsSimulator();
  gw = await startTestGateway({
    TRAWL_TRENDS_BASE_URL: sim.url,
    TRAWL_TRENDS_RPM: '6000',
    TRAWL_TRENDS_BACKOFF_MS: '50',
    TRAWL_TRENDS_BACKOFF_MAX_MS: '200',
    TRAWL_TRENDS_MAX_ATTEMPTS: String(MAX_ATTEMPTS),
    TRAWL_TRENDS_TIMEOUT_MS: '2000', // a gateway's first upstream call, cold on a loaded machine, has taken over 1 s
    LOG_LEVEL: 'warn',
  });
});
afterAll(async () => {
  await gw?.close();
  await sim?.close();
});
beforeEach(() => sim.reset());

const grain = (keyword: string) => ({ ...PIZZA_GRAIN, keyword });
const run = async (body: unknown) => waitForTrendsJob(gw, (await createTrendsJob(gw, body)).id);

/** The recorded relatedsearches lists, mapped to the public item shape independently of the code under test. */
function recordedItems(): { top: unknown[]; rising: unknown[] } {
  const text = readFileSync(new URL('../../apps/trends-simulator/recordings/relatedsearches_pizza_2021.raw', import.meta.url), 'utf8');
  const lists = JSON.parse(text.slice(text.indexOf('\n') + 1)).default.rankedList;
  const items = (l: { rankedKeyword: Record<string, any>[] }) =>
    l.rankedKeyword.map((k) => ({
      query: k.query,
      value: k.value,
      formatted_value: k.formattedValue,
      breakout: k.formattedValue === 'Breakout',
      link: `https://trends.google.com${k.link}`,
    }));
  return { top: items(lists[0]), rising: items(lists[1]) };
}

describe('search-trends related queries (embedded)', () => {
  it('accepts a grain with 202 and a queued job, then completes it with the recorded Top and Rising queries', async () => {
    const res = await gw.call('POST', '/v1/search-trends/related-queries', PIZZA_GRAIN);
    expect(res.status).toBe(202);
    const accepted = TrendsJobResponse.parse(await res.json()).job;
    expect(accepted).toMatchObject({ state: 'queued', attempts: 0, request: PIZZA_GRAIN, result: null, error: null, cached: false, started_at: null, completed_at: null });
    expect(accepted.id).toMatch(/^job_/);

    const done = await waitForTrendsJob(gw, accepted.id);
    expect(done).toMatchObject({ id: accepted.id, state: 'completed', attempts: 1, error: null, cached: false, created_at: accepted.created_at });
    expect(done.started_at).not.toBeNull();
    expect(done.completed_at! >= done.started_at!).toBe(true);
    expect(done.result).toEqual(recordedItems());
    expect(done.result!.top[0]).toEqual({
      query: 'pizza hut',
      value: 100,
      formatted_value: '100',
      breakout: false,
      link: 'https://trends.google.com/trends/explore?q=pizza+hut&date=2021-01-01+2021-12-31',
    });
    expect(done.result!.rising.find((r) => r.breakout)).toMatchObject({ query: 'licorice pizza', formatted_value: 'Breakout', value: 8550 });
    expect(sim.calls().map((c) => [c.endpoint, c.status])).toEqual([['cookie', 404], ['explore', 200], ['relatedsearches', 200]]);
  });

  it('retries 429 twice (honouring Retry-After) and completes on the third attempt', async () => {
    sim.inject('explore', { kind: 'status', status: 429, retryAfter: '1' });
    sim.inject('explore', { kind: 'status', status: 429 });
    const done = await run(grain('retry after 429'));
    expect(done).toMatchObject({ state: 'completed', attempts: 3, error: null });
    expect(done.result!.top[0].query).toBe('pizza hut');
    const explores = sim.calls('explore');
    expect(explores.map((c) => c.status)).toEqual([429, 429, 200]);
    // Retry-After: 1 held the second request back by a second (a floor, so this is not a timing race).
    expect(explores[1].at - explores[0].at).toBeGreaterThanOrEqual(990);
  });

  it('retries a 5xx and a timeout', async () => {
    sim.inject('explore', { kind: 'status', status: 503 });
    sim.inject('relatedsearches', { kind: 'slow', delayMs: 3000 });
    const done = await run(grain('retry after 503 and a timeout'));
    expect(done).toMatchObject({ state: 'completed', attempts: 3 });
  });

  it('fails a permanently blocked job (302 to /sorry every time) after the last attempt, with a clear error', async () => {
    sim.inject('explore', { kind: 'sorry' }, 'always');
    const done = await run(grain('always blocked'));
    expect(done).toMatchObject({ state: 'failed', attempts: MAX_ATTEMPTS, result: null, cached: false });
    expect(done.error).toEqual({
      code: 'upstream_blocked',
      message: 'Google Trends redirected to its /sorry page: it is blocking requests from this server for now',
      retryable: true,
    });
    expect(sim.calls('explore')).toHaveLength(MAX_ATTEMPTS);
    expect(done.completed_at).not.toBeNull();
  });

  it('fails at once, without retrying, when Google rejects the query (400)', async () => {
    sim.inject('explore', { kind: 'status', status: 400 });
    const done = await run(grain('rejected'));
    expect(done).toMatchObject({ state: 'failed', attempts: 1, error: { code: 'upstream_rejected', retryable: false } });
    expect(done.error!.message).toContain('HTTP 400');
  });

  it('never lets an upstream URL, token or cookie into a job', async () => {
    sim.inject('relatedsearches', { kind: 'status', status: 401 }, 2);
    const done = await run(grain('token twice'));
    expect(done).toMatchObject({ state: 'completed', attempts: 2 });
    sim.inject('explore', { kind: 'status', status: 400 });
    const failed = await run(grain('leak check'));
    const text = JSON.stringify([done, failed]);
    for (const secret of [sim.url, '127.0.0.1', 'APP6_', 'NID', 'token=']) expect(text).not.toContain(secret);
  });

  it('completes with empty arrays for both empty shapes', async () => {
    sim.inject('relatedsearches', { kind: 'empty', shape: 'lists' });
    const lists = await run(grain('empty lists'));
    sim.inject('relatedsearches', { kind: 'empty', shape: 'none' });
    const none = await run(grain('no lists'));
    for (const done of [lists, none]) expect(done).toMatchObject({ state: 'completed', attempts: 1, result: { top: [], rising: [] }, error: null });
  });

  it('restarts from explore once after a stale token (401), within the same attempt', async () => {
    sim.inject('relatedsearches', { kind: 'status', status: 401 });
    const done = await run(grain('stale token'));
    expect(done).toMatchObject({ state: 'completed', attempts: 1 });
    expect(sim.calls('explore')).toHaveLength(2);
    expect(sim.calls('relatedsearches').map((c) => c.status)).toEqual([401, 200]);
  });

  it('completes an identical grain of the same team from the stored result without calling Google', async () => {
    const first = await run(grain('cached grain'));
    expect(first).toMatchObject({ state: 'completed', cached: false });
    const calls = sim.calls().length;
    // Same grain, fields in another order.
    const again = await run({ tz: 360, hl: 'en-US', property: '', category: 0, timeframe: '2021-01-01 2021-12-31', geo: '', keyword: 'cached grain' });
    expect(again).toMatchObject({ state: 'completed', cached: true, attempts: 1, result: first.result });
    expect(again.id).not.toBe(first.id);
    expect(sim.calls()).toHaveLength(calls);
    // Another grain, or another team, asks Google.
    expect(await run({ ...grain('cached grain'), tz: 0 })).toMatchObject({ cached: false });
    const team = await gw.ctx.store.createTeam('trends-other-cache');
    const { secret } = await gw.ctx.store.createApiKey(team.id, { label: 't', scopes: ['trends'] });
    const res = await gw.call('POST', '/v1/search-trends/related-queries', grain('cached grain'), { authorization: `Bearer ${secret}` });
    const theirs = TrendsJobResponse.parse(await res.json()).job;
    const done = await waitForTrendsJob({ call: (m, p, b, h) => gw.call(m, p, b, { authorization: `Bearer ${secret}`, ...h }) }, theirs.id);
    expect(done).toMatchObject({ state: 'completed', cached: false });
  });

  it('replays the first 202 for the same Idempotency-Key and body; another body is a conflict', async () => {
    const body = grain('idempotent');
    const a = await gw.call('POST', '/v1/search-trends/related-queries', body, { 'idempotency-key': 'trends-k1' });
    const b = await gw.call('POST', '/v1/search-trends/related-queries', body, { 'idempotency-key': 'trends-k1' });
    expect([a.status, b.status]).toEqual([202, 202]);
    expect(b.headers.get('idempotent-replayed')).toBe('true');
    const first = TrendsJobResponse.parse(await a.json()).job;
    expect(TrendsJobResponse.parse(await b.json()).job).toEqual(first);
    await waitForTrendsJob(gw, first.id);
    expect(sim.calls('explore')).toHaveLength(1);
    const c = await gw.call('POST', '/v1/search-trends/related-queries', grain('another body'), { 'idempotency-key': 'trends-k1' });
    expect(c.status).toBe(409);
    expect(PublicErrorResponse.parse(await c.json()).error.code).toBe('idempotency_conflict');
  });

  it('answers 404 job_not_found for another team’s job and for an unknown id; 403 without the trends scope', async () => {
    const mine = await createTrendsJob(gw, grain('private job'));
    const team = await gw.ctx.store.createTeam('trends-other');
    const { secret } = await gw.ctx.store.createApiKey(team.id, { label: 'x', scopes: ['trends'] });
    for (const [id, auth] of [[mine.id, `Bearer ${secret}`], ['job_unknown', undefined]] as const) {
      const res = await gw.call('GET', `/v1/search-trends/jobs/${id}`, undefined, auth ? { authorization: auth } : {});
      expect(res.status).toBe(404);
      const e = PublicErrorResponse.parse(await res.json()).error;
      expect([e.code, e.details.job_id]).toEqual(['job_not_found', id]);
    }
    const reader = await gw.ctx.store.createApiKey(team.id, { label: 'r', scopes: ['runs'] });
    const denied = await gw.call('POST', '/v1/search-trends/related-queries', PIZZA_GRAIN, { authorization: `Bearer ${reader.secret}` });
    expect(denied.status).toBe(403);
    // Its owner still sees it; waiting for it keeps its upstream calls out of the next test's count.
    expect(await waitForTrendsJob(gw, mine.id)).toMatchObject({ id: mine.id, state: 'completed' });
  });

  it('validates the whole grain: a missing, unknown or bad field is a 400 naming it, and creates no job', async () => {
    const cases: [Record<string, unknown>, string, string][] = [
      [{ keyword: 'k'.repeat(101) }, 'validation_error', 'keyword'],
      [{ geo: 'usa' }, 'validation_error', 'geo'],
      [{ timeframe: '2023-03-01T00 2023-03-09T00' }, 'validation_error', 'timeframe'],
      [{ timeframe: '2003-01-01 2004-01-01' }, 'validation_error', 'timeframe'],
      [{ category: 99999 }, 'validation_error', 'category'],
      [{ property: 'web' }, 'validation_error', 'property'],
      [{ hl: 'not a tag' }, 'validation_error', 'hl'],
      [{ tz: 1500 }, 'validation_error', 'tz'],
      [{ tz: undefined }, 'validation_error', 'tz'],
    ];
    for (const [patch, code, field] of cases) {
      const res = await gw.call('POST', '/v1/search-trends/related-queries', { ...PIZZA_GRAIN, ...patch });
      expect(res.status, JSON.stringify(patch)).toBe(400);
      const e = PublicErrorResponse.parse(await res.json()).error;
      expect([e.code, e.details.field], JSON.stringify(patch)).toEqual([code, field]);
      expect(e.message.startsWith(`${field}:`)).toBe(true);
    }
    const unknown = await gw.call('POST', '/v1/search-trends/related-queries', { ...PIZZA_GRAIN, keywords: ['a', 'b'] });
    expect(unknown.status).toBe(400);
    const e = PublicErrorResponse.parse(await unknown.json()).error;
    expect([e.code, e.details.fields]).toEqual(['unsupported_feature', ['keywords']]);
    expect(sim.calls()).toEqual([]);
  });

  it('documents both routes in the search-trends API document', async () => {
    const doc = (await (await fetch(`${gw.url}/api-docs/public-v1/openapi/search-trends`)).json()) as Record<string, any>;
    expect(Object.keys(doc.paths).sort()).toEqual(['/v1/search-trends/jobs/{job_id}', '/v1/search-trends/related-queries']);
    expect(Object.keys(doc.paths['/v1/search-trends/related-queries'].post.responses)).toContain('202');
    expect(doc.components.schemas.TrendsJob.properties.result).toBeDefined();
  });
});
