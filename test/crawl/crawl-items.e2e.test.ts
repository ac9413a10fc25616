import { afterAll, beforeAll, describe, expect, it } from 'vitest';
import { PublicErrorResponse, type CrawlItem } from '@trawl/contract';
import { allItems, duplicates, getCrawl, isTerminal, itemsPage, sleep, startCrawl, waitForCrawl, withKey } from '@trawl/test-support/crawl-client.ts';
import { MODES, startCrawlEnv, workerLogs, type CrawlEnv } from '@trawl/test-support/crawl-modes.ts';
import { startCrawlSite, type CrawlSite } from '@trawl/test-support/crawl-site.ts';

/**
 * Issue 3 points 1, 6 and 8: items pagination returns every item once across cursor pages while the crawl is
 * still running; crawl-page artifacts are served through their listed URL only, to the owning team only.
 */
let site: CrawlSite;
const PAGES = 40;

beforeAll(async () => {
  site = await startCrawlSite();
  // Slow pages: the crawl takes a few seconds, so most cursor pages are read while it runs.
  const children = Array.from({ length: PAGES - 1 }, (_, i) => `/p${i + 1}`);
  site.page(site.url('items.example.test'), { links: children });
  for (const p of children) site.page(site.url('items.example.test', p), { latencyMs: 150 });
  site.page(site.url('art.example.test'), { title: 'Artifact page', links: ['/second'] });
  site.page(site.url('art.example.test', '/second'), { title: 'Second artifact page' });
});
afterAll(async () => {
  await site?.close();
});

describe.each(MODES)('crawl items and artifacts (%s)', (mode) => {
  let env: CrawlEnv;
  beforeAll(async () => {
    env = await startCrawlEnv(mode, { workers: 1 });
  });
  afterAll(async () => {
    await env?.close();
  });

  it('pages of 3 return every item exactly once while the crawl runs, and the cursor outlives the crawl', async () => {
    const created = await startCrawl(env.gw, { urls: [site.url('items.example.test')], max_depth: 1 });
    const seen: CrawlItem[] = [];
    let cursor: string | null = null;
    let readWhileRunning = 0;
    let midCursor: { cursor: string; at: number } | null = null;
    const deadline = Date.now() + 45_000;
    for (;;) {
      const running = !isTerminal(await getCrawl(env.gw, created.id));
      const page = await itemsPage(env.gw, created.id, cursor, 3);
      expect(page.items.length).toBeLessThanOrEqual(3);
      if (running && page.items.length > 0) readWhileRunning++;
      seen.push(...page.items);
      if (page.next_cursor === null) break;
      // A running crawl always hands back a cursor, even after an empty page.
      cursor = page.next_cursor;
      if (midCursor === null && seen.length >= 6 && running) midCursor = { cursor, at: seen.length };
      if (page.items.length < 3) await sleep(50);
      if (Date.now() > deadline) throw new Error(`pagination did not end: ${seen.length} items\n${workerLogs(env)}`);
    }
    const done = await getCrawl(env.gw, created.id);
    expect(done.status).toBe('completed');
    expect(readWhileRunning).toBeGreaterThanOrEqual(3);
    expect(seen).toHaveLength(PAGES);
    expect(duplicates(seen.map((i) => i.id))).toEqual([]);
    expect(duplicates(seen.map((i) => i.url))).toEqual([]);
    // The same items, in the same (delivery) order, as a read after the end.
    expect((await allItems(env.gw, created.id)).map((i) => i.id)).toEqual(seen.map((i) => i.id));
    // A cursor handed out while the crawl ran still reads the same place after it ended.
    expect(midCursor).not.toBeNull();
    const again = await itemsPage(env.gw, created.id, midCursor!.cursor, 3);
    expect(again.items.map((i) => i.id)).toEqual(seen.slice(midCursor!.at, midCursor!.at + 3).map((i) => i.id));
  });

  it('rejects a cursor it did not issue and a limit out of 1..100', async () => {
    const created = await startCrawl(env.gw, { urls: [site.url('art.example.test')], max_depth: 0 });
    await waitForCrawl(env.gw, created.id);
    for (const [query, field] of [
      ['cursor=not-a-cursor', 'cursor'],
      ['limit=0', 'limit'],
      ['limit=101', 'limit'],
    ] as const) {
      const res = await env.gw.call('GET', `/v1/crawl/${created.id}/items?${query}`);
      expect(res.status, query).toBe(400);
      const e = PublicErrorResponse.parse(await res.json()).error;
      expect(e.code).toBe('validation_error');
      expect(e.details).toMatchObject({ field });
    }
  });

  it('serves a page’s markdown and html at the listed URL, and only there, only to the owning team', async () => {
    const created = await startCrawl(env.gw, { urls: [site.url('art.example.test')], max_depth: 1 });
    const other = await startCrawl(env.gw, { urls: [site.url('art.example.test', '/second')], max_depth: 0 });
    await waitForCrawl(env.gw, created.id);
    await waitForCrawl(env.gw, other.id);
    const items = await allItems(env.gw, created.id);
    expect(items).toHaveLength(2);
    const item = items.find((i) => i.url === site.url('art.example.test'))!;
    expect(item.artifacts.map((a) => a.key).sort()).toEqual(['html', 'markdown']);

    for (const a of item.artifacts) {
      expect(a.url).toContain(`crawl_id=${created.id}`);
      const res = await env.gw.call('GET', a.url);
      expect(res.status, a.url).toBe(200);
      expect(res.headers.get('content-type')).toBe(a.content_type);
      expect(await res.text()).toBe(a.key === 'markdown' ? item.content.markdown : item.content.html);
    }
    expect(item.content.markdown).toContain('Artifact page');

    const team = await env.gw.ctx.store.createTeam(`items-stranger-${mode}`);
    const { secret } = await env.gw.ctx.store.createApiKey(team.id, { label: 'x', scopes: ['crawl', 'runs'] });
    const stranger = withKey(env.gw, secret);
    const md = item.artifacts.find((a) => a.key === 'markdown')!.url;
    const path = md.slice(0, md.indexOf('?'));
    const notFound = [
      [env.gw, path], // without crawl_id
      [env.gw, `${path}?crawl_id=${other.id}`], // another crawl of the same team
      [env.gw, md.replace('/markdown?', '/screenshot?')], // a key the page does not have
      [stranger, md], // the exact URL, another team
    ] as const;
    for (const [caller, url] of notFound) {
      const res = await caller.call('GET', url);
      expect(res.status, url).toBe(404);
      expect(PublicErrorResponse.parse(await res.json()).error.code).toBe('artifact_not_found');
    }
    // The other crawl's own page is served under its own crawl id, never under this one's.
    const otherItem = (await allItems(env.gw, other.id))[0];
    const otherMd = otherItem.artifacts.find((a) => a.key === 'markdown')!.url;
    expect((await env.gw.call('GET', otherMd)).status).toBe(200);
    expect((await env.gw.call('GET', otherMd.replace(other.id, created.id))).status).toBe(404);

    // Another team sees neither the crawl nor its items.
    for (const p of [`/v1/crawl/${created.id}`, `/v1/crawl/${created.id}/items`]) {
      const res = await stranger.call('GET', p);
      expect(res.status, p).toBe(404);
      expect(PublicErrorResponse.parse(await res.json()).error.code).toBe('crawl_not_found');
    }
  });
});
