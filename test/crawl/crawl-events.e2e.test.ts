import { afterAll, beforeAll, describe, expect, it } from 'vitest';
import { createTrawlClient, type CrawlEvent } from '@trawl/client';
import { CrawlEndEventData, CrawlProgressEventData, CrawlStatusEventData } from '@trawl/contract';
import { startCrawl, withKey } from '@trawl/test-support/crawl-client.ts';
import { MODES, startCrawlEnv, type CrawlEnv } from '@trawl/test-support/crawl-modes.ts';
import { startCrawlSite, type CrawlSite } from '@trawl/test-support/crawl-site.ts';
import { TEST_KEY } from '@trawl/test-support/gateway.ts';

/**
 * Issue 17 item 5: GET /v1/crawl/{id}/events streams a crawl's status changes, progress (pages/s, an ETA once
 * max_pages bounds it) and its end as Server-Sent Events, and a reconnection with Last-Event-ID gets only what
 * changed since; after the end it answers 204 so EventSource stops.
 */
let site: CrawlSite;
const u = (host: string, path = '/') => site.url(host, path);
const SCHEMAS = { status: CrawlStatusEventData, progress: CrawlProgressEventData, end: CrawlEndEventData };

beforeAll(async () => {
  site = await startCrawlSite();
  for (const mode of MODES) {
    const host = `events-${mode}.example.test`;
    const children = Array.from({ length: 40 }, (_, i) => `/p${i}`);
    site.page(u(host), { links: children });
    for (const p of children) site.page(u(host, p), { latencyMs: 300 });
  }
});
afterAll(async () => {
  await site?.close();
});

describe.each(MODES)('crawl events (%s)', (mode) => {
  let env: CrawlEnv;
  beforeAll(async () => {
    env = await startCrawlEnv(mode, { workers: 1 });
  });
  afterAll(async () => {
    await env?.close();
  });

  it('streams status, progress with pages/s and ETA, and the end; resumes with Last-Event-ID', async () => {
    const client = createTrawlClient({ baseUrl: env.gw.url, apiKey: TEST_KEY });
    const created = await startCrawl(env.gw, { urls: [u(`events-${mode}.example.test`)], max_depth: 1, max_pages: 25 });
    const events: CrawlEvent[] = [];
    for await (const e of client.crawlEvents(created.id)) {
      SCHEMAS[e.event].parse(e.data);
      events.push(e);
    }
    expect(events[0]).toMatchObject({ event: 'status', data: { crawl_id: created.id, previous_status: null } });
    const last = events[events.length - 1];
    expect(last).toMatchObject({ event: 'end', data: { status: 'completed', progress: { pages_completed: 25, pages_discovered: 25 } } });
    const statuses = events.filter((e) => e.event === 'status').map((e) => e.data.status);
    expect(statuses[statuses.length - 1]).toBe('completed');
    expect(statuses).toContain('running');
    const progress = events.flatMap((e) => (e.event === 'progress' ? [e.data] : []));
    expect(progress.length).toBeGreaterThan(2);
    const done = progress.map((p) => p.progress.pages_completed + p.progress.pages_failed + p.progress.pages_blocked);
    expect(done).toEqual([...done].sort((a, b) => a - b));
    expect(progress.some((p) => (p.pages_per_second ?? 0) > 0)).toBe(true);
    // The cap of 25 binds (40 links): once reached, the stream can say how long is left.
    expect(progress.some((p) => p.eta_s !== null && p.eta_s > 0)).toBe(true);
    expect(progress.every((p) => p.eta_s === null || p.progress.pages_discovered === 25)).toBe(true);
    expect(new Set(events.map((e) => e.id)).size).toBe(events.length);

    // Resuming from a progress event of the running crawl: the status and progress it missed, then the end; nothing else.
    const mid = events.find((x) => x.event === 'progress' && x.data.status === 'running' && x.data.progress.pages_completed < 25);
    expect(mid).toBeDefined();
    const resumed: CrawlEvent[] = [];
    for await (const e of client.crawlEvents(created.id, { lastEventId: mid!.id! })) resumed.push(e);
    expect(resumed.map((e) => e.event)).toEqual(['status', 'progress', 'end']);
    expect(resumed[0].data).toMatchObject({ status: 'completed', previous_status: 'running' });
    // Resuming from the end: 204, and the client ends at once.
    const afterEnd = await env.gw.call('GET', `/v1/crawl/${created.id}/events`, undefined, { 'last-event-id': last.id! });
    expect(afterEnd.status).toBe(204);

    const bad = await env.gw.call('GET', `/v1/crawl/${created.id}/events`, undefined, { 'last-event-id': 'not-ours' });
    expect(bad.status).toBe(400);
    expect(((await bad.json()) as { error: { code: string; details: unknown } }).error).toMatchObject({ code: 'validation_error', details: { field: 'last-event-id' } });
    const team = await env.gw.ctx.store.createTeam(`events-stranger-${mode}`);
    const stranger = withKey(env.gw, (await env.gw.ctx.store.createApiKey(team.id, { label: 's', scopes: ['crawl'] })).secret);
    expect((await stranger.call('GET', `/v1/crawl/${created.id}/events`)).status).toBe(404);
  });

  it('a stream open when the gateway closes ends with it', async () => {
    const gw = await env.extraGateway({});
    const created = await startCrawl(gw, { urls: [u(`events-${mode}.example.test`, '/p1')], max_depth: 0 });
    const res = await gw.call('POST', `/v1/crawl/${created.id}/pause`);
    expect(res.status).toBe(200);
    const stream = await gw.call('GET', `/v1/crawl/${created.id}/events`);
    expect(stream.headers.get('content-type')).toBe('text/event-stream; charset=utf-8');
    const began = Date.now();
    const text = stream.text();
    await gw.close();
    expect(await text).toContain('event: status');
    expect(Date.now() - began).toBeLessThan(5_000);
  });
});
