import { afterAll, beforeAll, describe, expect, it } from 'vitest';
import { startCanary, startCanaryWithDecoy, type Canary } from '@trawl/test-support/canary.ts';
import { startFixtureSite, startForwardProxy, type FixtureSite } from '@trawl/test-support/fixture-site.ts';
import { createLightEngine } from '../src/index.ts';
import { FIXTURE_RULES, testGuard, within } from './test-setup.ts';

// Real traffic goes only to loopback: refused targets are aimed at a canary on 127.0.0.2 that counts connections.
const RULES = `MAP *.canary.internal 127.0.0.2, ${FIXTURE_RULES}`;

let site: FixtureSite;
let canary: Canary;
beforeAll(async () => {
  site = await startFixtureSite();
  canary = await startCanary();
});
afterAll(async () => {
  await site?.close();
  await canary?.close();
});

function vectors(): string[] {
  const p = canary.port;
  return [
    `http://127.0.0.2:${p}/`,
    `http://2130706434:${p}/`,
    `http://017700000002:${p}/`,
    `http://0x7f000002:${p}/`,
    `http://0x7f.0.0.2:${p}/`,
    `http://127.0.0.2.:${p}/`,
    `http://[::ffff:127.0.0.2]:${p}/`,
    `http://[::ffff:7f00:2]:${p}/`,
    `http://a.canary.internal:${p}/`,
    `https://a.canary.internal:${p}/`,
    `${site.origin('site.test')}/redirect-to?url=${encodeURIComponent(`http://127.0.0.2:${p}/`)}`,
    `${site.origin('site.test')}/redirect-to?url=${encodeURIComponent(`http://2130706434:${p}/`)}`,
    `${site.origin('site.test')}/redirect-to?url=${encodeURIComponent(`http://b.canary.internal:${p}/`)}`,
  ];
}

describe('light engine SSRF guard, end to end', () => {
  it('refuses every spelling of the canary address, a name mapped to it and a redirect to it; the canary sees nothing', async () => {
    const engine = createLightEngine({ guard: testGuard({ allowPrivate: ['127.0.0.1/32'], rules: RULES }) });
    try {
      for (const url of vectors()) {
        const r = await engine.fetch({ url, deadline: within(10_000) });
        expect(r, url).toMatchObject({ ok: false, failure: 'blocked_target', retryable: false });
        expect(r.attempts.at(-1)?.outcome, url).toBe('blocked');
      }
      expect(canary.connections()).toBe(0);
    } finally {
      await engine.close();
    }
  });

  it('follows a public-looking redirect, then refuses the private hop it leads to', async () => {
    const engine = createLightEngine({ guard: testGuard({ rules: RULES }) });
    const url = `${site.origin('hop.test')}/redirect-to?url=${encodeURIComponent(`http://127.0.0.2:${canary.port}/`)}`;
    const r = await engine.fetch({ url, deadline: within(10_000) });
    expect(r).toMatchObject({ ok: false, failure: 'blocked_target', redirects: 1 });
    expect(canary.connections()).toBe(0);
    expect(site.hits('/redirect-to', 'hop.test')).toBe(1);
    await engine.close();
  });

  it('refuses [::1] without needing a listener', async () => {
    const engine = createLightEngine({ guard: testGuard() });
    const r = await engine.fetch({ url: `http://[::1]:${canary.port}/`, deadline: within(5_000) });
    expect(r).toMatchObject({ ok: false, failure: 'blocked_target' });
    await engine.close();
  });

  it('refuses non-http schemes', async () => {
    const engine = createLightEngine({ guard: testGuard() });
    for (const url of ['file:///etc/passwd', 'ftp://site.test/', 'gopher://127.0.0.1:70/']) {
      expect(await engine.fetch({ url, deadline: within(5_000) }), url).toMatchObject({ ok: false, failure: 'blocked_target' });
    }
    const viaRedirect = `${site.origin('site.test')}/redirect-to?url=${encodeURIComponent('file:///etc/passwd')}`;
    expect(await engine.fetch({ url: viaRedirect, deadline: within(5_000) })).toMatchObject({ ok: false, failure: 'blocked_target' });
    await engine.close();
  });

  it('checks the target before asking a proxy, so a refused target never reaches the proxy', async () => {
    const proxy = await startForwardProxy();
    const engine = createLightEngine({ guard: testGuard({ rules: RULES }), proxyUrl: proxy.url });
    try {
      for (const url of vectors()) {
        const r = await engine.fetch({ url, deadline: within(10_000) });
        expect(r, url).toMatchObject({ ok: false, failure: 'blocked_target' });
        expect(r.attempts.map((a) => a.route), url).toEqual(['proxy']);
      }
      // Only the redirect vectors' first hops (to the fixture site) went through the proxy.
      expect(proxy.requests()).toBe(3);
      expect(canary.connections()).toBe(0);
    } finally {
      await engine.close();
      await proxy.close();
    }
  });

  it('reaches the canary only once TRAWL_ALLOW_PRIVATE lists it', async () => {
    const engine = createLightEngine({ guard: testGuard({ allowPrivate: ['127.0.0.1/32', '127.0.0.2/32'], rules: RULES }) });
    try {
      const before = canary.requests();
      const p = canary.port;
      const urls = [
        `http://127.0.0.2:${p}/`,
        `http://2130706434:${p}/`,
        `http://[::ffff:127.0.0.2]:${p}/`,
        `http://a.canary.internal:${p}/`,
        `${site.origin('site.test')}/redirect-to?url=${encodeURIComponent(`http://b.canary.internal:${p}/`)}`,
      ];
      for (const url of urls) {
        const r = await engine.fetch({ url, deadline: within(10_000) });
        expect(r, url).toMatchObject({ ok: true, statusCode: 200 });
        if (r.ok) expect(r.body.toString()).toContain('canary reached');
      }
      expect(canary.requests()).toBe(before + urls.length);
    } finally {
      await engine.close();
    }
  });
});

