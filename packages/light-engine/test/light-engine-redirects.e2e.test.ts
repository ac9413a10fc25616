import { describe, expect, it } from 'vitest';
import { useFixtureEngine, within } from './test-setup.ts';

const fx = useFixtureEngine();

describe('light engine redirects', () => {
  it('follows a chain of 3 redirects and reports the final URL', async () => {
    const url = `${fx.site.origin('chain.test')}/redirect/3`;
    const r = await fx.engine.fetch({ url, deadline: within(10_000) });
    expect(r).toMatchObject({ ok: true, statusCode: 200, url, finalUrl: `${fx.site.origin('chain.test')}/article`, redirects: 3 });
    expect(r.attempts).toEqual([{ route: 'direct', outcome: 'ok', elapsed_ms: expect.any(Number) }]);
    if (r.ok) expect(r.body.toString()).toContain('Tidal Energy in Small Harbours');
  });

  it('follows exactly 10 redirects', async () => {
    const r = await fx.engine.fetch({ url: `${fx.site.origin('ten.test')}/redirect/10`, deadline: within(10_000) });
    expect(r).toMatchObject({ ok: true, statusCode: 200, redirects: 10 });
  });

  it('fails the 11th redirect with redirect_limit, not retryable, without fetching the end of the chain', async () => {
    const r = await fx.engine.fetch({ url: `${fx.site.origin('eleven.test')}/redirect/11`, deadline: within(10_000) });
    expect(r).toMatchObject({ ok: false, failure: 'redirect_limit', retryable: false, redirects: 10, statusCode: 302 });
    expect(r.attempts).toEqual([{ route: 'direct', outcome: 'limit', elapsed_ms: expect.any(Number) }]);
    expect(fx.site.hits('/article', 'eleven.test')).toBe(0);
  });

  it('stops a redirect loop at the limit', async () => {
    const r = await fx.engine.fetch({ url: `${fx.site.origin('loop.test')}/loop`, deadline: within(10_000) });
    expect(r).toMatchObject({ ok: false, failure: 'redirect_limit', retryable: false });
    expect(fx.site.hits('/loop', 'loop.test')).toBe(11);
  });

  it('honours a smaller maxRedirects', async () => {
    const r = await fx.engine.fetch({ url: `${fx.site.origin('small.test')}/redirect/3`, deadline: within(10_000), maxRedirects: 2 });
    expect(r).toMatchObject({ ok: false, failure: 'redirect_limit', redirects: 2 });
  });

  it('asks allowRedirect about every hop and fails with out_of_scope_redirect when it says no', async () => {
    const seen: [string, string][] = [];
    const target = `${fx.site.origin('elsewhere.test')}/article`;
    const url = `${fx.site.origin('scope.test')}/redirect-to?url=${encodeURIComponent(target)}`;
    const r = await fx.engine.fetch({
      url,
      deadline: within(10_000),
      allowRedirect: (from, to) => {
        seen.push([from.href, to.href]);
        return from.hostname === to.hostname;
      },
    });
    expect(r).toMatchObject({ ok: false, failure: 'out_of_scope_redirect', retryable: false, statusCode: 302, redirects: 0 });
    expect(seen).toEqual([[url, target]]);
    expect(fx.site.hits('/article', 'elsewhere.test')).toBe(0);
  });

  it('follows redirects that allowRedirect accepts', async () => {
    const r = await fx.engine.fetch({ url: `${fx.site.origin('inscope.test')}/redirect/2`, deadline: within(10_000), allowRedirect: () => true });
    expect(r).toMatchObject({ ok: true, redirects: 2 });
  });

  it('keeps credentials on same-origin hops and drops them when a redirect leaves the origin', async () => {
    const headers = { authorization: 'Bearer secret-token', cookie: 'sid=1', 'x-trace': 'keep-me' };
    const same = await fx.engine.fetch({
      url: `${fx.site.origin('creds.test')}/redirect-to?url=/echo-headers`,
      deadline: within(10_000),
      headers,
    });
    const cross = await fx.engine.fetch({
      url: `${fx.site.origin('creds.test')}/redirect-to?url=${encodeURIComponent(`${fx.site.origin('other.test')}/echo-headers`)}`,
      deadline: within(10_000),
      headers,
    });
    if (!same.ok || !cross.ok) throw new Error('expected both fetches to succeed');
    expect(JSON.parse(same.body.toString())).toMatchObject({ authorization: 'Bearer secret-token', cookie: 'sid=1' });
    const crossHeaders = JSON.parse(cross.body.toString());
    expect(crossHeaders.authorization).toBeUndefined();
    expect(crossHeaders.cookie).toBeUndefined();
    expect(crossHeaders['x-trace']).toBe('keep-me');
  });
});

describe('host resolver rules in the light engine', () => {
  it('maps several hostnames to the fixture site and sends each its own Host header', async () => {
    for (const host of ['a.example.test', 'news.example.co.uk', 'fx.site.test']) {
      const r = await fx.engine.fetch({ url: `${fx.site.origin(host)}/echo-host`, deadline: within(10_000) });
      expect(r, host).toMatchObject({ ok: true, statusCode: 200 });
      if (r.ok) expect(r.body.toString()).toContain(`${host}:${fx.site.port}`);
      expect(fx.site.hits('/echo-host', host)).toBe(1);
    }
  });

  it('fails a name no rule maps (and that DNS cannot answer) as a retryable network error', async () => {
    const r = await fx.engine.fetch({ url: `http://unmapped.example:${fx.site.port}/`, deadline: within(10_000) });
    expect(r).toMatchObject({ ok: false, failure: 'network_error', retryable: true });
  });
});
