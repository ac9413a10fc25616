import { afterAll, beforeAll, describe, expect, it } from 'vitest';
import Fastify from 'fastify';
import { loadConfig } from '@trawl/config';
import { KvStore } from '@trawl/store';
import { rateLimitDefaults, registerRateLimits } from '../src/plugins/rate-limit.ts';
import { PublicErrorResponse, RATE_LIMIT_CLASS_NAMES, V1_ROUTE_RATE_CLASSES } from '@trawl/contract';
import { adminCall as admin, newTeam, TEST_ADMIN_TOKEN } from '@trawl/test-support/admin-client.ts';
import { startTestGateway, TEST_KEY, useGatewayPair, type TestGateway } from '@trawl/test-support/gateway.ts';
import { randomPrefix, startRedisServer, type RedisServer } from '@trawl/test-support/redis-server.ts';
import { memoryKv } from '@trawl/test-support/backends.ts';

/**
 * Rate limits on /v1 in both modes: RateLimit headers on every answer after auth, 429 rate_limited with Retry-After,
 * bad bodies counted, replays not, admin limits.set/get and their auth, and (cluster) one limit shared by two
 * gateways on one Redis. Limits are a handful per minute; nothing here waits for a window to pass.
 */
const ENV = {
  TRAWL_ADMIN_TOKEN: TEST_ADMIN_TOKEN,
  TRAWL_WORKERS: '0',
  TRAWL_RATE_LIMIT_FETCH_PER_MIN: '600',
  TRAWL_RATE_LIMIT_BROWSER_SCRAPE_PER_MIN: '60',
  TRAWL_RATE_LIMIT_TRENDS_CREATE_PER_MIN: '60',
  TRAWL_RATE_LIMIT_READS_PER_MIN: '6',
  TRAWL_RATE_LIMIT_CRAWL_CREATE_PER_MIN: '3',
  LOG_LEVEL: 'warn',
};

let redis: RedisServer;
beforeAll(async () => {
  redis = await startRedisServer();
});
afterAll(async () => {
  await redis?.stop();
});

const modes: [string, () => Record<string, string>][] = [
  ['embedded', () => ({})],
  ['cluster', () => ({ REDIS_URL: redis.url, REDIS_PREFIX: randomPrefix() })],
];

function limitHeaders(res: Response) {
  const n = (h: string) => (res.headers.get(h) === null ? null : Number(res.headers.get(h)));
  return { limit: n('ratelimit-limit'), remaining: n('ratelimit-remaining'), reset: n('ratelimit-reset') };
}

describe('every authenticated /v1 route names its rate-limit class', () => {
  it('matches the contract table both ways', async () => {
    const gw = await startTestGateway(ENV);
    try {
      const routes = gw.app.routeList.filter((r) => r.url.startsWith('/v1/') && r.method !== 'HEAD').map((r) => `${r.method} ${r.url}`);
      expect(routes.sort()).toEqual(Object.keys(V1_ROUTE_RATE_CLASSES).sort());
    } finally {
      await gw.close();
    }
  });

  it('TRAWL_RATE_LIMITS=off takes the limiter out of the path: no counting, no headers', async () => {
    const gw = await startTestGateway({ ...ENV, TRAWL_RATE_LIMITS: 'off', TRAWL_RATE_LIMIT_READS_PER_MIN: '1' });
    try {
      for (let i = 0; i < 3; i++) {
        const res = await gw.call('GET', '/v1/runs/run_missing');
        expect(res.status).toBe(404);
        expect(res.headers.get('ratelimit-limit')).toBeNull();
      }
    } finally {
      await gw.close();
    }
  });

  it('refuses to register an authenticated route that has no class (or another class than the table)', () => {
    const app = Fastify();
    registerRateLimits(app, new KvStore(memoryKv()), rateLimitDefaults(loadConfig({})));
    expect(() => app.get('/v1/unclassed', { config: { scope: 'runs' } }, async () => ({}))).toThrow(/must name its rate-limit class/);
    expect(() => app.get('/v1/runs/:run_id', { config: { scope: 'runs', rateClass: 'fetch' } }, async () => ({}))).toThrow(/reads/);
    expect(() => app.get('/v1/runs/:run_id', { config: { scope: 'runs', rateClass: 'reads' } }, async () => ({}))).not.toThrow();
    // Public routes (the API docs) have no scope and no class.
    expect(() => app.get('/api-docs/x', async () => ({}))).not.toThrow();
  });
});

