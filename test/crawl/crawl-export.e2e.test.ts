import { afterAll, beforeAll, describe, expect, it } from 'vitest';
import { CrawlItem, PublicErrorResponse } from '@trawl/contract';
import { allItems, duplicates, startCrawl, waitForCrawl } from '@trawl/test-support/crawl-client.ts';
import { MODES, startCrawlEnv, workerLogs, type CrawlEnv } from '@trawl/test-support/crawl-modes.ts';
import { startCrawlSite, type CrawlSite } from '@trawl/test-support/crawl-site.ts';

/**
 * Issue 17 item 6: GET /v1/crawl/{id}/items.jsonl streams every delivered item as JSON Lines, following a running
 * crawl to its end (follow=true), and resumes after an item id or at an items cursor.
 */
let site: CrawlSite;
const PAGES = 60;
const u = (host: string, path = '/') => site.url(host, path);

beforeAll(async () => {
  site = await startCrawlSite();
  for (const mode of MODES) {
    const host = `export-${mode}.example.test`;
    const children = Array.from({ length: PAGES - 1 }, (_, i) => `/p${i}`);
    site.page(u(host), { links: children });
    for (const p of children) site.page(u(host, p), { latencyMs: 40 });
  }
});
afterAll(async () => {
  await site?.close();
});

async function jsonl(res: Response): Promise<CrawlItem[]> {
  expect(res.status).toBe(200);
  expect(res.headers.get('content-type')).toBe('application/jsonl; charset=utf-8');
  const text = await res.text();
  expect(text === '' || text.endsWith('\n')).toBe(true);
  return text.split('\n').filter((l) => l !== '').map((l) => CrawlItem.parse(JSON.parse(l)));
}

describe.each(MODES)('items.jsonl export (%s)', (mode) => {
  let env: CrawlEnv;
  beforeAll(async () => {
    env = await startCrawlEnv(mode, { workers: 1 });
  });
  afterAll(async () => {
    await env?.close();
  });

  it('follows a running crawl to its end, then resumes after an item or at a cursor', async () => {
    const created = await startCrawl(env.gw, { urls: [u(`export-${mode}.example.test`)], max_depth: 1 });
    // Opened while the crawl runs: every item arrives once, in delivery order, and the stream ends with the crawl.
    const followed = await jsonl(await env.gw.call('GET', `/v1/crawl/${created.id}/items.jsonl?follow=true`));
    const done = await waitForCrawl(env.gw, created.id, { timeoutMs: 5_000, context: () => workerLogs(env) });
    expect(done.status).toBe('completed');
    expect(followed).toHaveLength(PAGES);
    expect(duplicates(followed.map((i) => i.url))).toEqual([]);
    const paged = await allItems(env.gw, created.id, 7);
    expect(followed).toEqual(paged);

    const whole = await jsonl(await env.gw.call('GET', `/v1/crawl/${created.id}/items.jsonl`));
    expect(whole.map((i) => i.id)).toEqual(paged.map((i) => i.id));
    const rest = await jsonl(await env.gw.call('GET', `/v1/crawl/${created.id}/items.jsonl?after=${paged[41].id}`));
    expect(rest.map((i) => i.id)).toEqual(paged.slice(42).map((i) => i.id));
    const page = (await (await env.gw.call('GET', `/v1/crawl/${created.id}/items?limit=10`)).json()) as { next_cursor: string };
    const fromCursor = await jsonl(await env.gw.call('GET', `/v1/crawl/${created.id}/items.jsonl?cursor=${page.next_cursor}`));
    expect(fromCursor.map((i) => i.id)).toEqual(paged.slice(10).map((i) => i.id));
    const none = await jsonl(await env.gw.call('GET', `/v1/crawl/${created.id}/items.jsonl?after=${paged[PAGES - 1].id}`));
    expect(none).toEqual([]);

    // Positions of another crawl, or that are not positions, are refused before anything is streamed.
    const other = await startCrawl(env.gw, { urls: [u(`export-${mode}.example.test`, '/p1')], max_depth: 0 });
    for (const [q, field] of [
      [`after=${paged[0].id}`, 'after'],
      ['after=item_nope', 'after'],
      ['cursor=nope', 'cursor'],
      ['follow=yes', 'follow'],
    ]) {
      const res = await env.gw.call('GET', `/v1/crawl/${other.id}/items.jsonl?${q}`);
      expect(res.status, q).toBe(400);
      expect(PublicErrorResponse.parse(await res.json()).error.details, q).toMatchObject({ field });
    }
    expect((await env.gw.call('GET', '/v1/crawl/crawl_missing/items.jsonl')).status).toBe(404);
  });
});
