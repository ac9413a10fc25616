import { describe, expect, it } from 'vitest';
import { FrontierKeys, RedisCrawlStore, type CrawlPlan, type FrontierRequest } from '../src/index.ts';
import { useRedisBackend } from '@trawl/test-support/backends.ts';
import { req, testPlan } from './crawl-fixtures.ts';

/**
 * What the crawl store conformance suite cannot reach in Redis alone: completions from a process that never read
 * the crawl (crawl-complete-4.lua reads the billing mode itself), completions sent together across both of the
 * script's paths, and a lease found in an ended crawl's lease set.
 */
const redis = useRedisBackend();
const NOW = 1_700_000_000_000;

const plan = (overrides: Partial<CrawlPlan> = {}) => testPlan('b', overrides);

describe('Redis crawl store: completions sent together', () => {
  it('a process that never read the crawl completes its pages as one that did, enforce mode included', async () => {
    const prefix = redis.prefix();
    for (const billing_mode of ['shadow', 'enforce'] as const) {
      const creator = new RedisCrawlStore(redis.conn, prefix);
      const worker = new RedisCrawlStore(redis.conn, prefix);
      const p = plan({ billing_mode });
      await creator.createCrawl(p, [req('http://a.test/1'), req('http://a.test/2'), req('http://a.test/3')]);
      if (billing_mode === 'enforce') await creator.addBudget(p.crawl_id, 2);
      const [a, b, c] = (await worker.lease(p.crawl_id, 'a.test', 3, 30_000, NOW)).leases;
      const burst = await Promise.all([
        worker.complete(p.crawl_id, a, { kind: 'delivered', item: '"a"' }, [], NOW),
        worker.complete(p.crawl_id, b, { kind: 'delivered', item: '"b"' }, [], NOW),
        worker.complete(p.crawl_id, c, { kind: 'delivered', item: '"c"' }, [], NOW),
      ]);
      const last = billing_mode === 'enforce' ? [false, true, null, false] : [true, false, 2, true];
      expect(burst.map((r) => [r.accepted, r.needBudget, r.seq, r.finished])).toEqual([[true, false, 0, false], [true, false, 1, false], last]);
      expect(await creator.items(p.crawl_id, 0, 10)).toEqual(billing_mode === 'enforce' ? ['"a"', '"b"'] : ['"a"', '"b"', '"c"']);
    }
  });

  it('a burst mixing pages with and without links is applied in order, and a crawl ending in it ends once', async () => {
    const s = new RedisCrawlStore(redis.conn, redis.prefix());
    const p = plan({ max_pages: 4 });
    await s.createCrawl(p, [req('http://a.test/1'), req('http://a.test/2')]);
    await s.getCrawl(p.crawl_id);
    const [one, two] = (await s.lease(p.crawl_id, 'a.test', 2, 30_000, NOW)).leases;
    // The first goes alone (nothing was out); the next three go together, one of them with links.
    const first = s.complete(p.crawl_id, one, { kind: 'blocked', reason: 'robots_disallowed' }, [], NOW);
    const rest = [
      s.complete(p.crawl_id, two, { kind: 'delivered', item: '"2"' }, [req('http://b.test/x', 1), req('http://a.test/1', 1), req('http://b.test/y', 1)], NOW),
      s.complete(p.crawl_id, two, { kind: 'delivered', item: '"2 again"' }, [], NOW),
    ];
    expect((await first).accepted).toBe(true);
    const got = await Promise.all(rest);
    expect(got).toEqual([
      { accepted: true, needBudget: false, seq: 0, newHosts: ['b.test'], finished: false },
      { accepted: false, needBudget: false, seq: null, newHosts: [], finished: false },
    ]);
    const [x, y] = (await s.lease(p.crawl_id, 'b.test', 5, 30_000, NOW)).leases;
    const end = await Promise.all([
      s.complete(p.crawl_id, x, { kind: 'failed', reason: 'http_error' }, [], NOW),
      s.complete(p.crawl_id, y, { kind: 'failed', reason: 'http_error' }, [], NOW + 3),
    ]);
    expect(end.map((r) => [r.accepted, r.finished])).toEqual([
      [true, false],
      [true, true],
    ]);
    const snap = (await s.getCrawl(p.crawl_id))!;
    expect(snap.status).toBe('completed');
    expect(snap.counters).toMatchObject({ discovered: 4, queued: 0, in_flight: 0, completed: 1, failed: 2, blocked: 1, dropped: 0 });
  });

  it('a lease found in an ended crawl is dropped, never recorded, whichever path the completion takes', async () => {
    const prefix = redis.prefix();
    const s = new RedisCrawlStore(redis.conn, prefix);
    const keys = new FrontierKeys(prefix);
    for (const links of [[], [req('http://a.test/9', 1)]]) {
      const p = plan();
      await s.createCrawl(p, [req('http://a.test/1'), req('http://a.test/2')]);
      const [l] = (await s.lease(p.crawl_id, 'a.test', 1, 30_000, NOW)).leases;
      expect(await s.transition(p.crawl_id, ['running'], 'failed', NOW, { code: 'cancelled', message: 'x' })).toBe(true);
      // As a crawl ended before terminal statuses dropped the leases still out would have it.
      await redis.conn.zAdd(keys.crawl(p.crawl_id).leases, { score: NOW + 30_000, value: `${l.token}\na.test\n${JSON.stringify(l.request)}` });
      const r = await s.complete(p.crawl_id, l, { kind: 'delivered', item: '"late"' }, links, NOW);
      expect(r.accepted).toBe(false);
      const snap = (await s.getCrawl(p.crawl_id))!;
      expect(snap.counters).toMatchObject({ completed: 0, in_flight: 0, queued: 0, dropped: 3 });
      expect(await s.items(p.crawl_id, 0, 10)).toEqual([]);
    }
  });

  it('a completion for a crawl that is gone records nothing and leaves no key behind', async () => {
    const prefix = redis.prefix();
    const s = new RedisCrawlStore(redis.conn, prefix);
    const p = plan();
    await s.createCrawl(p, [req('http://a.test/1')]);
    const [l] = (await s.lease(p.crawl_id, 'a.test', 1, 30_000, NOW)).leases;
    const k = new FrontierKeys(prefix).crawl(p.crawl_id);
    await redis.conn.del([k.meta, k.items, k.seen, k.hosts, k.queue('a.test')]);
    expect((await s.complete(p.crawl_id, l, { kind: 'delivered', item: '"x"' }, [], NOW)).accepted).toBe(false);
    expect(await redis.conn.exists([k.meta, k.items, k.leases])).toBe(0);
  });
});