describe.each(modes)('rate limits on /v1 (%s)', (mode, env) => {
  let gw: TestGateway;
  beforeAll(async () => {
    gw = await startTestGateway({ ...ENV, ...env() });
  });
  afterAll(async () => {
    await gw?.close();
  });

  it('puts RateLimit headers on every answer after auth, counts bad bodies, and answers 429 rate_limited', async () => {
    const t = await newTeam(gw, `rl-headers-${mode}`);
    const missing = await t.call('GET', '/v1/runs/run_missing');
    expect(missing.status).toBe(404);
    expect(limitHeaders(missing)).toEqual({ limit: 6, remaining: 5, reset: expect.any(Number) });
    expect(limitHeaders(missing).reset).toBeGreaterThanOrEqual(1);
    expect(limitHeaders(missing).reset).toBeLessThanOrEqual(61);

    // 400s count like any request: a body that breaks the schema, and one that is not JSON.
    const invalid = await t.call('POST', '/v1/crawl', { urls: [] });
    expect(invalid.status).toBe(400);
    expect(limitHeaders(invalid)).toMatchObject({ limit: 3, remaining: 2 });
    const broken = await t.call('POST', '/v1/crawl', '{broken');
    expect(broken.status).toBe(400);
    expect(limitHeaders(broken)).toMatchObject({ limit: 3, remaining: 1 });
    const created = await t.call('POST', '/v1/crawl', { urls: ['http://site.test/'] });
    expect(created.status).toBe(202);
    expect(limitHeaders(created)).toMatchObject({ limit: 3, remaining: 0 });
    const crawlId = ((await created.json()) as { crawl: { id: string } }).crawl.id;

    // Classes are apart: reads still has its own allowance, and a 200 carries the headers too.
    const read = await t.call('GET', `/v1/crawl/${crawlId}`);
    expect(read.status).toBe(200);
    expect(limitHeaders(read)).toMatchObject({ limit: 6, remaining: 4 });

    const refused = await t.call('POST', '/v1/crawl', { urls: ['http://site.test/'] });
    expect(refused.status).toBe(429);
    const retryAfter = Number(refused.headers.get('retry-after'));
    expect(Number.isInteger(retryAfter)).toBe(true);
    expect(retryAfter).toBeGreaterThanOrEqual(1);
    expect(retryAfter).toBeLessThanOrEqual(61);
    expect(limitHeaders(refused)).toEqual({ limit: 3, remaining: 0, reset: retryAfter });
    const body = PublicErrorResponse.parse(await refused.json());
    expect(body.error).toMatchObject({
      code: 'rate_limited',
      type: 'rate_limit',
      retryable: true,
      details: { route_class: 'crawl_create', limit: 3, retry_after_s: retryAfter },
    });
    expect(body.error.request_id).toBe(refused.headers.get('x-request-id'));

    // Another team is not affected.
    const other = await newTeam(gw, `rl-headers-other-${mode}`);
    expect((await other.call('POST', '/v1/crawl', { urls: ['http://site.test/'] })).status).toBe(202);
  });

  it('does not rate-limit (nor count) requests refused by auth', async () => {
    const t = await newTeam(gw, `rl-auth-${mode}`);
    const unknown = await gw.call('GET', '/v1/runs/run_x', undefined, { authorization: 'Bearer not-a-key-0123456789' });
    expect(unknown.status).toBe(401);
    expect(limitHeaders(unknown)).toEqual({ limit: null, remaining: null, reset: null });
    const { secret } = (await admin(gw, 'keys.create', { team_id: t.id, label: 'reader', scopes: ['runs'] })).body.result.data;
    const denied = await gw.call('POST', '/v1/crawl', { urls: ['http://site.test/'] }, { authorization: `Bearer ${secret}` });
    expect(denied.status).toBe(403);
    expect(limitHeaders(denied).limit).toBeNull();
    expect(limitHeaders(await t.call('POST', '/v1/crawl', { urls: [] })).remaining).toBe(2);
  });

  it('does not count idempotent replays', async () => {
    const t = await newTeam(gw, `rl-replay-${mode}`);
    const body = { urls: ['http://site.test/replay'] };
    const first = await t.call('POST', '/v1/crawl', body, { 'idempotency-key': 'k-1' });
    expect(first.status).toBe(202);
    expect(limitHeaders(first).remaining).toBe(2);
    const id = ((await first.json()) as { crawl: { id: string } }).crawl.id;
    for (let i = 0; i < 5; i++) {
      const again = await t.call('POST', '/v1/crawl', body, { 'idempotency-key': 'k-1' });
      expect(again.status).toBe(202);
      expect(again.headers.get('idempotent-replayed')).toBe('true');
      expect(((await again.json()) as { crawl: { id: string } }).crawl.id).toBe(id);
      expect(limitHeaders(again).remaining).toBe(2);
    }
    // Five replays later, two creations are still allowed, then the third is refused.
    expect((await t.call('POST', '/v1/crawl', body, { 'idempotency-key': 'k-2' })).status).toBe(202);
    expect((await t.call('POST', '/v1/crawl', body, { 'idempotency-key': 'k-3' })).status).toBe(202);
    expect((await t.call('POST', '/v1/crawl', body, { 'idempotency-key': 'k-4' })).status).toBe(429);
  });

  it('answers replays of completed requests over the limit; any other creation there is 429', async () => {
    const t = await newTeam(gw, `rl-replay-full-${mode}`);
    const body = { urls: ['http://site.test/full'] };
    const keys = ['f-1', 'f-2', 'f-3'];
    const ids: string[] = [];
    for (const k of keys) {
      const res = await t.call('POST', '/v1/crawl', body, { 'idempotency-key': k });
      expect(res.status).toBe(202);
      ids.push(((await res.json()) as { crawl: { id: string } }).crawl.id);
    }
    // The window is full: a new creation is refused, with or without a key, and so is a known key with another
    // body (429, not 409: it was never let in).
    expect((await t.call('POST', '/v1/crawl', body)).status).toBe(429);
    expect((await t.call('POST', '/v1/crawl', body, { 'idempotency-key': 'f-4' })).status).toBe(429);
    const otherBody = await t.call('POST', '/v1/crawl', { urls: ['http://site.test/other'] }, { 'idempotency-key': 'f-1' });
    expect(otherBody.status).toBe(429);
    expect(PublicErrorResponse.parse(await otherBody.json()).error.code).toBe('rate_limited');
    // Replays of the three are answered, again and again, each with the crawl it created.
    for (let round = 0; round < 2; round++) {
      for (const [i, k] of keys.entries()) {
        const again = await t.call('POST', '/v1/crawl', body, { 'idempotency-key': k });
        expect(again.status).toBe(202);
        expect(again.headers.get('idempotent-replayed')).toBe('true');
        expect(((await again.json()) as { crawl: { id: string } }).crawl.id).toBe(ids[i]);
        expect(limitHeaders(again)).toMatchObject({ limit: 3, remaining: 0 });
      }
    }
    // Reads are no creation: over their limit they are refused whatever header they carry.
    for (let i = 0; i < 6; i++) await t.call('GET', '/v1/runs/run_missing');
    expect((await t.call('GET', '/v1/runs/run_missing', undefined, { 'idempotency-key': 'f-1' })).status).toBe(429);
  });

  it('never lets more than the limit through with 30 requests at once', async () => {
    const t = await newTeam(gw, `rl-burst-${mode}`);
    const all = await Promise.all(Array.from({ length: 30 }, () => t.call('GET', '/v1/runs/run_missing')));
    const statuses = all.map((r) => r.status);
    expect(statuses.filter((s) => s === 404)).toHaveLength(6);
    expect(statuses.filter((s) => s === 429)).toHaveLength(24);
  });

  it('admin limits.set / limits.get: overrides over defaults, 0 unlimited, null back to the default; admin token only', async () => {
    const t = await newTeam(gw, `rl-admin-${mode}`);
    const got = await admin(gw, 'limits.get', { team_id: t.id });
    expect(got.status).toBe(200);
    expect(got.body.result.data.limits).toEqual({
      fetch: { per_minute: 600, source: 'default' },
      browser_scrape: { per_minute: 60, source: 'default' },
      crawl_create: { per_minute: 3, source: 'default' },
      trends_create: { per_minute: 60, source: 'default' },
      reads: { per_minute: 6, source: 'default' },
    });
    expect(Object.keys(got.body.result.data.limits).sort()).toEqual([...RATE_LIMIT_CLASS_NAMES].sort());

    const set = await admin(gw, 'limits.set', { team_id: t.id, route_class: 'reads', per_minute: 2 });
    expect(set.status).toBe(200);
    expect(set.body.result.data.limits.reads).toEqual({ per_minute: 2, source: 'override' });
    const reads = [];
    for (let i = 0; i < 3; i++) reads.push(await t.call('GET', '/v1/runs/run_missing'));
    expect(reads.map((r) => r.status)).toEqual([404, 404, 429]);
    expect(limitHeaders(reads[0]).limit).toBe(2);

    // 0: unlimited, and then no RateLimit headers at all.
    await admin(gw, 'limits.set', { team_id: t.id, route_class: 'reads', per_minute: 0 });
    const free = await t.call('GET', '/v1/runs/run_missing');
    expect(free.status).toBe(404);
    expect(limitHeaders(free).limit).toBeNull();
    await admin(gw, 'limits.set', { team_id: t.id, route_class: 'reads', per_minute: null });
    expect((await admin(gw, 'limits.get', { team_id: t.id })).body.result.data.limits.reads).toEqual({ per_minute: 6, source: 'default' });

    // Bad inputs and unknown teams are tRPC errors; a /v1 key (or nothing) gets nothing on /admin.
    expect((await admin(gw, 'limits.set', { team_id: t.id, route_class: 'writes', per_minute: 1 })).status).toBe(400);
    expect((await admin(gw, 'limits.set', { team_id: t.id, route_class: 'reads', per_minute: -1 })).status).toBe(400);
    expect((await admin(gw, 'limits.get', { team_id: 'team_nobody' })).status).toBe(404);
    for (const token of [TEST_KEY, t.secret, null]) {
      expect((await admin(gw, 'limits.get', { team_id: t.id }, token)).status).toBe(401);
      const r = await admin(gw, 'limits.set', { team_id: t.id, route_class: 'reads', per_minute: 1000 }, token);
      expect(r.status).toBe(401);
      expect(r.body.error.data.code).toBe('UNAUTHORIZED');
    }
    expect((await admin(gw, 'limits.get', { team_id: t.id })).body.result.data.limits.reads.source).toBe('default');
  });
});

