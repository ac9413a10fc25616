import { afterAll, beforeAll, describe, expect, it } from 'vitest';
import { adminReference, createAdminRouter } from '@trawl/admin';
import { startTestGateway, type TestGateway } from '@trawl/test-support/gateway.ts';
import { renderReference } from '@trawl/test-support/reference-page.ts';

/**
 * The references a person reads: /docs renders every operation of the public document in Chromium from assets the
 * gateway serves itself (no request leaves it, nothing the page's policy blocks), and /docs/admin documents every
 * admin procedure from the router, whether or not this gateway mounts /admin.
 */
let gw: TestGateway;
beforeAll(async () => {
  gw = await startTestGateway({ LOG_LEVEL: 'warn', TRAWL_DATA_DIR: ':memory:', TRAWL_WORKERS: '0' });
});
afterAll(async () => {
  await gw?.close();
});

describe('/docs', () => {
  it('renders every operation of the public document, loading nothing from anywhere but the gateway', async () => {
    const doc = (await (await fetch(`${gw.url}/api-docs/public-v1/openapi`)).json()) as { paths: Record<string, Record<string, unknown>> };
    const operations = Object.entries(doc.paths).flatMap(([path, item]) => Object.keys(item).map((method) => `${method.toUpperCase()} ${path}`));
    const page = await renderReference(gw.url, { minOperations: operations.length });
    expect(page.title).toBe('Trawl API reference');
    expect(page.operations.sort()).toEqual(operations.sort());
    expect(page.requests.filter((u) => !u.startsWith(`${gw.url}/`))).toEqual([]);
    expect(page.requests).toContain(`${gw.url}/docs/json`);
    expect(page.errors).toEqual([]);
  });

  it('serves its assets with a policy that allows this origin only', async () => {
    const res = await fetch(`${gw.url}/docs`);
    expect(res.headers.get('content-type')).toContain('text/html');
    const csp = res.headers.get('content-security-policy')!;
    expect(csp).toContain("default-src 'self'");
    expect(csp).toMatch(/script-src 'self'\s*;/);
    expect(csp).not.toMatch(/https:|validator\.swagger\.io|upgrade-insecure-requests/);
    expect(await res.text()).not.toMatch(/https?:\/\//);
    const bundle = await fetch(`${gw.url}/docs/static/swagger-ui-bundle.js`);
    expect(bundle.status).toBe(200);
    expect((await bundle.arrayBuffer()).byteLength).toBeGreaterThan(100_000);
  });
});

describe('/docs/admin', () => {
  it('documents every admin procedure with its input fields and rules, with no script', async () => {
    const res = await fetch(`${gw.url}/docs/admin`);
    expect(res.status).toBe(200);
    expect(res.headers.get('content-security-policy')).toContain("default-src 'none'");
    const html = await res.text();
    expect(html).not.toContain('<script');
    const procedures = adminReference(createAdminRouter({} as never));
    expect(procedures.length).toBeGreaterThanOrEqual(24);
    for (const p of procedures) {
      expect(p.description.length, p.path).toBeGreaterThan(20);
      expect(p.returns, p.path).toBeTruthy();
      expect(html, p.path).toContain(`<section id="${p.path}">`);
      expect(html, p.path).toContain(p.kind === 'query' ? `GET /admin/${p.path}?input=` : `POST /admin/${p.path}`);
    }
    const keysCreate = html.slice(html.indexOf('<section id="keys.create">'), html.indexOf('<section id="keys.list">'));
    expect(keysCreate).toContain('<code>label</code></td><td>string</td><td>yes</td><td></td><td>1 to 100 characters');
    expect(keysCreate).toContain('array of &#34;fetch&#34; | &#34;crawl&#34; | &#34;trends&#34; | &#34;runs&#34;');
    expect(keysCreate).toContain('npx trawl admin keys.create team_id=team_… label=ci');
  });
});
