import { afterAll, beforeAll, describe, expect, it } from 'vitest';
import { PageRunResponse, PublicErrorResponse } from '@trawl/contract';
import { startTestGateway, type TestGateway } from '@trawl/test-support/gateway.ts';
import { startFailingProxy, startFixtureSite, startForwardProxy } from '@trawl/test-support/fixture-site.ts';

let site: Awaited<ReturnType<typeof startFixtureSite>>;
beforeAll(async () => {
  site = await startFixtureSite();
});
afterAll(async () => {
  await site?.close();
});

describe('billing in enforce mode', () => {
  let gw: TestGateway;
  beforeAll(async () => {
    gw = await startTestGateway({ TRAWL_BILLING_MODE: 'enforce', TRAWL_TEAM_CREDITS: '2' });
  });
  afterAll(async () => {
    await gw?.close();
  });

  it('charges delivered pages only and answers 402 payment_required when credit runs out', async () => {
    const ok = await gw.call('POST', '/v1/fetch', { url: `${site.origin('bill.test')}/article` });
    expect(ok.status).toBe(200);
    const failed = await gw.call('POST', '/v1/fetch', { url: `${site.origin('bill.test')}/status/404` });
    expect(failed.status).toBe(502);
    const second = await gw.call('POST', '/v1/fetch', { url: `${site.origin('bill.test')}/article` });
    expect(second.status).toBe(200);
    const broke = await gw.call('POST', '/v1/fetch', { url: `${site.origin('bill.test')}/article` });
    expect(broke.status).toBe(402);
    const e = PublicErrorResponse.parse(await broke.json()).error;
    expect(e).toMatchObject({ code: 'payment_required', type: 'billing', retryable: false });
    const team = (await gw.ctx.store.findTeamByName('default'))!;
    expect(await gw.ctx.store.balance(team.id)).toBe(0);
  });
});

describe('proxy path with direct fallback', () => {
  it('uses the configured proxy first when it works', async () => {
    const proxy = await startForwardProxy();
    const gw = await startTestGateway({ TRAWL_PROXY_URL: proxy.url });
    try {
      const res = await gw.call('POST', '/v1/fetch', { url: `${site.origin('proxied.test')}/article` });
      const { result } = PageRunResponse.parse(await res.json());
      expect(proxy.requests()).toBeGreaterThanOrEqual(1);
      expect(result.audit.retry_stats.total_attempts).toBe(1);
      expect(result.audit.fallback_reasons).toEqual([]);
    } finally {
      await gw.close();
      await proxy.close();
    }
  });

  it('retries directly after a proxy failure and records why', async () => {
    for (const mode of ['refuse', 'reset', 'bad-gateway'] as const) {
      const proxy = await startFailingProxy(mode);
      const gw = await startTestGateway({ TRAWL_PROXY_URL: proxy.url });
      try {
        const res = await gw.call('POST', '/v1/fetch', { url: `${site.origin('fallback.test')}/article` });
        expect(res.status, mode).toBe(200);
        const { result } = PageRunResponse.parse(await res.json());
        expect(result.audit.retry_stats.total_attempts).toBe(2);
        expect(result.audit.fallback_reasons.length).toBe(1);
        expect(result.audit.fallback_events).toHaveLength(1);
        expect(result.audit.fallback_events[0]).toMatchObject({ kind: 'route', from: 'proxy', to: 'direct' });
        expect(JSON.stringify(result.audit)).not.toContain(proxy.url);
      } finally {
        await gw.close();
        await proxy.close();
      }
    }
  });
});
