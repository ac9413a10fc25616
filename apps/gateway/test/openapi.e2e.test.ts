import { afterAll, beforeAll, describe, expect, it } from 'vitest';
import { Validator } from '@seriousme/openapi-schema-validator';
import { ARTIFACT_CONTENT_TYPES } from '@trawl/contract';
import { startTestGateway, type TestGateway } from '@trawl/test-support/gateway.ts';

let gw: TestGateway;
const routes: { method: string; url: string }[] = [];
beforeAll(async () => {
  gw = await startTestGateway();
  // Every route fastify registered, so a new /v1 route cannot miss the document.
  routes.push(...gw.app.routeList);
});
afterAll(async () => {
  await gw?.close();
});

async function doc(path: string) {
  const res = await fetch(`${gw.url}${path}`);
  expect(res.status).toBe(200);
  return (await res.json()) as Record<string, any>;
}

describe('OpenAPI document', () => {
  it('is a valid OpenAPI 3.1 document served without a key', async () => {
    const d = await doc('/api-docs/public-v1/openapi');
    expect(d.openapi).toBe('3.1.0');
    const result = await new Validator().validate(d);
    expect(result.errors ?? []).toEqual([]);
    expect(result.valid).toBe(true);
  });

  it('lists every /v1 route the gateway serves', async () => {
    const d = await doc('/api-docs/public-v1/openapi');
    const v1 = routes.filter((r) => r.url.startsWith('/v1/') && r.method !== 'HEAD');
    expect(v1.length).toBeGreaterThanOrEqual(3);
    for (const r of v1) {
      const path = r.url.replace(/:([A-Za-z_]+)/g, '{$1}');
      expect(d.paths[path]?.[r.method.toLowerCase()], `${r.method} ${path}`).toBeDefined();
    }
  });

  it('derives its schemas and error codes from the contract', async () => {
    const d = await doc('/api-docs/public-v1/openapi');
    for (const name of ['FetchRequestInput', 'PageRunResponse', 'PublicRun', 'PublicPageResult', 'CrawlRequestInput', 'PublicError']) {
      expect(d.components.schemas[name], name).toBeDefined();
    }
    const fetchOp = d.paths['/v1/fetch'].post;
    expect(fetchOp.operationId).toBe('fetchPage');
    expect(Object.keys(fetchOp.responses).sort()).toEqual(
      ['200', '400', '401', '402', '403', '408', '409', '429', '500', '502', '503'].sort(),
    );
    expect(d.components.schemas.PublicError.properties.code.enum).toContain('payment_required');
  });

  it('documents 429 quota_exceeded on every creation that draws on a quota, and the quota resources of a run', async () => {
    const d = await doc('/api-docs/public-v1/openapi');
    for (const path of ['/v1/fetch', '/v1/browser-scrape', '/v1/crawl', '/v1/search-trends/related-queries']) {
      expect(d.paths[path].post.responses['429'].description, path).toMatch(/`rate_limited`, `quota_exceeded`/);
    }
    expect(d.paths['/v1/runs/{run_id}'].get.responses['429'].description).not.toContain('quota_exceeded');
    // A full data directory (TRAWL_DATA_MAX_BYTES) refuses every creation with 503, so each documents it.
    for (const path of ['/v1/fetch', '/v1/browser-scrape', '/v1/crawl', '/v1/search-trends/related-queries']) {
      expect(d.paths[path].post.responses['503'].description, path).toContain('`service_unavailable`');
    }
    expect(d.components.schemas.PublicRun.properties.quota.properties.resource.enum).toEqual(['crawl_pages', 'scrape', 'browser_scrape', 'trends']);
  });

  it('documents X-Request-Id on every answer, the RateLimit headers on every answer after auth, and Retry-After on 429 and 503', async () => {
    const d = await doc('/api-docs/public-v1/openapi');
    for (const [path, item] of Object.entries(d.paths as Record<string, Record<string, any>>)) {
      for (const [method, op] of Object.entries(item)) {
        expect(op.responses['429'], `${method} ${path}`).toBeDefined();
        for (const [status, r] of Object.entries(op.responses as Record<string, any>)) {
          const names = Object.keys(r.headers ?? {});
          expect(r.headers['X-Request-Id'], `${method} ${path} ${status}`).toMatchObject({ required: true, schema: { type: 'string' } });
          const rateLimit = ['RateLimit-Limit', 'RateLimit-Remaining', 'RateLimit-Reset'];
          if (status === '401') expect(names.filter((n) => rateLimit.includes(n)), `${method} ${path} ${status}`).toEqual([]);
          else expect(names, `${method} ${path} ${status}`).toEqual(expect.arrayContaining(rateLimit));
        }
        expect(op.responses['429'].headers['Retry-After'].schema).toMatchObject({ type: 'integer', minimum: 1 });
        if (op.responses['503']) expect(op.responses['503'].headers['Retry-After'].schema).toMatchObject({ type: 'integer', minimum: 1 });
      }
    }
  });

  it('documents Idempotency-Key with the rule the gateway checks, and Idempotent-Replayed on replayable answers', async () => {
    const d = await doc('/api-docs/public-v1/openapi');
    for (const path of ['/v1/fetch', '/v1/browser-scrape', '/v1/crawl', '/v1/search-trends/related-queries']) {
      const op = d.paths[path].post;
      const key = op.parameters.find((p: any) => p.in === 'header' && p.name === 'idempotency-key');
      expect(key.schema, path).toMatchObject({ minLength: 1, maxLength: 255 });
      const pattern = new RegExp(key.schema.pattern);
      expect(pattern.test('order-2026-11-27#1')).toBe(true);
      expect(pattern.test('with space')).toBe(false);
      const success = Object.keys(op.responses).find((s) => s.startsWith('2'))!;
      expect(op.responses[success].headers['Idempotent-Replayed'], path).toBeDefined();
      expect(op.responses['409'].headers['Retry-After'], path).toBeDefined();
      expect(op.responses['400'].headers['Idempotent-Replayed'], path).toBeUndefined();
    }
  });

  it('names its servers, license and tags, and describes every operation', async () => {
    const d = await doc('/api-docs/public-v1/openapi');
    expect(d.servers[0]).toMatchObject({ url: '/' });
    expect(d.servers[1]).toMatchObject({ url: 'http://{host}:{port}', variables: { host: { default: '127.0.0.1' }, port: { default: '8080' } } });
    expect(d.info.license).toEqual({ name: 'Apache-2.0', identifier: 'Apache-2.0' });
    expect(d.info.description).toContain('/docs/admin');
    expect((d.tags as any[]).map((t) => t.name)).toEqual(['fetch', 'crawl', 'search-trends', 'runs']);
    for (const t of d.tags) expect(t.description, t.name).toBeTruthy();
    for (const [path, item] of Object.entries(d.paths as Record<string, Record<string, any>>)) {
      for (const [method, op] of Object.entries(item)) {
        expect(op.summary, `${method} ${path}`).toBeTruthy();
        for (const p of op.parameters ?? []) expect(p.description, `${method} ${path} ${p.name}`).toBeTruthy();
        for (const [status, r] of Object.entries(op.responses as Record<string, any>)) {
          expect(r.description, `${method} ${path} ${status}`).not.toBe('Default Response');
        }
      }
    }
  });

  it('gives each artifact kind its exact content type, with the headers of a download', async () => {
    const d = await doc('/api-docs/public-v1/openapi');
    const ok = d.paths['/v1/runs/{run_id}/artifacts/{key}'].get.responses['200'];
    expect(Object.keys(ok.content).sort()).toEqual(Object.values(ARTIFACT_CONTENT_TYPES).sort());
    expect(ok.content['image/png'].schema).toMatchObject({ type: 'string', contentMediaType: 'image/png' });
    expect(ok.headers['Cache-Control'].schema.enum).toEqual(['private, no-store']);
    expect(ok.headers['X-Content-Type-Options'].schema.enum).toEqual(['nosniff']);
  });

  it('lists only the component schemas its operations use', async () => {
    const d = await doc('/api-docs/public-v1/openapi');
    const text = JSON.stringify(d.paths) + JSON.stringify(d.components.schemas);
    for (const name of Object.keys(d.components.schemas)) expect(text, name).toContain(`"#/components/schemas/${name}"`);
  });

  it('serves a valid per-area document with only that area', async () => {
    for (const area of ['fetch', 'runs', 'crawl', 'search-trends']) {
      const d = await doc(`/api-docs/public-v1/openapi/${area}`);
      const result = await new Validator().validate(d);
      expect(result.valid, area).toBe(true);
      for (const item of Object.values(d.paths) as Record<string, any>[]) {
        for (const op of Object.values(item)) expect(op.tags).toContain(area);
      }
    }
    const fetchDoc = await doc('/api-docs/public-v1/openapi/fetch');
    expect(Object.keys(fetchDoc.paths).sort()).toEqual(['/v1/browser-scrape', '/v1/fetch']);
  });

  it('has Markdown counterparts', async () => {
    const res = await fetch(`${gw.url}/api-docs/fetch.md`);
    expect(res.headers.get('content-type')).toContain('text/markdown');
    const md = await res.text();
    expect(md).toContain('## POST /v1/fetch');
    expect(md).toContain('`fetchPage`');
    expect(md).toContain('| `url` |');
    expect(md).toContain('`payment_required`');
    expect((await fetch(`${gw.url}/api-docs/nothing.md`)).status).toBe(404);
  });
});

describe('with TRAWL_ADMIN_TOKEN set', () => {
  it('the public document is the same: the admin API is never part of it', async () => {
    const admin = await startTestGateway({ TRAWL_ADMIN_TOKEN: 'admin-token-0123456789abcdef', TRAWL_DATA_DIR: ':memory:', TRAWL_WORKERS: '0', LOG_LEVEL: 'warn' });
    try {
      expect(admin.app.routeList.some((r) => r.url.startsWith('/admin'))).toBe(true);
      const withAdmin = (await (await fetch(`${admin.url}/api-docs/public-v1/openapi`)).json()) as Record<string, any>;
      expect(Object.keys(withAdmin.paths).filter((p) => !p.startsWith('/v1/'))).toEqual([]);
      expect(withAdmin).toEqual(await doc('/api-docs/public-v1/openapi'));
      expect(await (await fetch(`${admin.url}/docs/json`)).json()).toEqual(withAdmin);
    } finally {
      await admin.close();
    }
  });
});
