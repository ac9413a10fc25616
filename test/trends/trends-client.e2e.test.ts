import { afterAll, beforeAll, beforeEach, describe, expect, it } from 'vitest';
import type { TrendsGrain } from '@trawl/contract';
import { createLightEngine, type LightEngine } from '@trawl/light-engine';
import { HostResolverRules, SsrfGuard } from '@trawl/net';
import { MemoryRateLimiter, TrendsClient, UpstreamError } from '@trawl/trends';
import { startTrendsSimulator, type TrendsSimulator } from '../../apps/trends-simulator/src/simulator.ts';
import { startForwardProxy } from '@trawl/test-support/fixture-proxies.ts';

/** The upstream client against the simulator, through the real light engine and SSRF guard. */
const GRAIN: TrendsGrain = { keyword: 'pizza', geo: '', timeframe: '2021-01-01 2021-12-31', category: 0, property: '', hl: 'en-US', tz: 360 };

let sim: TrendsSimulator;
let light: LightEngine;
beforeAll(async () => {
  sim = await startTrendsSimulator();
  light = createLightEngine({ guard: new SsrfGuard({ allowPrivate: ['127.0.0.1/32'], rules: HostResolverRules.parse('') }) });
});
afterAll(async () => {
  await light?.close();
  await sim?.close();
});
beforeEach(() => sim.reset());

const client = (timeoutMs = 5000) =>
  new TrendsClient({ http: light, baseUrl: sim.url, limiter: new MemoryRateLimiter({ perWindow: 1000, windowMs: 1000 }), timeoutMs });

async function failureOf(p: Promise<unknown>): Promise<UpstreamError> {
  try {
    await p;
  } catch (err) {
    expect(err).toBeInstanceOf(UpstreamError);
    return err as UpstreamError;
  }
  throw new Error('expected an upstream failure');
}

describe('TrendsClient against the simulator', () => {
  it('walks cookie → explore → relatedsearches and returns the recorded lists, then reuses the cookie', async () => {
    const c = client();
    const r = await c.relatedQueries(GRAIN);
    expect(r.top).toHaveLength(25);
    expect(r.rising).toHaveLength(11);
    expect(r.top[0]).toMatchObject({ query: 'pizza hut', value: 100, formatted_value: '100' });
    expect(sim.calls().map((x) => [x.endpoint, x.status])).toEqual([['cookie', 404], ['explore', 200], ['relatedsearches', 200]]);
    await c.relatedQueries(GRAIN);
    expect(sim.calls('cookie')).toHaveLength(1);
  });

  it('restarts from explore once after a stale token (401), and gives up on a second one', async () => {
    sim.inject('relatedsearches', { kind: 'status', status: 401 });
    const c = client();
    expect((await c.relatedQueries(GRAIN)).top[0].query).toBe('pizza hut');
    expect(sim.calls('explore')).toHaveLength(2);
    expect(sim.calls('relatedsearches').map((x) => x.status)).toEqual([401, 200]);
    sim.inject('relatedsearches', { kind: 'status', status: 401 }, 2);
    const err = await failureOf(c.relatedQueries(GRAIN));
    expect([err.failure, err.endpoint, err.status]).toEqual(['token_rejected', 'relatedsearches', 401]);
  });

  it('classifies 429 (with its Retry-After), the /sorry redirect without following it, 5xx and 400', async () => {
    const c = client();
    sim.inject('explore', { kind: 'status', status: 429, retryAfter: '3' });
    const limited = await failureOf(c.relatedQueries(GRAIN));
    expect([limited.failure, limited.retryAfterMs, limited.retryable]).toEqual(['rate_limited', 3000, true]);
    sim.inject('explore', { kind: 'sorry' });
    expect((await failureOf(c.relatedQueries(GRAIN))).failure).toBe('blocked');
    sim.inject('relatedsearches', { kind: 'status', status: 502 });
    expect((await failureOf(c.relatedQueries(GRAIN))).failure).toBe('unavailable');
    sim.inject('explore', { kind: 'status', status: 400 });
    const rejected = await failureOf(c.relatedQueries(GRAIN));
    expect([rejected.failure, rejected.retryable]).toEqual(['rejected', false]);
    // Nothing ever left for google.com: the block page was reported, not fetched.
    expect(sim.calls().every((x) => x.status !== 0)).toBe(true);
  });

  it('drops a throttled cookie and fetches a fresh one next time', async () => {
    const c = client();
    await c.relatedQueries(GRAIN);
    sim.inject('explore', { kind: 'status', status: 429 });
    await failureOf(c.relatedQueries(GRAIN));
    await c.relatedQueries(GRAIN);
    expect(sim.calls('cookie')).toHaveLength(2);
  });

  it('times out a slow answer', async () => {
    sim.inject('relatedsearches', { kind: 'slow', delayMs: 2000 });
    const err = await failureOf(client(300).relatedQueries(GRAIN));
    expect([err.failure, err.retryable]).toEqual(['timeout', true]);
  });

  it('reads both empty shapes as empty lists', async () => {
    const c = client();
    sim.inject('relatedsearches', { kind: 'empty', shape: 'lists' });
    expect(await c.relatedQueries(GRAIN)).toEqual({ top: [], rising: [] });
    sim.inject('relatedsearches', { kind: 'empty', shape: 'none' });
    expect(await c.relatedQueries(GRAIN)).toEqual({ top: [], rising: [] });
  });

  it('goes through the proxy path (TRAWL_PROXY_URL) when one is configured', async () => {
    const proxy = await startForwardProxy();
    const proxied = createLightEngine({ guard: new SsrfGuard({ allowPrivate: ['127.0.0.1/32'], rules: HostResolverRules.parse('') }), proxyUrl: proxy.url });
    try {
      const c = new TrendsClient({ http: proxied, baseUrl: sim.url, limiter: new MemoryRateLimiter({ perWindow: 1000, windowMs: 1000 }), timeoutMs: 5000 });
      expect((await c.relatedQueries(GRAIN)).top[0].query).toBe('pizza hut');
      expect(proxy.requests()).toBe(3);
      expect(sim.calls().map((x) => x.status)).toEqual([404, 200, 200]);
    } finally {
      await proxied.close();
      await proxy.close();
    }
  });

  it('is refused by the SSRF guard when the upstream address is not allowed, without retry', async () => {
    const guarded = createLightEngine({ guard: new SsrfGuard({ allowPrivate: [], rules: HostResolverRules.parse('') }) });
    try {
      const c = new TrendsClient({ http: guarded, baseUrl: sim.url, limiter: new MemoryRateLimiter({ perWindow: 10, windowMs: 1000 }), timeoutMs: 2000 });
      const err = await failureOf(c.relatedQueries(GRAIN));
      expect([err.failure, err.retryable]).toEqual(['refused', false]);
      expect(sim.calls()).toEqual([]);
    } finally {
      await guarded.close();
    }
  });
});
