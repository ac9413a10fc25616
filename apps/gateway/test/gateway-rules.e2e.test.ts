import { afterAll, beforeAll, describe, expect, it } from 'vitest';
import { PublicErrorResponse } from '@trawl/contract';
import { startTestGateway, TEST_KEY, type TestGateway } from '@trawl/test-support/gateway.ts';

let gw: TestGateway;
beforeAll(async () => {
  gw = await startTestGateway();
});
afterAll(async () => {
  await gw?.close();
});

async function errorOf(res: Response) {
  const body = PublicErrorResponse.parse(await res.json());
  expect(res.headers.get('x-request-id')).toBe(body.error.request_id);
  return body.error;
}

describe('authentication', () => {
  it('rejects a request without a key with 401 authentication_required', async () => {
    const res = await gw.call('POST', '/v1/fetch', { url: 'http://site.test/' }, { authorization: '' });
    expect(res.status).toBe(401);
    expect((await errorOf(res)).code).toBe('authentication_required');
  });

  it('rejects an unknown key and a malformed header alike', async () => {
    for (const authorization of ['Bearer nope-0123456789', 'Basic abc', `bearer ${TEST_KEY}`, `Bearer ${TEST_KEY} x`]) {
      const res = await gw.call('GET', '/v1/runs/run_x', undefined, { authorization });
      expect(res.status).toBe(401);
      expect((await errorOf(res)).code).toBe('authentication_required');
    }
  });

  it('answers 403 permission_denied to a key without the route scope', async () => {
    const team = (await gw.ctx.store.findTeamByName('default'))!;
    const { secret } = await gw.ctx.store.createApiKey(team.id, { label: 'reader', scopes: ['runs'] });
    const res = await gw.call('POST', '/v1/fetch', { url: 'http://site.test/' }, { authorization: `Bearer ${secret}` });
    expect(res.status).toBe(403);
    const e = await errorOf(res);
    expect(e.code).toBe('permission_denied');
    expect(e.type).toBe('permission');
  });

  it('checks the key before looking at the body', async () => {
    const res = await gw.call('POST', '/v1/fetch', '{broken', { authorization: '' });
    expect(res.status).toBe(401);
  });
});

describe('request ids', () => {
  it('keeps a plain caller request id and replaces an unsafe one', async () => {
    const kept = await gw.call('GET', '/v1/runs/run_x', undefined, { 'x-request-id': 'trace-1234abcd' });
    expect(kept.headers.get('x-request-id')).toBe('trace-1234abcd');
    const replaced = await gw.call('GET', '/v1/runs/run_x', undefined, { 'x-request-id': 'bad id <script>' });
    expect(replaced.headers.get('x-request-id')).toMatch(/^req_[A-Za-z0-9_-]+$/);
  });

  it('puts a request id on successful responses too', async () => {
    const res = await fetch(`${gw.url}/api-docs/fetch.md`);
    expect(res.status).toBe(200);
    expect(res.headers.get('x-request-id')).toMatch(/^req_/);
  });
});

describe('bad input never yields a 500', () => {
  it('malformed JSON is 400 invalid_request', async () => {
    const res = await gw.call('POST', '/v1/fetch', '{"url": ');
    expect(res.status).toBe(400);
    expect((await errorOf(res)).code).toBe('invalid_request');
  });

  it('a wrong or missing content type is 400 invalid_request', async () => {
    for (const ct of ['text/plain', 'application/x-www-form-urlencoded', 'application/xml']) {
      const res = await gw.call('POST', '/v1/fetch', 'url=http://x', { 'content-type': ct });
      expect(res.status).toBe(400);
      expect((await errorOf(res)).code).toBe('invalid_request');
    }
  });

  it('an unknown body field is 400 unsupported_feature naming the field', async () => {
    const res = await gw.call('POST', '/v1/fetch', { url: 'http://site.test/', formats: ['markdown'] });
    expect(res.status).toBe(400);
    const e = await errorOf(res);
    expect(e.code).toBe('unsupported_feature');
    expect(e.details.fields).toEqual(['formats']);
    expect(e.message).toContain('formats');
  });

  it('a schema violation is 400 validation_error naming the field path', async () => {
    const cases: [unknown, string][] = [
      [{}, 'url'],
      [{ url: 42 }, 'url'],
      [{ url: 'ftp://example.com/' }, 'url'],
      [{ url: 'http://user:pw@example.com/' }, 'url'],
      [{ url: '/relative' }, 'url'],
      [[], '(root)'],
      ['"just a string"', '(root)'],
      [null, '(root)'],
    ];
    for (const [body, field] of cases) {
      const res = await gw.call('POST', '/v1/fetch', typeof body === 'string' ? body : JSON.stringify(body));
      expect(res.status, JSON.stringify(body)).toBe(400);
      const e = await errorOf(res);
      expect(e.code).toBe('validation_error');
      expect(e.details.field).toBe(field);
      expect(e.retryable).toBe(false);
    }
  });

  it('prototype-pollution keys and oversized bodies are refused cleanly', async () => {
    const proto = await gw.call('POST', '/v1/fetch', '{"url":"http://site.test/","__proto__":{"x":1}}');
    expect(proto.status).toBe(400);
    const big = await gw.call('POST', '/v1/fetch', JSON.stringify({ url: 'http://site.test/' + 'a'.repeat(3_000_000) }));
    expect(big.status).toBe(400);
    expect((await errorOf(big)).code).toBe('invalid_request');
  });

  it('an unknown /v1 path is 404 in the error shape (a known path with another method: error-shape.e2e.test.ts)', async () => {
    for (const [method, path] of [
      ['GET', '/v1/nothing'],
      ['DELETE', '/v1/fetches'],
      ['GET', '/v2/fetch'],
    ]) {
      const res = await gw.call(method, path);
      expect(res.status).toBe(404);
      expect((await errorOf(res)).code).toBe('route_not_found');
    }
  });

  it('an unsafe Idempotency-Key header is 400 invalid_request', async () => {
    const res = await gw.call('POST', '/v1/fetch', { url: 'http://site.test/' }, { 'idempotency-key': 'x'.repeat(300) });
    expect(res.status).toBe(400);
    expect((await errorOf(res)).code).toBe('invalid_request');
  });
});

describe('logs', () => {
  it('carry the request id and never the API key or Authorization header', async () => {
    await gw.call('GET', '/v1/runs/run_logcheck', undefined, { 'x-request-id': 'log-check-0001' });
    const text = JSON.stringify(gw.logs);
    expect(text).not.toContain(TEST_KEY);
    expect(text.toLowerCase()).not.toContain('bearer');
    expect(gw.logs.some((l) => l.request_id === 'log-check-0001')).toBe(true);
  });
});

describe('readiness', () => {
  it('is ready with its store and browser, not ready (503) when the browser cannot start; /healthz stays liveness', async () => {
    const ready = await fetch(`${gw.url}/readyz`);
    expect(ready.status).toBe(200);
    expect(await ready.json()).toEqual({ ok: true, status: 'ready', store: 'ok', browser: 'ok' });
    const noBrowser = await startTestGateway({ TRAWL_CHROMIUM_PATH: '/nonexistent/chromium', TRAWL_WORKERS: '0' });
    try {
      const r = await fetch(`${noBrowser.url}/readyz`);
      expect(r.status).toBe(503);
      expect(await r.json()).toEqual({ ok: false, status: 'not_ready', store: 'ok', browser: 'unavailable' });
      expect((await fetch(`${noBrowser.url}/healthz`)).status).toBe(200);
    } finally {
      await noBrowser.close();
    }
  });
});
