import { gzipSync } from 'node:zlib';
import { afterAll, beforeAll, describe, expect, it } from 'vitest';
import { allItems, sorted, startCrawl, waitForCrawl } from '@trawl/test-support/crawl-client.ts';
import { startCanary, type Canary } from '@trawl/test-support/canary.ts';
import { MODES, startCrawlEnv, workerLogs, type CrawlEnv } from '@trawl/test-support/crawl-modes.ts';
import { startCrawlSite, type CrawlSite } from '@trawl/test-support/crawl-site.ts';

/**
 * Issue 17 item 7: `sitemap` seeds the frontier from robots.txt Sitemap: lines and /sitemap.xml (an index, a
 * gzipped sitemap, a gzip bomb skipped, a sitemap on a refused address never contacted), with scope, path filters
 * and max_pages exact; `only` follows no links; the default fetches no sitemap.
 */
let site: CrawlSite;
let canary: Canary;
const u = (host: string, path = '/') => site.url(host, path);
const urlset = (urls: string[]) =>
  `<?xml version="1.0" encoding="UTF-8"?>\n<urlset xmlns="http://www.sitemaps.org/schemas/sitemap/0.9">${urls.map((l) => `<url><loc>${l}</loc></url>`).join('')}</urlset>`;
const index = (urls: string[]) =>
  `<?xml version="1.0" encoding="UTF-8"?>\n<sitemapindex xmlns="http://www.sitemaps.org/schemas/sitemap/0.9">${urls.map((l) => `<sitemap><loc>${l}</loc></sitemap>`).join('')}</sitemapindex>`;
const PAGES = ['/s1', '/s2', '/blog/s3', '/private/s4', '/s5', '/s6', '/s7', '/linked', '/bomb-page'];

beforeAll(async () => {
  [site, canary] = await Promise.all([startCrawlSite(), startCanary()]);
  for (const mode of MODES) {
    const h = `sm-${mode}.example.test`;
    site.page(u(h), { links: ['/linked'] });
    for (const p of PAGES) site.page(u(h, p));
    site.page(u(h, '/robots.txt'), { body: `User-agent: *\nAllow: /\nSitemap: ${u(h, '/maps/index.xml')}\n` });
    site.page(u(h, '/maps/index.xml'), {
      body: index([u(h, '/maps/a.xml'), u(h, '/maps/b.xml.gz'), u(h, '/maps/bomb.xml.gz'), `${canary.origin}/evil.xml`]),
      contentType: 'application/xml',
    });
    site.page(u(h, '/maps/a.xml'), {
      body: urlset([u(h, '/s1'), u(h, '/s2'), u(h, '/blog/s3'), u(h, '/private/s4'), u(`other-${mode}.example.test`, '/x')]),
      contentType: 'application/xml',
    });
    site.page(u(h, '/maps/b.xml.gz'), { body: gzipSync(urlset([u(h, '/s5'), u(h, '/s6')])), contentType: 'application/x-gzip' });
    // 11 MiB once unpacked (12 KB sent): past the limit, skipped whole.
    site.page(u(h, '/maps/bomb.xml.gz'), { body: gzipSync(urlset([u(h, '/bomb-page')]) + ' '.repeat(11 * 1024 * 1024)), contentType: 'application/x-gzip' });
    site.page(u(h, '/sitemap.xml'), { body: urlset([u(h, '/s7')]), contentType: 'application/xml' });
  }
});
afterAll(async () => {
  await site?.close();
  await canary?.close();
});

describe.each(MODES)('crawl sitemaps (%s)', (mode) => {
  let env: CrawlEnv;
  const h = `sm-${mode}.example.test`;
  beforeAll(async () => {
    env = await startCrawlEnv(mode, { workers: 1 });
  });
  afterAll(async () => {
    await env?.close();
  });
  const paths = async (body: Record<string, unknown>) => {
    const created = await startCrawl(env.gw, { urls: [u(h)], max_depth: 1, ...body });
    const done = await waitForCrawl(env.gw, created.id, { context: () => workerLogs(env) });
    expect(done.status).toBe('completed');
    return { done, paths: sorted((await allItems(env.gw, created.id)).map((i) => new URL(i.url).pathname)) };
  };

  it('include: links and every sitemap page in scope and through the filters; skip fetches no sitemap', async () => {
    const mark = site.mark();
    const { paths: got } = await paths({ sitemap: 'include', exclude_paths: ['/private/**'] });
    expect(got).toEqual(sorted(['/', '/linked', '/s1', '/s2', '/blog/s3', '/s5', '/s6', '/s7']));
    expect(canary.connections()).toBe(0);
    expect(site.requests({ since: mark, host: `other-${mode}.example.test` })).toEqual([]);

    const quiet = site.mark();
    const plain = await paths({});
    expect(plain.paths).toEqual(['/', '/linked']);
    expect(site.requests({ since: quiet, host: h }).map((r) => r.path).filter((p) => p.includes('sitemap') || p.startsWith('/maps'))).toEqual([]);
  });

  it('only: the seed and its sitemap pages, no links; max_pages stays exact', async () => {
    const { paths: got } = await paths({ sitemap: 'only' });
    expect(got).toEqual(sorted(['/', '/s1', '/s2', '/blog/s3', '/private/s4', '/s5', '/s6', '/s7']));
    const capped = await paths({ sitemap: 'include', max_pages: 4 });
    expect(capped.paths).toHaveLength(4);
    expect(capped.done.progress).toMatchObject({ pages_discovered: 4, pages_completed: 4 });
  });
});