describe('cluster: one limit shared by two gateways on one Redis', () => {
  const pair = useGatewayPair(() => ({ ...ENV, REDIS_URL: redis.url, REDIS_PREFIX: randomPrefix() }));

  it('counts a team’s requests on either gateway against one window, also when they arrive at once', async () => {
    const { a, b } = pair;
    const t = await newTeam(a, 'rl-two-gateways');
    // An override set through one gateway applies on the other.
    await admin(b, 'limits.set', { team_id: t.id, route_class: 'reads', per_minute: 5 });
    const on = (gw: TestGateway) => gw.call('GET', '/v1/runs/run_missing', undefined, { authorization: `Bearer ${t.secret}` });
    const seq = [await on(a), await on(b), await on(a), await on(b), await on(a), await on(b)];
    expect(seq.map((r) => r.status)).toEqual([404, 404, 404, 404, 404, 429]);
    expect(seq.map((r) => limitHeaders(r).remaining)).toEqual([4, 3, 2, 1, 0, 0]);

    const burst = await newTeam(b, 'rl-two-gateways-burst');
    await admin(a, 'limits.set', { team_id: burst.id, route_class: 'reads', per_minute: 7 });
    const all = await Promise.all(
      Array.from({ length: 40 }, (_, i) =>
        (i % 2 ? a : b).call('GET', '/v1/runs/run_missing', undefined, { authorization: `Bearer ${burst.secret}` }),
      ),
    );
    expect(all.filter((r) => r.status === 404)).toHaveLength(7);
    expect(all.filter((r) => r.status === 429)).toHaveLength(33);
  });
});