describe('the socket goes to the address the guard checked', () => {
  it('https through got-scraping opens no socket of its own: localhost mapped to the canary never lands on 127.0.0.1', async () => {
    const { canary: c, decoy, close } = await startCanaryWithDecoy();
    const rules = 'MAP localhost 127.0.0.2';
    try {
      const refused = createLightEngine({ guard: testGuard({ allowPrivate: ['127.0.0.1/32'], rules }) });
      const r1 = await refused.fetch({ url: `https://localhost:${c.port}/`, deadline: within(5_000) });
      expect(r1).toMatchObject({ ok: false, failure: 'blocked_target' });
      expect(c.connections() + decoy.connections()).toBe(0);
      await refused.close();

      // Allowed: the TLS handshake meets a plain-HTTP canary and fails, but it must have gone to the canary.
      const allowed = createLightEngine({ guard: testGuard({ allowPrivate: ['127.0.0.2/32'], rules }) });
      const r2 = await allowed.fetch({ url: `https://localhost:${c.port}/`, deadline: within(5_000) });
      expect(r2).toMatchObject({ ok: false, failure: 'network_error' });
      expect(c.connections()).toBeGreaterThanOrEqual(1);
      expect(decoy.connections()).toBe(0);
      await allowed.close();
    } finally {
      await close();
    }
  });

  it('resolves once per hop and connects to that answer even when DNS changes its mind (rebinding)', async () => {
    const { canary: c, decoy, close } = await startCanaryWithDecoy();
    const answers = ['127.0.0.2', '127.0.0.1'];
    const calls: string[] = [];
    const lookup = async (name: string) => {
      calls.push(name);
      return [{ address: answers[Math.min(calls.length - 1, answers.length - 1)], family: 4 as const }];
    };
    const engine = createLightEngine({ guard: testGuard({ allowPrivate: ['127.0.0.0/8'], rules: '', lookup }) });
    try {
      const r = await engine.fetch({ url: `http://rebind.example:${c.port}/`, deadline: within(5_000) });
      expect(r).toMatchObject({ ok: true, statusCode: 200 });
      expect(calls).toEqual(['rebind.example']);
      expect(c.requests()).toBe(1);
      expect(decoy.connections()).toBe(0);
    } finally {
      await engine.close();
      await close();
    }
  });
});
