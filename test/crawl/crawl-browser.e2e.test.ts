import { afterAll, beforeAll, describe, expect, it } from 'vitest';
import { allItems, sorted, startCrawl, waitForCrawl } from '@trawl/test-support/crawl-client.ts';
import { MODES, startCrawlEnv, type CrawlEnv } from '@trawl/test-support/crawl-modes.ts';
import { startCrawlSite, type CrawlSite } from '@trawl/test-support/crawl-site.ts';

/**
 * Issue 5: a crawl with `browser` set renders its pages in Chromium while staying an asynchronous job on the
 * shared frontier. The site's text and links exist only after its scripts run, so the light engine would find
 * neither.
 */
let site: CrawlSite;
const HOST = 'app.example.test';

function shell(title: string, links: string[]): string {
  // Everything a reader or a crawler wants is written by the script.
  const items = links.map((l) => `<li><a href="${l}">${l}</a></li>`).join('');
  return `<!DOCTYPE html><html><head><title>${title}</title></head><body><div id="root"></div>
<script>
  setTimeout(() => {
    document.getElementById('root').innerHTML =
      '<article><h1>${title}</h1><p>Rendered by script: the tide tables of ${title} and the berth list for the week.</p>' +
      '<p>Crews should check the notices to mariners before sailing; the west channel buoy moved last week.</p>' +
      '<ul>${items}</ul></article>';
  }, 50);
</script></body></html>`;
}

beforeAll(async () => {
  site = await startCrawlSite();
  const base = site.url(HOST, '').replace(/\/$/, '');
  site.page(`${base}/`, { body: shell('Home', ['/a', '/b']), contentType: 'text/html; charset=utf-8' });
  site.page(`${base}/a`, { body: shell('Page A', ['/']), contentType: 'text/html; charset=utf-8' });
  site.page(`${base}/b`, { body: shell('Page B', ['/c']), contentType: 'text/html; charset=utf-8' });
  site.page(`${base}/c`, { body: shell('Page C', []), contentType: 'text/html; charset=utf-8' });
});
afterAll(async () => {
  await site?.close();
});

describe.each(MODES)('crawl with browser controls (%s)', (mode) => {
  let env: CrawlEnv;
  beforeAll(async () => {
    env = await startCrawlEnv(mode, { env: { TRAWL_BROWSER_PAGES: '2' } });
  });
  afterAll(async () => {
    await env?.close();
  });

  it('renders every page and follows links that only exist after scripts ran', async () => {
    const base = site.url(HOST, '').replace(/\/$/, '');
    const created = await startCrawl(env.gw, { urls: [`${base}/`], max_depth: 1, browser: { wait_for_selector: 'article' } });
    expect(created.request.browser).toEqual({ wait_for_selector: 'article' });
    const done = await waitForCrawl(env.gw, created.id, { timeoutMs: 60_000 });
    expect(done.status).toBe('completed');
    const items = await allItems(env.gw, created.id);
    // Depth 1: /a and /b are found on the rendered home page; /c (depth 2) is not admitted.
    expect(sorted(items.map((i) => new URL(i.url).pathname))).toEqual(['/', '/a', '/b']);
    for (const item of items) {
      expect(item.content.markdown).toContain('Rendered by script');
      expect(item.audit.engines_attempted).toEqual(['browser']);
      expect(item.diagnostics.browser_debug.enabled).toBe(true);
      expect(item.diagnostics.browser_failure.present).toBe(false);
    }
  }, 90_000);
});
