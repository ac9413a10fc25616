import { afterAll, beforeAll, describe, expect, it } from 'vitest';
import { startFailingProxy, startFixtureSite, startForwardProxy, type FixtureSite } from '@trawl/test-support/fixture-site.ts';
import { createLightEngine } from '../src/index.ts';
import { testGuard, within } from './test-setup.ts';

let site: FixtureSite;
beforeAll(async () => {
  site = await startFixtureSite();
});
afterAll(async () => {
  await site?.close();
});

const ISO = /^\d{4}-\d\d-\d\dT\d\d:\d\d:\d\d\.\d{3}Z$/;

describe('light engine proxy path', () => {
  it('uses a working proxy first and only', async () => {
    const proxy = await startForwardProxy();
    const engine = createLightEngine({ guard: testGuard(), proxyUrl: proxy.url });
    try {
      const r = await engine.fetch({ url: `${site.origin('proxied.test')}/article`, deadline: within(10_000) });
      expect(r).toMatchObject({ ok: true, statusCode: 200, fallbackReasons: [], fallbackEvents: [] });
      expect(r.attempts).toEqual([{ route: 'proxy', outcome: 'ok', elapsed_ms: expect.any(Number) }]);
      expect(proxy.requests()).toBe(1);
      expect(site.hits('/article', 'proxied.test')).toBe(1);
    } finally {
      await engine.close();
      await proxy.close();
    }
  });

  it('follows redirects through the proxy, one proxied request per hop', async () => {
    const proxy = await startForwardProxy();
    const engine = createLightEngine({ guard: testGuard(), proxyUrl: proxy.url });
    try {
      const r = await engine.fetch({ url: `${site.origin('proxied-chain.test')}/redirect/2`, deadline: within(10_000) });
      expect(r).toMatchObject({ ok: true, redirects: 2 });
      expect(r.attempts.map((a) => a.route)).toEqual(['proxy']);
      expect(proxy.requests()).toBe(3);
    } finally {
      await engine.close();
      await proxy.close();
    }
  });

  it.each(['refuse', 'reset', 'bad-gateway'] as const)(
    'retries directly once after the proxy fails (%s) and records why',
    async (mode) => {
      const proxy = await startFailingProxy(mode);
      const engine = createLightEngine({ guard: testGuard(), proxyUrl: proxy.url });
      const host = `fallback-${mode}.test`;
      try {
        const r = await engine.fetch({ url: `${site.origin(host)}/article`, deadline: within(10_000) });
        expect(r).toMatchObject({ ok: true, statusCode: 200, fallbackReasons: ['proxy_error'] });
        expect(r.attempts.map((a) => [a.route, a.outcome])).toEqual([
          ['proxy', 'proxy_error'],
          ['direct', 'ok'],
        ]);
        expect(r.fallbackEvents).toEqual([{ kind: 'route', from: 'proxy', to: 'direct', reason: 'proxy_error', at: expect.stringMatching(ISO) }]);
        expect(site.hits('/article', host)).toBe(1);
        expect(JSON.stringify({ ...r, body: null })).not.toContain(proxy.url);
      } finally {
        await engine.close();
        await proxy.close();
      }
    },
  );

  it('gives up on a proxy that hangs in time for the direct retry', async () => {
    const proxy = await startFailingProxy('hang');
    const engine = createLightEngine({ guard: testGuard(), proxyUrl: proxy.url });
    try {
      const r = await engine.fetch({ url: `${site.origin('hang.test')}/article`, deadline: within(3_000) });
      expect(r).toMatchObject({ ok: true, statusCode: 200, fallbackReasons: ['proxy_error'] });
      expect(r.attempts.map((a) => [a.route, a.outcome])).toEqual([
        ['proxy', 'timeout'],
        ['direct', 'ok'],
      ]);
      expect(proxy.connections()).toBe(1);
    } finally {
      await engine.close();
      await proxy.close();
    }
  });

  it('reports a retryable network_error when the direct retry fails too (https CONNECT refused, then TLS to a plain server)', async () => {
    const proxy = await startFailingProxy('bad-gateway');
    const engine = createLightEngine({ guard: testGuard(), proxyUrl: proxy.url });
    try {
      const r = await engine.fetch({ url: `https://tls.test:${site.port}/article`, deadline: within(10_000) });
      expect(r).toMatchObject({ ok: false, failure: 'network_error', retryable: true, fallbackReasons: ['proxy_error'] });
      expect(r.attempts.map((a) => [a.route, a.outcome])).toEqual([
        ['proxy', 'proxy_error'],
        ['direct', 'network_error'],
      ]);
      expect(proxy.requests()).toBe(1);
    } finally {
      await engine.close();
      await proxy.close();
    }
  });

  it('never retries limits directly', async () => {
    const proxy = await startForwardProxy();
    const engine = createLightEngine({ guard: testGuard(), proxyUrl: proxy.url });
    try {
      const body = await engine.fetch({ url: `${site.origin('plimit.test')}/endless`, deadline: within(10_000), maxBodyBytes: 128 * 1024 });
      expect(body).toMatchObject({ ok: false, failure: 'body_size_limit', fallbackReasons: [] });
      expect(body.attempts.map((a) => a.route)).toEqual(['proxy']);
      const loop = await engine.fetch({ url: `${site.origin('plimit.test')}/loop`, deadline: within(10_000) });
      expect(loop).toMatchObject({ ok: false, failure: 'redirect_limit', fallbackReasons: [] });
      expect(loop.attempts.map((a) => a.route)).toEqual(['proxy']);
    } finally {
      await engine.close();
      await proxy.close();
    }
  });

  it('keeps part of the deadline for the direct retry and ends with timeout when neither answers in time', async () => {
    const proxy = await startForwardProxy();
    const engine = createLightEngine({ guard: testGuard(), proxyUrl: proxy.url });
    try {
      const r = await engine.fetch({ url: `${site.origin('pslow.test')}/slow?ms=5000`, deadline: within(600) });
      expect(r).toMatchObject({ ok: false, failure: 'timeout', retryable: true, fallbackReasons: ['proxy_error'] });
      expect(r.attempts.map((a) => [a.route, a.outcome])).toEqual([
        ['proxy', 'timeout'],
        ['direct', 'timeout'],
      ]);
      expect(r.attempts[0].elapsed_ms).toBeLessThan(600);
      expect(proxy.requests()).toBe(1);
      expect(site.hits('/slow', 'pslow.test')).toBe(2);
    } finally {
      await engine.close();
      await proxy.close();
    }
  });
});
