import { afterAll, beforeAll, describe, expect, it } from 'vitest';
import { CrawlResponse, PublicErrorResponse } from '@trawl/contract';
import { allItems, getCrawl, sleep, sorted, startCrawl, waitForCrawl, withKey } from '@trawl/test-support/crawl-client.ts';
import { MODES, startCrawlEnv, workerLogs, type CrawlEnv } from '@trawl/test-support/crawl-modes.ts';
import { startCrawlSite, type CrawlSite } from '@trawl/test-support/crawl-site.ts';

/**
 * Issue 17 item 7: include_paths / exclude_paths decide which links are followed (seeds always crawled), bad
 * patterns are refused naming the path, and DELETE /v1/crawl/{id} cancels a crawl (pending pages dropped,
 * delivered items kept, a repeat safe, a foreign crawl missing).
 */
let site: CrawlSite;
const u = (host: string, path = '/') => site.url(host, path);

beforeAll(async () => {
  site = await startCrawlSite();
  for (const mode of MODES) {
    const f = `filters-${mode}.example.test`;
    const paths = ['/blog/a', '/blog/b', '/blog/drafts/c', '/docs/x', '/shop/y', '/blog/2024/d'];
    site.page(u(f), { links: paths });
    for (const p of paths) site.page(u(f, p));
    const c = `cancel-${mode}.example.test`;
    const children = Array.from({ length: 30 }, (_, i) => `/p${i}`);
    site.page(u(c), { links: children });
    for (const p of children) site.page(u(c, p), { latencyMs: 300 });
  }
});
afterAll(async () => {
  await site?.close();
});

async function errorOf(res: Response) {
  return PublicErrorResponse.parse(await res.json()).error;
}

describe.each(MODES)('crawl filters and cancel (%s)', (mode) => {
  let env: CrawlEnv;
  beforeAll(async () => {
    env = await startCrawlEnv(mode, { workers: 1 });
  });
  afterAll(async () => {
    await env?.close();
  });

  it('follows only links whose path is included and not excluded; the seed is crawled anyway', async () => {
    const host = `filters-${mode}.example.test`;
    const created = await startCrawl(env.gw, { urls: [u(host)], max_depth: 1, include_paths: ['/blog/**', '/docs/*'], exclude_paths: ['/blog/drafts/**'] });
    expect(created.request).toMatchObject({ include_paths: ['/blog/**', '/docs/*'], exclude_paths: ['/blog/drafts/**'] });
    const done = await waitForCrawl(env.gw, created.id, { context: () => workerLogs(env) });
    expect(done.status).toBe('completed');
    const got = (await allItems(env.gw, created.id)).map((i) => new URL(i.url).pathname);
    expect(sorted(got)).toEqual(sorted(['/', '/blog/a', '/blog/b', '/blog/2024/d', '/docs/x']));
    // Excluded links were never fetched.
    expect(site.requests({ host }).map((r) => r.path)).not.toContain('/shop/y');
  });

  it('refuses patterns that are not patterns, too many or too long, naming the path', async () => {
    const ok = u(`filters-${mode}.example.test`);
    const cases: [unknown, string][] = [
      [{ urls: [ok], include_paths: ['blog/*'] }, 'include_paths.0'],
      [{ urls: [ok], exclude_paths: ['/ok', '/a**b'] }, 'exclude_paths.1'],
      [{ urls: [ok], include_paths: Array.from({ length: 51 }, (_, i) => `/p${i}`) }, 'include_paths'],
      [{ urls: [ok], include_paths: [`/${'a'.repeat(256)}`] }, 'include_paths.0'],
      [{ urls: [ok], include_paths: '/blog/**' }, 'include_paths'],
    ];
    for (const [body, field] of cases) {
      const res = await env.gw.call('POST', '/v1/crawl', body);
      expect(res.status, field).toBe(400);
      const e = await errorOf(res);
      expect(e.code, field).toBe('validation_error');
      expect(e.details, field).toMatchObject({ field });
    }
  });

  it('DELETE cancels a running crawl: pending pages dropped, delivered items kept; a repeat is safe', async () => {
    const host = `cancel-${mode}.example.test`;
    const created = await startCrawl(env.gw, { urls: [u(host)], max_depth: 1 });
    await waitForCrawl(env.gw, created.id, { until: (j) => j.progress.pages_completed >= 2, intervalMs: 20, context: () => workerLogs(env) });
    const stranger = withKey(env.gw, (await env.gw.ctx.store.createApiKey((await env.gw.ctx.store.createTeam(`x-${mode}`)).id, { label: 'x', scopes: ['crawl'] })).secret);
    expect((await stranger.call('DELETE', `/v1/crawl/${created.id}`)).status).toBe(404);

    const res = await env.gw.call('DELETE', `/v1/crawl/${created.id}`);
    expect(res.status).toBe(200);
    const cancelled = CrawlResponse.parse(await res.json()).crawl;
    expect(cancelled).toMatchObject({ status: 'failed', failure: { code: 'cancelled' }, progress: { pages_queued: 0, pages_in_flight: 0 } });
    expect(cancelled.progress.pages_dropped).toBeGreaterThan(0);
    const items = await allItems(env.gw, created.id);
    expect(items.length).toBe(cancelled.progress.pages_completed);
    expect(items.length).toBeGreaterThanOrEqual(2);

    const again = await env.gw.call('DELETE', `/v1/crawl/${created.id}`);
    expect(again.status).toBe(200);
    expect(CrawlResponse.parse(await again.json()).crawl.progress).toEqual(cancelled.progress);
    const later = await getCrawl(env.gw, created.id);
    expect(later.progress.pages_completed).toBe(cancelled.progress.pages_completed);
    // Pages a worker had already put on the wire may still arrive (cluster: it learns within a heartbeat); then nothing.
    await sleep(1_000);
    const quiet = site.mark();
    await sleep(700);
    expect(site.requests({ since: quiet, host })).toEqual([]);

    // PUT is not a method of the crawl: 405 with Allow.
    const put = await env.gw.call('PUT', `/v1/crawl/${created.id}`, {});
    expect(put.status).toBe(405);
    expect(put.headers.get('allow')).toBe('DELETE, GET, HEAD');
  });

  it('DELETE on a crawl that completed answers invalid_request and changes nothing', async () => {
    const created = await startCrawl(env.gw, { urls: [u(`filters-${mode}.example.test`, '/docs/x')], max_depth: 0 });
    await waitForCrawl(env.gw, created.id);
    const res = await env.gw.call('DELETE', `/v1/crawl/${created.id}`);
    expect(res.status).toBe(400);
    expect(await errorOf(res)).toMatchObject({ code: 'invalid_request', details: { status: 'completed' } });
    expect((await getCrawl(env.gw, created.id)).status).toBe('completed');
  });
});
