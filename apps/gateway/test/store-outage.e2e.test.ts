import { afterAll, beforeAll, describe, expect, it } from 'vitest';
import { ClientOfflineError } from 'redis';
import { PublicErrorResponse } from '@trawl/contract';
import { loadConfig } from '@trawl/config';
import { connectRedis, type RedisConnection } from '@trawl/redis';
import { RedisStore } from '@trawl/store';
import { bootstrapDefaultTeam } from '../src/bootstrap.ts';
import { toApiError } from '../src/plugins/errors.ts';
import { STORE_RETRY_AFTER_S } from '../src/store-unavailable.ts';
import { metricsText } from '@trawl/metrics';
import { startTestGateway, TEST_KEY, type TestGateway } from '@trawl/test-support/gateway.ts';
import { randomPrefix, startRedisServer, type RedisServer } from '@trawl/test-support/redis-server.ts';

/**
 * The gateway in cluster mode while its Redis is stopped and started again (a real redis-server, no persistence):
 * 503 with Retry-After rather than 500 or 401, /healthz says degraded, and the bootstrap key comes back by itself
 * when Redis returns empty.
 */
let redis: RedisServer;
let gw: TestGateway;
const CREDITS = 777;

beforeAll(async () => {
  redis = await startRedisServer();
  gw = await startTestGateway({ REDIS_URL: redis.url, REDIS_PREFIX: randomPrefix(), TRAWL_WORKERS: '0', TRAWL_TEAM_CREDITS: String(CREDITS) });
});
afterAll(async () => {
  await gw?.close();
  await redis?.stop();
});

async function until(check: () => Promise<boolean>, timeoutMs = 10_000): Promise<number> {
  const started = Date.now();
  while (!(await check())) {
    if (Date.now() - started > timeoutMs) throw new Error('condition not reached in time');
    await new Promise((r) => setTimeout(r, 50));
  }
  return Date.now() - started;
}

const storeUp = () => gw.ctx.store.ping().then(() => true, () => false);

describe('toApiError', () => {
  it('maps a store that cannot be reached to 503 service_unavailable with Retry-After', () => {
    const e = toApiError(new ClientOfflineError());
    expect(e.status).toBe(503);
    expect(e.code).toBe('service_unavailable');
    expect(e.retryable).toBe(true);
    expect(e.headers['retry-after']).toBe(String(STORE_RETRY_AFTER_S));
    // Nothing of the store's own error reaches the caller.
    expect(JSON.stringify(e.toBody('req_1'))).not.toMatch(/offline|redis|127\.0\.0\.1/i);
  });

  it('still maps other faults to 500', () => {
    expect(toApiError(new Error('boom')).status).toBe(500);
  });
});

describe('gateway during a Redis outage', () => {
  it('answers 503 + Retry-After (also while authenticating), /healthz degraded and /readyz not ready; both ok again once Redis is back', async () => {
    expect((await fetch(`${gw.url}/healthz`)).status).toBe(200);
    const seenBefore = await storeErrorsSeen();
    await redis.halt();
    await until(async () => !(await storeUp()));

    for (const authorization of [`Bearer ${TEST_KEY}`, 'Bearer some-unknown-key-0123']) {
      const res = await gw.call('GET', '/v1/runs/run_x', undefined, { authorization });
      expect(res.status).toBe(503);
      expect(res.headers.get('retry-after')).toBe(String(STORE_RETRY_AFTER_S));
      const body = PublicErrorResponse.parse(await res.json());
      expect(body.error).toMatchObject({ code: 'service_unavailable', type: 'server', retryable: true });
      expect(body.error.request_id).toBe(res.headers.get('x-request-id'));
    }
    const created = await gw.call('POST', '/v1/crawl', { urls: ['http://site.test/'] });
    expect(created.status).toBe(503);
    // Each 503 is one store-unavailable error in the metrics.
    expect((await storeErrorsSeen()) - seenBefore).toBe(3);

    const health = await fetch(`${gw.url}/healthz`);
    expect(health.status).toBe(503);
    expect(await health.json()).toEqual({ ok: false, status: 'degraded', store: 'redis' });
    const notReady = await fetch(`${gw.url}/readyz`);
    expect(notReady.status).toBe(503);
    expect(await notReady.json()).toEqual({ ok: false, status: 'not_ready', store: 'unreachable', browser: 'ok' });

    await redis.restart();
    await until(storeUp);
    const ok = await fetch(`${gw.url}/healthz`);
    expect(ok.status).toBe(200);
    expect(await ok.json()).toEqual({ ok: true, status: 'ok', store: 'redis' });
    const ready = await fetch(`${gw.url}/readyz`);
    expect(ready.status).toBe(200);
    expect(await ready.json()).toEqual({ ok: true, status: 'ready', store: 'ok', browser: 'ok' });
    expect((await gw.call('GET', '/v1/runs/run_x')).status).toBe(404);
  });

  it('re-creates the bootstrap team and key when Redis comes back empty, granting credits once', async () => {
    await redis.restart({ empty: true });
    await until(storeUp);
    // Reconnection re-runs the bootstrap: the key is known again without any request asking for it.
    await until(async () => (await gw.ctx.store.findApiKey(TEST_KEY)) !== null);
    const res = await gw.call('GET', '/v1/runs/run_x');
    expect(res.status).toBe(404);
    const team = (await gw.ctx.store.findTeamByName('default'))!;
    expect(await gw.ctx.store.balance(team.id)).toBe(CREDITS);
  });

  it('re-creates the bootstrap key on an auth miss of exactly that key (data lost without a reconnection)', async () => {
    const conn = await connectRedis(redis.url, 'flush');
    await conn.flushAll();
    await conn.quit();
    // Any other key stays unknown, and asking with it creates nothing.
    expect((await gw.call('GET', '/v1/runs/run_x', undefined, { authorization: 'Bearer other-key-0123456789' })).status).toBe(401);
    expect(await gw.ctx.store.findTeamByName('default')).toBeNull();
    expect((await gw.call('GET', '/v1/runs/run_x')).status).toBe(404);
    const team = (await gw.ctx.store.findTeamByName('default'))!;
    expect(await gw.ctx.store.balance(team.id)).toBe(CREDITS);
  });
});

describe('bootstrap', () => {
  let conn: RedisConnection;
  beforeAll(async () => {
    conn = await connectRedis(redis.url, 'bootstrap');
  });
  afterAll(async () => {
    await conn?.quit();
  });

  it('never grants credits twice: concurrent and repeated bootstraps leave one team with one grant', async () => {
    const store = new RedisStore(conn, randomPrefix());
    const config = loadConfig({ TRAWL_BOOTSTRAP_KEY: TEST_KEY, TRAWL_TEAM_CREDITS: '500' });
    const results = await Promise.all(Array.from({ length: 5 }, () => bootstrapDefaultTeam(store, config)));
    await bootstrapDefaultTeam(store, config);
    expect(new Set(results.map((r) => r!.teamId)).size).toBe(1);
    expect(await store.balance(results[0]!.teamId)).toBe(500);
  });
});

async function storeErrorsSeen(): Promise<number> {
  const m = /^trawl_store_unavailable_errors_total\{source="request"\} (\d+)$/m.exec(await metricsText());
  return m ? Number(m[1]) : 0;
}
