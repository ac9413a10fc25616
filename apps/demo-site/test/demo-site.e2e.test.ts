import { afterAll, beforeAll, describe, expect, it } from 'vitest';
import { startDemoSite, type DemoSite } from '../src/demo-site.ts';

let site: DemoSite;
beforeAll(async () => {
  site = await startDemoSite({ port: 0 });
});
afterAll(async () => {
  await site?.close();
});

const hrefs = (html: string) => [...html.matchAll(/href="([^"]+)"/g)].map((m) => m[1]);

describe('the demo site', () => {
  it('serves a handful of linked pages, every link of which answers', async () => {
    const seen = new Set<string>();
    const queue = ['/'];
    while (queue.length > 0) {
      const path = queue.shift()!;
      if (seen.has(path)) continue;
      seen.add(path);
      const res = await fetch(`${site.url}${path}`);
      expect(res.status, path).toBe(200);
      if (!res.headers.get('content-type')!.startsWith('text/html')) continue;
      for (const href of hrefs(await res.text())) {
        const next = new URL(href, `${site.url}${path}`);
        expect(next.origin, `${path} links ${href}`).toBe(site.url);
        queue.push(next.pathname);
      }
    }
    const pages = [...seen].filter((p) => p.endsWith('/') || p.endsWith('.html'));
    expect(pages.length).toBeGreaterThanOrEqual(6);
    expect(pages.length).toBeLessThanOrEqual(12);
  });

  it('answers robots.txt, HEAD, and 404 for anything outside the site or not a page of it', async () => {
    expect((await fetch(`${site.url}/robots.txt`)).status).toBe(200);
    const head = await fetch(`${site.url}/about.html`, { method: 'HEAD' });
    expect(head.status).toBe(200);
    expect(Number(head.headers.get('content-length'))).toBeGreaterThan(500);
    for (const path of ['/nothing.html', '/%2e%2e/package.json', '/..%2fpackage.json', '/%00', '/%E0%A4%A']) {
      const res = await fetch(`${site.url}${path}`);
      expect(res.status, path).toBe(404);
      expect(await res.text()).toContain('Not found');
    }
    expect((await fetch(`${site.url}/`, { method: 'POST' })).status).toBe(405);
  });
});
