import { KvWebhookOutbox } from '@trawl/webhooks';
import { expect, it } from 'vitest';
import { SILENT_LOG } from '@trawl/contract';
import type { CrawlStore, ShardDirectory } from '@trawl/frontier';
import type { Store } from '@trawl/store';
import { createCrawl, type CrawlServices } from '../src/api/crawl-service.ts';
import { cancelCrawl, CrawlIdInput, getCrawl, listCrawls, ListCrawlsInput, pauseCrawl, resumeCrawl } from '../src/api/operator-crawls.ts';
import { memoryKv } from '@trawl/test-support/backends.ts';

export type OperatorBackends = () => { store: Store; crawls: CrawlStore; directory: ShardDirectory };

/**
 * The operator's crawl listing and controls on one backend: memory in operator-crawls.test.ts, Redis in
 * operator-crawls.e2e.test.ts (a redis-server). Call inside a describe.
 */
export function operatorCrawlCases(make: OperatorBackends): void {
  let clock = Date.parse('2024-05-01T00:00:00Z');
  function services(): CrawlServices {
    return { ...make(), billingMode: 'shadow', artifactRetentionS: 60, crawlRetentionMs: 60_000, now: () => clock, log: SILENT_LOG, webhooks: new KvWebhookOutbox(memoryKv()) };
  }
  async function crawlFor(svc: CrawlServices, teamId: string, urls: string[]) {
    clock += 1_000;
    const r = await createCrawl(svc, teamId, { urls, max_depth: 1 });
    if (!r.ok) throw new Error('not created');
    return r.crawl.id;
  }
  const list = (svc: CrawlServices, input: unknown) => listCrawls(svc, ListCrawlsInput.parse(input));
  const id = (crawl_id: string) => CrawlIdInput.parse({ crawl_id });

  it('lists crawls of every team newest first, by team and status, page after page with an opaque cursor', async () => {
    const svc = services();
    const a1 = await crawlFor(svc, 'team_a', ['http://a.test/']);
    const b1 = await crawlFor(svc, 'team_b', ['http://b.test/']);
    const a2 = await crawlFor(svc, 'team_a', ['http://a.test/2']);
    await pauseCrawl(svc, id(a1));

    const all = await list(svc, undefined);
    expect(all).toMatchObject({ ok: true, next_cursor: null });
    if (!all.ok) return;
    expect(all.crawls.map((c) => [c.id, c.team_id])).toEqual([
      [a2, 'team_a'],
      [b1, 'team_b'],
      [a1, 'team_a'],
    ]);
    const first = await list(svc, { limit: 2 });
    if (!first.ok) throw new Error('bad page');
    expect(first.crawls.map((c) => c.id)).toEqual([a2, b1]);
    const second = await list(svc, { limit: 2, cursor: first.next_cursor });
    expect(second).toMatchObject({ ok: true, next_cursor: null });
    expect(second.ok && second.crawls.map((c) => c.id)).toEqual([a1]);

    const teamA = await list(svc, { team_id: 'team_a' });
    expect(teamA.ok && teamA.crawls.map((c) => c.id)).toEqual([a2, a1]);
    const paused = await list(svc, { status: 'paused' });
    expect(paused.ok && paused.crawls.map((c) => c.id)).toEqual([a1]);
    const none = await list(svc, { team_id: 'team_b', status: 'paused' });
    expect(none).toEqual({ ok: true, crawls: [], next_cursor: null });

    expect(await list(svc, { cursor: 'bm90LWEtY3Vyc29y' })).toEqual({ ok: false, reason: 'bad_cursor' });
    expect(ListCrawlsInput.safeParse({ status: 'cancelled' }).success).toBe(false);
    expect(ListCrawlsInput.safeParse({ limit: 101 }).success).toBe(false);
    expect(ListCrawlsInput.safeParse({ team: 'team_a' }).success).toBe(false);
  });

  it('shows any team’s crawl with its team and a plan summary, never its seed URLs', async () => {
    const svc = services();
    const crawlId = await crawlFor(svc, 'team_c', ['http://secret.test/private?token=abc', 'http://secret.test/other', 'http://two.test/']);
    const crawl = await getCrawl(svc, id(crawlId));
    expect(crawl).toMatchObject({
      id: crawlId,
      team_id: 'team_c',
      status: 'queued',
      plan: { seeds: 3, seed_hosts: 2, scope: 'same_hostname', max_depth: 1, max_pages: 100, browser: false, extraction: false },
      finalized: false,
      progress: { pages_queued: 3 },
    });
    expect(JSON.stringify(crawl)).not.toContain('secret.test');
    expect(await getCrawl(svc, id('crawl_missing'))).toBeNull();
  });

  it('pauses and resumes any team’s crawl, and says why when the status does not allow it', async () => {
    const svc = services();
    const crawlId = await crawlFor(svc, 'team_d', ['http://d.test/']);
    let announced = 0;
    const stop = await svc.directory.watchWork(() => announced++);
    expect(await resumeCrawl(svc, id(crawlId))).toEqual({ ok: false, reason: 'wrong_status', status: 'queued' });
    expect(await pauseCrawl(svc, id(crawlId))).toMatchObject({ ok: true, crawl: { status: 'paused' } });
    expect(await pauseCrawl(svc, id(crawlId))).toEqual({ ok: false, reason: 'wrong_status', status: 'paused' });
    expect(await resumeCrawl(svc, id(crawlId))).toMatchObject({ ok: true, crawl: { status: 'queued' } });
    expect(await pauseCrawl(svc, id('crawl_missing'))).toEqual({ ok: false, reason: 'not_found' });
    // Workers heard of both changes.
    await expect.poll(() => announced, { timeout: 2_000 }).toBe(2);
    await stop();
  });

  it('cancels a crawl: failed/cancelled, its work dropped, late pages refused, settled like any ended crawl', async () => {
    const svc = services();
    const crawlId = await crawlFor(svc, 'team_e', ['http://e.test/1', 'http://e.test/2', 'http://e.test/3', 'http://f.test/']);
    const { leases: [done, late] } = await svc.crawls.lease(crawlId, 'e.test', 2, 60_000, clock);
    expect((await svc.crawls.complete(crawlId, done, { kind: 'delivered', item: '{}' }, [], clock)).accepted).toBe(true);
    let announced = 0;
    const stop = await svc.directory.watchWork(() => announced++);

    const r = await cancelCrawl(svc, id(crawlId));
    expect(r).toMatchObject({
      ok: true,
      crawl: {
        status: 'failed',
        failure: { code: 'cancelled', message: 'the crawl was cancelled (by its team or an operator)' },
        progress: { pages_completed: 1, pages_queued: 0, pages_in_flight: 0, pages_dropped: 3 },
        finalized: true,
      },
    });
    await expect.poll(() => announced, { timeout: 2_000 }).toBe(1);
    await stop();
    // The page that was running when the crawl was cancelled is never delivered.
    expect((await svc.crawls.complete(crawlId, late, { kind: 'delivered', item: '{}' }, [], clock)).accepted).toBe(false);
    expect(await svc.crawls.items(crawlId, 0, 10)).toHaveLength(1);
    // Settled: the delivered page charged once, the run closed, the hosts no longer shards, retention set.
    expect((await svc.store.entries('team_e', 10)).filter((e) => e.reason === 'crawl_pages')).toMatchObject([{ units: 1 }]);
    const run = await svc.store.getRun((await getCrawl(svc, id(crawlId)))!.run_id);
    expect(run?.run.status).toBe('failed');
    expect(await svc.directory.shards()).toEqual([]);
    expect(await svc.directory.activeCrawls()).toEqual([]);
    expect((await svc.crawls.expiringCrawls(10)).map((e) => e.id)).toEqual([crawlId]);
    // Ended once.
    expect(await cancelCrawl(svc, id(crawlId))).toEqual({ ok: false, reason: 'wrong_status', status: 'failed' });
    expect(await cancelCrawl(svc, id('crawl_missing'))).toEqual({ ok: false, reason: 'not_found' });
  });

  it('cancels a paused crawl too', async () => {
    const svc = services();
    const crawlId = await crawlFor(svc, 'team_f', ['http://g.test/']);
    await pauseCrawl(svc, id(crawlId));
    expect(await cancelCrawl(svc, id(crawlId))).toMatchObject({ ok: true, crawl: { status: 'failed', failure: { code: 'cancelled' } } });
  });
}
