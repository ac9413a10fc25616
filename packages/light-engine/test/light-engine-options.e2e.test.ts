import { describe, expect, it } from 'vitest';
import { useFixtureEngine, within } from './test-setup.ts';

const fx = useFixtureEngine();

describe('light engine request options', () => {
  it('sends POST with an empty body and the caller’s headers', async () => {
    const r = await fx.engine.fetch({
      url: `${fx.site.origin('post.test')}/echo-headers`,
      deadline: within(10_000),
      method: 'POST',
      headers: { cookie: 'NID=abc', accept: 'application/json' },
    });
    expect(r.ok).toBe(true);
    if (!r.ok) return;
    const echoed = JSON.parse(r.body.toString()) as Record<string, string>;
    expect(echoed['content-length']).toBe('0');
    expect(echoed.cookie).toBe('NID=abc');
    expect(echoed.accept).toBe('application/json');
  });

  it('answers a redirect as the response when told not to follow it', async () => {
    const r = await fx.engine.fetch({ url: `${fx.site.origin('nofollow.test')}/redirect/3`, deadline: within(10_000), followRedirects: false });
    expect(r).toMatchObject({ ok: true, statusCode: 302, redirects: 0 });
    if (r.ok) expect(r.headers.location).toMatch(/\/redirect\/2$/);
    expect(fx.site.hits('/redirect/2', 'nofollow.test')).toBe(0);
  });
});
