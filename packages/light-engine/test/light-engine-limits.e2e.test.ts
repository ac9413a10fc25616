import { describe, expect, it } from 'vitest';
import { createLightEngine } from '../src/index.ts';
import { testGuard, useFixtureEngine, within } from './test-setup.ts';

const fx = useFixtureEngine();

const page = (path: string, host = 'limits.test') => `${fx.site.origin(host)}${path}`;

describe('light engine body limit', () => {
  it('aborts an endless body as soon as it passes maxBodyBytes', async () => {
    const began = Date.now();
    const r = await fx.engine.fetch({ url: page('/endless'), deadline: within(20_000), maxBodyBytes: 256 * 1024 });
    expect(r).toMatchObject({ ok: false, failure: 'body_size_limit', retryable: false, statusCode: 200 });
    expect(r.attempts).toEqual([{ route: 'direct', outcome: 'limit', elapsed_ms: expect.any(Number) }]);
    expect(Date.now() - began).toBeLessThan(15_000); // ended by the limit, not by the deadline
  });

  it('applies the 10 MiB default to an endless body', async () => {
    const r = await fx.engine.fetch({ url: page('/endless'), deadline: within(50_000) });
    expect(r).toMatchObject({ ok: false, failure: 'body_size_limit', retryable: false });
  });

  it('refuses a declared Content-Length above the limit without waiting for the body', async () => {
    // The fixture sends 64 KiB of its declared 20 MiB and then stalls: only the header can end this early.
    const r = await fx.engine.fetch({ url: page('/big-declared'), deadline: within(20_000) });
    expect(r).toMatchObject({ ok: false, failure: 'body_size_limit', retryable: false });
  });

  it('accepts a body of exactly maxBodyBytes and refuses one byte less of allowance', async () => {
    const full = await fx.engine.fetch({ url: page('/bench-20kb'), deadline: within(10_000) });
    if (!full.ok) throw new Error('expected the bench page');
    const size = full.body.length;
    expect(size).toBeGreaterThan(19 * 1024);
    expect(size).toBeLessThanOrEqual(20 * 1024);
    expect(await fx.engine.fetch({ url: page('/bench-20kb'), deadline: within(10_000), maxBodyBytes: size })).toMatchObject({ ok: true });
    expect(await fx.engine.fetch({ url: page('/bench-20kb'), deadline: within(10_000), maxBodyBytes: size - 1 })).toMatchObject({
      ok: false,
      failure: 'body_size_limit',
    });
  });
});

describe('light engine deadline', () => {
  it('fails with timeout, retryable, when the page is slower than the deadline', async () => {
    const began = Date.now();
    const r = await fx.engine.fetch({ url: page('/slow?ms=5000'), deadline: within(400) });
    expect(r).toMatchObject({ ok: false, failure: 'timeout', retryable: true });
    expect(r.attempts).toEqual([{ route: 'direct', outcome: 'timeout', elapsed_ms: expect.any(Number) }]);
    expect(Date.now() - began).toBeLessThan(4_000); // does not wait for the page
  });

  it('fails with timeout at once when the deadline has already passed, sending nothing', async () => {
    const r = await fx.engine.fetch({ url: page('/article', 'late.test'), deadline: Date.now() - 1 });
    expect(r).toMatchObject({ ok: false, failure: 'timeout', retryable: true });
    expect(fx.site.hits(undefined, 'late.test')).toBe(0);
  });

  it('ends with timeout when the caller aborts', async () => {
    const ctl = new AbortController();
    const pending = fx.engine.fetch({ url: page('/slow?ms=5000'), deadline: within(20_000), signal: ctl.signal });
    setTimeout(() => ctl.abort(), 100);
    expect(await pending).toMatchObject({ ok: false, failure: 'timeout' });
  });

  it('ends in-flight fetches with network_error when the engine closes', async () => {
    const own = createLightEngine({ guard: testGuard() });
    const pending = own.fetch({ url: page('/slow?ms=5000'), deadline: within(20_000) });
    await new Promise((r) => setTimeout(r, 100));
    await own.close();
    expect(await pending).toMatchObject({ ok: false, failure: 'network_error', retryable: true });
    await expect(own.fetch({ url: page('/article'), deadline: within(1_000) })).rejects.toThrow('closed');
  });
});

describe('light engine responses', () => {
  it('returns any HTTP status as ok with its status code and body', async () => {
    for (const code of [404, 500, 503]) {
      const r = await fx.engine.fetch({ url: page(`/status/${code}`), deadline: within(10_000) });
      expect(r, String(code)).toMatchObject({ ok: true, statusCode: code });
      if (r.ok) expect(r.body.toString()).toContain(String(code));
    }
    const empty = await fx.engine.fetch({ url: page('/status/204'), deadline: within(10_000) });
    expect(empty).toMatchObject({ ok: true, statusCode: 204 });
    if (empty.ok) expect(empty.body.length).toBe(0);
  });

  it('reports content type and headers', async () => {
    const r = await fx.engine.fetch({ url: page('/data.json'), deadline: within(10_000) });
    if (!r.ok) throw new Error('expected ok');
    expect(r.contentType).toBe('application/json; charset=utf-8');
    expect(r.headers['content-length']).toBe(String(r.body.length));
    expect(JSON.parse(r.body.toString()).harbour).toBe('Kelby Haven');
  });

  it('sends the configured User-Agent, unless the request sets its own', async () => {
    const own = createLightEngine({ guard: testGuard(), userAgent: 'TrawlTest/1.0 (+fixture)' });
    const r = await own.fetch({ url: page('/echo-headers'), deadline: within(10_000) });
    const overridden = await own.fetch({ url: page('/echo-headers'), deadline: within(10_000), headers: { 'User-Agent': 'Caller/2' } });
    await own.close();
    if (!r.ok || !overridden.ok) throw new Error('expected ok');
    expect(JSON.parse(r.body.toString())['user-agent']).toBe('TrawlTest/1.0 (+fixture)');
    expect(JSON.parse(overridden.body.toString())['user-agent']).toBe('Caller/2');
  });
});
