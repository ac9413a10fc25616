import { describe, expect, it } from 'vitest';
import { BUDGET_WAIT_MS, type CrawlPlan, type CrawlSnapshot, type CrawlStore, type FrontierRequest } from '../src/index.ts';
import { req, testPlan } from './crawl-fixtures.ts';

export const plan = (overrides: Partial<CrawlPlan> = {}) => testPlan('t', overrides);
export function addsUp(s: CrawlSnapshot) {
  const c = s.counters;
  expect(c.discovered).toBe(c.queued + c.in_flight + c.completed + c.failed + c.blocked + c.dropped);
}

/** The crawl store's rules on every backend: crawl-store-conformance.test.ts (Kv stores) and .e2e.test.ts (Redis). */
export function crawlStoreConformance(backends: [string, () => CrawlStore][]): void {
  describe.each(backends)('crawl store conformance: %s', (_name, make) => {
    const NOW = 1_700_000_000_000;

    it('admits seeds once each, up to max_pages, and starts queued', async () => {
      const s = make();
      const p = plan({ max_pages: 2 });
      await s.createCrawl(p, [req('http://a.test/1'), req('http://a.test/1'), req('http://b.test/'), req('http://a.test/3')]);
      const snap = (await s.getCrawl(p.crawl_id))!;
      expect(snap.status).toBe('queued');
      expect(snap.counters.discovered).toBe(2);
      expect(snap.counters.queued).toBe(2);
      expect((await s.hostsOf(p.crawl_id)).sort()).toEqual(['a.test', 'b.test']);
      expect(snap.plan.max_pages).toBe(2);
      addsUp(snap);
      expect(await s.getCrawl('crawl_missing')).toBeNull();
    });

    it('leases in FIFO order per host, once, and the first lease starts the crawl', async () => {
      const s = make();
      const p = plan();
      await s.createCrawl(p, [req('http://a.test/1'), req('http://a.test/2'), req('http://a.test/3'), req('http://b.test/')]);
      const first = await s.lease(p.crawl_id, 'a.test', 2, 30_000, NOW);
      expect(first.leases.map((l) => l.request.url)).toEqual(['http://a.test/1', 'http://a.test/2']);
      expect(new Set(first.leases.map((l) => l.token)).size).toBe(2);
      expect(first.started).toBe(true);
      const second = await s.lease(p.crawl_id, 'a.test', 5, 30_000, NOW);
      expect(second.leases.map((l) => l.request.url)).toEqual(['http://a.test/3']);
      expect(second.started).toBe(false);
      expect(await s.lease(p.crawl_id, 'a.test', 5, 30_000, NOW)).toEqual({ leases: [], started: false });
      const snap = (await s.getCrawl(p.crawl_id))!;
      expect(snap.status).toBe('running');
      expect(snap.started_at).toBe(new Date(NOW).toISOString());
      expect(snap.counters.in_flight).toBe(3);
      addsUp(snap);
    });

    it('delivers an item, admits unseen links under the cap, and reports new hosts once', async () => {
      const s = make();
      const p = plan({ max_pages: 4 });
      await s.createCrawl(p, [req('http://a.test/')]);
      const [l] = (await s.lease(p.crawl_id, 'a.test', 1, 30_000, NOW)).leases;
      const links = ['http://a.test/', 'http://a.test/x', 'http://b.test/', 'http://c.test/', 'http://a.test/y'].map((u) => req(u, 1));
      const r = await s.complete(p.crawl_id, l, { kind: 'delivered', item: '{"n":0}' }, links, NOW);
      expect(r).toEqual({ accepted: true, needBudget: false, seq: 0, newHosts: ['b.test', 'c.test'], finished: false });
      const snap = (await s.getCrawl(p.crawl_id))!;
      expect(snap.counters.discovered).toBe(4);
      expect(snap.counters.completed).toBe(1);
      expect(snap.counters.queued).toBe(3);
      addsUp(snap);
      expect(await s.items(p.crawl_id, 0, 10)).toEqual(['{"n":0}']);
      expect(await s.item(p.crawl_id, 0)).toBe('{"n":0}');
      expect(await s.item(p.crawl_id, 1)).toBeNull();
    });

    it('finishes as completed when nothing is queued or in flight, counting failures and blocks', async () => {
      const s = make();
      const p = plan();
      await s.createCrawl(p, [req('http://a.test/1'), req('http://a.test/2'), req('http://a.test/3')]);
      const [a, b, c] = (await s.lease(p.crawl_id, 'a.test', 3, 30_000, NOW)).leases;
      expect((await s.complete(p.crawl_id, a, { kind: 'failed', reason: 'http_error' }, [], NOW)).finished).toBe(false);
      expect((await s.complete(p.crawl_id, b, { kind: 'blocked', reason: 'robots_disallowed' }, [], NOW)).finished).toBe(false);
      const last = await s.complete(p.crawl_id, c, { kind: 'delivered', item: '{}' }, [], NOW + 5);
      expect(last.finished).toBe(true);
      const snap = (await s.getCrawl(p.crawl_id))!;
      expect(snap.status).toBe('completed');
      expect(snap.completed_at).toBe(new Date(NOW + 5).toISOString());
      expect(snap.counters.failure_reasons).toEqual({ http_error: 1 });
      expect(snap.counters.block_reasons).toEqual({ robots_disallowed: 1 });
      expect(snap.counters.failed).toBe(1);
      expect(snap.counters.blocked).toBe(1);
      addsUp(snap);
    });

    it('finishes exactly when the last admitted page completes, links included', async () => {
      const s = make();
      const p = plan();
      await s.createCrawl(p, [req('http://a.test/')]);
      const [root] = (await s.lease(p.crawl_id, 'a.test', 1, 30_000, NOW)).leases;
      const r = await s.complete(p.crawl_id, root, { kind: 'delivered', item: '0' }, [req('http://a.test/1', 1), req('http://a.test/2', 1)], NOW);
      expect(r.finished).toBe(false);
      const [one, two] = (await s.lease(p.crawl_id, 'a.test', 5, 30_000, NOW)).leases;
      expect((await s.complete(p.crawl_id, one, { kind: 'delivered', item: '1' }, [req('http://a.test/', 2)], NOW)).finished).toBe(false);
      expect((await s.getCrawl(p.crawl_id))!.status).toBe('running');
      expect((await s.complete(p.crawl_id, two, { kind: 'delivered', item: '2' }, [], NOW)).finished).toBe(true);
      expect((await s.getCrawl(p.crawl_id))!.status).toBe('completed');
    });

    it('completions made at once apply in call order, each as its own call: items, cap, dedup, new hosts, the end', async () => {
      // Redis sends the completions that come due while one is out in one script call; these are such a burst.
      const s = make();
      const p = plan({ max_pages: 6 });
      await s.createCrawl(p, [req('http://a.test/1'), req('http://a.test/2'), req('http://a.test/3')]);
      const [one, two, three] = (await s.lease(p.crawl_id, 'a.test', 3, 30_000, NOW)).leases;
      const none = { accepted: false, needBudget: false, seq: null, newHosts: [], finished: false };
      const burst = await Promise.all([
        s.complete(p.crawl_id, one, { kind: 'delivered', item: '"1"' }, [req('http://a.test/x', 1), req('http://b.test/1', 1), req('http://a.test/2', 1)], NOW),
        s.complete(p.crawl_id, two, { kind: 'failed', reason: 'network_error' }, [req('http://b.test/1', 1), req('http://b.test/2', 1), req('http://c.test/1', 1)], NOW),
        s.complete(p.crawl_id, two, { kind: 'delivered', item: '"2 again"' }, [], NOW),
        s.complete(p.crawl_id, three, { kind: 'delivered', item: '"3"' }, [req('http://a.test/y', 1)], NOW),
      ]);
      expect(burst).toEqual([
        { accepted: true, needBudget: false, seq: 0, newHosts: ['b.test'], finished: false },
        { accepted: true, needBudget: false, seq: null, newHosts: [], finished: false },
        none,
        { accepted: true, needBudget: false, seq: 1, newHosts: [], finished: false },
      ]);
      let snap = (await s.getCrawl(p.crawl_id))!;
      expect(snap.counters).toMatchObject({ discovered: 6, queued: 3, in_flight: 0, completed: 2, failed: 1, failure_reasons: { network_error: 1 } });
      addsUp(snap);
      expect(await s.items(p.crawl_id, 0, 10)).toEqual(['"1"', '"3"']);
      const rest = [...(await s.lease(p.crawl_id, 'a.test', 5, 30_000, NOW)).leases, ...(await s.lease(p.crawl_id, 'b.test', 5, 30_000, NOW)).leases];
      expect(rest.map((l) => l.request.url)).toEqual(['http://a.test/x', 'http://b.test/1', 'http://b.test/2']);
      const end = await Promise.all([
        s.complete(p.crawl_id, rest[0], { kind: 'blocked', reason: 'robots_disallowed' }, [], NOW),
        s.complete(p.crawl_id, rest[1], { kind: 'delivered', item: '"b1"' }, [], NOW),
        s.complete(p.crawl_id, rest[2], { kind: 'delivered', item: '"b2"' }, [], NOW + 7),
        s.complete(p.crawl_id, rest[2], { kind: 'delivered', item: '"b2 again"' }, [], NOW + 7),
      ]);
      expect(end.map((r) => [r.accepted, r.seq, r.finished])).toEqual([
        [true, null, false],
        [true, 2, false],
        [true, 3, true],
        [false, null, false],
      ]);
      snap = (await s.getCrawl(p.crawl_id))!;
      expect(snap.status).toBe('completed');
      expect(snap.completed_at).toBe(new Date(NOW + 7).toISOString());
      expect(snap.counters).toMatchObject({ discovered: 6, queued: 0, in_flight: 0, completed: 4, failed: 1, blocked: 1, dropped: 0 });
      addsUp(snap);
      expect(await s.items(p.crawl_id, 0, 10)).toEqual(['"1"', '"3"', '"b1"', '"b2"']);
    });

    it('enforce mode: of completions made at once, those past the prepaid credit keep their leases and wait', async () => {
      const s = make();
      const p = plan({ billing_mode: 'enforce' });
      await s.createCrawl(p, [req('http://a.test/1'), req('http://a.test/2'), req('http://a.test/3')]);
      await s.addBudget(p.crawl_id, 1);
      const [a, b, c] = (await s.lease(p.crawl_id, 'a.test', 3, 30_000, NOW)).leases;
      const burst = await Promise.all([
        s.complete(p.crawl_id, a, { kind: 'delivered', item: '"a"' }, [], NOW),
        s.complete(p.crawl_id, b, { kind: 'delivered', item: '"b"' }, [], NOW),
        s.complete(p.crawl_id, c, { kind: 'failed', reason: 'http_error' }, [], NOW),
      ]);
      expect(burst.map((r) => [r.accepted, r.needBudget, r.seq])).toEqual([
        [true, false, 0],
        [false, true, null],
        [true, false, null],
      ]);
      expect((await s.getCrawl(p.crawl_id))!.counters).toMatchObject({ in_flight: 1, completed: 1, failed: 1, queued: 0 });
      expect(await s.addBudget(p.crawl_id, 1)).toBe(1);
      expect(await s.complete(p.crawl_id, b, { kind: 'delivered', item: '"b"' }, [], NOW)).toEqual({ accepted: true, needBudget: false, seq: 1, newHosts: [], finished: true });
      expect(await s.addBudget(p.crawl_id, 0)).toBe(0);
    });

    it('fails a crawl that delivered nothing, saying why', async () => {
      const s = make();
      const p = plan();
      await s.createCrawl(p, [req('http://a.test/')]);
      const [l] = (await s.lease(p.crawl_id, 'a.test', 1, 30_000, NOW)).leases;
      await s.complete(p.crawl_id, l, { kind: 'failed', reason: 'network_error' }, [], NOW);
      const snap = (await s.getCrawl(p.crawl_id))!;
      expect(snap.status).toBe('failed');
      expect(snap.failure?.code).toBe('no_pages_delivered');
    });

    it('an expired lease is reclaimed and re-leased; the first holder cannot deliver it too', async () => {
      const s = make();
      const p = plan();
      await s.createCrawl(p, [req('http://a.test/')]);
      const [old] = (await s.lease(p.crawl_id, 'a.test', 1, 1_000, NOW)).leases;
      expect(await s.reclaim(p.crawl_id, NOW + 500, 10)).toBe(0);
      expect(await s.reclaim(p.crawl_id, NOW + 1_000, 10)).toBe(1);
      const [fresh] = (await s.lease(p.crawl_id, 'a.test', 1, 30_000, NOW + 1_000)).leases;
      expect(fresh.request.url).toBe('http://a.test/');
      expect(fresh.token).not.toBe(old.token);
      expect((await s.complete(p.crawl_id, old, { kind: 'delivered', item: '"old"' }, [], NOW)).accepted).toBe(false);
      expect((await s.complete(p.crawl_id, fresh, { kind: 'delivered', item: '"new"' }, [], NOW)).accepted).toBe(true);
      expect(await s.items(p.crawl_id, 0, 10)).toEqual(['"new"']);
      expect((await s.complete(p.crawl_id, fresh, { kind: 'delivered', item: '"again"' }, [], NOW)).accepted).toBe(false);
    });

    it('requeues a retry at the back with attempt + 1 and counts its category; a release goes to the front', async () => {
      const s = make();
      const p = plan();
      await s.createCrawl(p, [req('http://a.test/1'), req('http://a.test/2')]);
      const [one] = (await s.lease(p.crawl_id, 'a.test', 1, 30_000, NOW)).leases;
      expect(await s.requeue(p.crawl_id, one, 'http_429')).toBe(true);
      expect(await s.requeue(p.crawl_id, one, 'http_429')).toBe(false);
      const [two] = (await s.lease(p.crawl_id, 'a.test', 1, 30_000, NOW)).leases;
      expect(two.request.url).toBe('http://a.test/2');
      expect(await s.requeue(p.crawl_id, two, null)).toBe(true);
      const again = (await s.lease(p.crawl_id, 'a.test', 2, 30_000, NOW)).leases;
      expect(again.map((l) => [l.request.url, l.request.attempt])).toEqual([
        ['http://a.test/2', 0],
        ['http://a.test/1', 1],
      ]);
      const snap = (await s.getCrawl(p.crawl_id))!;
      expect(snap.counters.retry_categories).toEqual({ http_429: 1 });
      addsUp(snap);
    });

    it('renews held leases and reports lost ones', async () => {
      const s = make();
      const p = plan();
      await s.createCrawl(p, [req('http://a.test/1'), req('http://a.test/2')]);
      const [a, b] = (await s.lease(p.crawl_id, 'a.test', 2, 1_000, NOW)).leases;
      await s.reclaim(p.crawl_id, NOW + 2_000, 1);
      const lost = await s.renew(p.crawl_id, [a.token, b.token], 30_000, NOW + 2_000);
      expect(lost).toHaveLength(1);
      expect(await s.reclaim(p.crawl_id, NOW + 5_000, 10)).toBe(0);
    });

    it('pauses and resumes; a terminal status drops queued work and late results', async () => {
      const s = make();
      const p = plan();
      await s.createCrawl(p, [req('http://a.test/1'), req('http://a.test/2'), req('http://a.test/3')]);
      const [l] = (await s.lease(p.crawl_id, 'a.test', 1, 30_000, NOW)).leases;
      expect(await s.transition(p.crawl_id, ['queued', 'running'], 'paused', NOW)).toBe(true);
      expect(await s.statusOf(p.crawl_id)).toBe('paused');
      expect(await s.statusOf('crawl_missing')).toBeNull();
      expect((await s.lease(p.crawl_id, 'a.test', 1, 30_000, NOW)).leases).toEqual([]);
      expect(await s.transition(p.crawl_id, ['queued', 'running'], 'paused', NOW)).toBe(false);
      expect(await s.transition(p.crawl_id, ['paused'], 'running', NOW)).toBe(true);
      expect(await s.transition(p.crawl_id, ['running'], 'expired', NOW + 9, { code: 'crawl_timeout', message: 'x' })).toBe(true);
      expect((await s.complete(p.crawl_id, l, { kind: 'delivered', item: '{}' }, [], NOW)).accepted).toBe(false);
      const snap = (await s.getCrawl(p.crawl_id))!;
      expect(snap.status).toBe('expired');
      expect(snap.failure).toEqual({ code: 'crawl_timeout', message: 'x' });
      expect(snap.counters.dropped).toBe(3);
      expect(snap.counters.queued).toBe(0);
      addsUp(snap);
    });

    it('a lease handed back after the crawl ended is dropped, not queued again', async () => {
      const s = make();
      const p = plan();
      await s.createCrawl(p, [req('http://a.test/1'), req('http://a.test/2'), req('http://a.test/3')]);
      const [retry, release] = (await s.lease(p.crawl_id, 'a.test', 2, 30_000, NOW)).leases;
      expect(await s.transition(p.crawl_id, ['queued', 'running'], 'budget_exhausted', NOW)).toBe(true);
      expect(await s.requeue(p.crawl_id, retry, 'network')).toBe(false);
      expect(await s.requeue(p.crawl_id, release, null)).toBe(false);
      const snap = (await s.getCrawl(p.crawl_id))!;
      expect(snap.counters).toMatchObject({ queued: 0, in_flight: 0, dropped: 3 });
      expect(snap.counters.retry_categories).toEqual({});
      addsUp(snap);
    });

    it('enforce mode: a delivery needs prepaid credit and keeps the lease while it waits', async () => {
      const s = make();
      const p = plan({ billing_mode: 'enforce' });
      await s.createCrawl(p, [req('http://a.test/')]);
      const [l] = (await s.lease(p.crawl_id, 'a.test', 1, 30_000, NOW)).leases;
      const asked = NOW + 1_000;
      expect((await s.complete(p.crawl_id, l, { kind: 'delivered', item: '{}' }, [], asked)).needBudget).toBe(true);
      // Held BUDGET_WAIT_MS from the completion that asked for credit, past the lease's own 30 s.
      expect(await s.reclaim(p.crawl_id, asked + BUDGET_WAIT_MS - 1, 10)).toBe(0);
      expect(await s.addBudget(p.crawl_id, 1)).toBe(1);
      expect((await s.complete(p.crawl_id, l, { kind: 'delivered', item: '{}' }, [], asked)).accepted).toBe(true);
      expect(await s.addBudget(p.crawl_id, 0)).toBe(0);
    });

    it('enforce mode: a lease waiting for credit expires BUDGET_WAIT_MS after the completion that asked', async () => {
      const s = make();
      const p = plan({ billing_mode: 'enforce' });
      await s.createCrawl(p, [req('http://a.test/')]);
      const [l] = (await s.lease(p.crawl_id, 'a.test', 1, 30_000, NOW)).leases;
      const asked = NOW + 1_000;
      expect((await s.complete(p.crawl_id, l, { kind: 'delivered', item: '{}' }, [], asked)).needBudget).toBe(true);
      expect(await s.reclaim(p.crawl_id, asked + BUDGET_WAIT_MS - 1, 10)).toBe(0);
      expect(await s.reclaim(p.crawl_id, asked + BUDGET_WAIT_MS, 10)).toBe(1);
      const c = (await s.getCrawl(p.crawl_id))!.counters;
      expect([c.queued, c.in_flight, c.completed]).toEqual([1, 0, 0]);
    });

    it('finalizes once', async () => {
      const s = make();
      const p = plan();
      await s.createCrawl(p, [req('http://a.test/')]);
      expect(await s.markFinalized(p.crawl_id)).toBe(true);
      expect(await s.markFinalized(p.crawl_id)).toBe(false);
      expect((await s.getCrawl(p.crawl_id))!.finalized).toBe(true);
    });

    it('forgets an ended crawl, items and all, once its retention has passed', async () => {
      const s = make();
      const p = plan();
      const keep = plan();
      await s.createCrawl(p, [req('http://a.test/1'), req('http://b.test/1')]);
      await s.createCrawl(keep, [req('http://a.test/1')]);
      const [l] = (await s.lease(p.crawl_id, 'a.test', 1, 30_000, NOW)).leases;
      await s.complete(p.crawl_id, l, { kind: 'delivered', item: '{"n":1}' }, [req('http://a.test/2', 1)], NOW);
      expect(await s.transition(p.crawl_id, ['running'], 'completed', NOW)).toBe(true);
      await s.expireCrawl(p.crawl_id, 300);
      // Still readable within the retention.
      expect((await s.getCrawl(p.crawl_id))!.status).toBe('completed');
      expect(await s.items(p.crawl_id, 0, 10)).toEqual(['{"n":1}']);
      await new Promise((r) => setTimeout(r, 400));
      expect(await s.getCrawl(p.crawl_id)).toBeNull();
      expect(await s.statusOf(p.crawl_id)).toBeNull();
      expect(await s.hostsOf(p.crawl_id)).toEqual([]);
      expect(await s.items(p.crawl_id, 0, 10)).toEqual([]);
      expect(await s.item(p.crawl_id, 0)).toBeNull();
      // Other crawls are untouched, and an unknown crawl is no error.
      expect((await s.getCrawl(keep.crawl_id))!.status).toBe('queued');
      await s.expireCrawl('crawl_missing', 300);
    });

    it('lists every crawl newest first, by team or all, page after page from an index key', async () => {
      const s = make();
      const at = (i: number) => new Date(NOW + i * 1_000).toISOString();
      const made = [
        plan({ team_id: 'team_a', created_at: at(1) }),
        plan({ team_id: 'team_b', created_at: at(2) }),
        plan({ team_id: 'team_a', created_at: at(3) }),
        plan({ team_id: 'team_a', created_at: at(3) }),
      ];
      for (const p of made) await s.createCrawl(p, [req('http://a.test/')]);
      const ids = (es: { id: string }[]) => es.map((e) => e.id);
      // Same creation time: the larger id first, so the order is total and a key is an exact position.
      const tied = [made[2].crawl_id, made[3].crawl_id].sort().reverse();
      const all = await s.listCrawls({ limit: 10 });
      expect(ids(all)).toEqual([...tied, made[1].crawl_id, made[0].crawl_id]);
      const first = await s.listCrawls({ team_id: 'team_a', limit: 2 });
      expect(ids(first)).toEqual(tied);
      const rest = await s.listCrawls({ team_id: 'team_a', after: first[1].key, limit: 2 });
      expect(ids(rest)).toEqual([made[0].crawl_id]);
      expect(await s.listCrawls({ team_id: 'team_a', after: rest[0].key, limit: 2 })).toEqual([]);
      expect(await s.listCrawls({ team_id: 'team_nobody', limit: 2 })).toEqual([]);
    });

    it('lists ended crawls by when they are forgotten, and drops them from every listing once they are', async () => {
      const s = make();
      const [soon, later, live] = [plan({ team_id: 'team_x' }), plan({ team_id: 'team_y' }), plan({ team_id: 'team_x' })];
      for (const p of [soon, later, live]) await s.createCrawl(p, [req('http://a.test/')]);
      for (const p of [soon, later]) await s.transition(p.crawl_id, ['queued'], 'failed', NOW);
      const t0 = Date.now();
      await s.expireCrawl(later.crawl_id, 60_000);
      await s.expireCrawl(soon.crawl_id, 300);
      const expiring = await s.expiringCrawls(10);
      expect(expiring.map((e) => [e.id, e.team_id])).toEqual([
        [soon.crawl_id, 'team_x'],
        [later.crawl_id, 'team_y'],
      ]);
      expect(expiring[0].expires_at).toBeGreaterThanOrEqual(t0 + 300);
      expect(expiring[0].expires_at).toBeLessThan(expiring[1].expires_at);
      expect(await s.expiringCrawls(1)).toHaveLength(1);
      await new Promise((r) => setTimeout(r, 400));
      expect((await s.expiringCrawls(10)).map((e) => e.id)).toEqual([later.crawl_id]);
      const listed = (await s.listCrawls({ limit: 10 })).map((e) => e.id);
      expect(listed).toContain(live.crawl_id);
      expect(listed).not.toContain(soon.crawl_id);
      expect((await s.listCrawls({ team_id: 'team_x', limit: 10 })).map((e) => e.id)).toEqual([live.crawl_id]);
    });

    it('a terminal status drops the leases still out: a page running when the crawl ended is never delivered', async () => {
      const s = make();
      const p = plan();
      await s.createCrawl(p, [req('http://a.test/1'), req('http://a.test/2'), req('http://b.test/1')]);
      const { leases: [running] } = await s.lease(p.crawl_id, 'a.test', 1, 30_000, NOW);
      const failure = { code: 'cancelled', message: 'stopped' };
      expect(await s.transition(p.crawl_id, ['queued', 'running', 'paused'], 'failed', NOW + 1, failure)).toBe(true);
      const snap = (await s.getCrawl(p.crawl_id))!;
      expect(snap).toMatchObject({ status: 'failed', failure, completed_at: new Date(NOW + 1).toISOString() });
      expect(snap.counters).toMatchObject({ queued: 0, in_flight: 0, dropped: 3, completed: 0 });
      addsUp(snap);
      expect((await s.complete(p.crawl_id, running, { kind: 'delivered', item: '{}' }, [req('http://a.test/3', 1)], NOW + 2)).accepted).toBe(false);
      expect(await s.requeue(p.crawl_id, running, 'network')).toBe(false);
      expect(await s.renew(p.crawl_id, [running.token], 30_000, NOW + 2)).toEqual([running.token]);
      const after = (await s.getCrawl(p.crawl_id))!;
      expect(after.counters).toMatchObject({ discovered: 3, dropped: 3, completed: 0, in_flight: 0 });
      expect(await s.items(p.crawl_id, 0, 10)).toEqual([]);
      // Ended once: a second end (another cause) changes nothing.
      expect(await s.transition(p.crawl_id, ['queued', 'running', 'paused'], 'expired', NOW + 3)).toBe(false);
    });

    it('reports pages per host: queued, leased, and when the oldest lease still out was taken', async () => {
      const s = make();
      const p = plan();
      await s.createCrawl(p, [req('http://a.test/1'), req('http://a.test/2'), req('http://a.test/3'), req('http://b.test/1')]);
      await s.lease(p.crawl_id, 'a.test', 1, 30_000, NOW);
      await s.lease(p.crawl_id, 'a.test', 1, 30_000, NOW + 500);
      const byHost = async () => Object.fromEntries((await s.hostLoads(p.crawl_id)).map((l) => [l.host, l]));
      expect(await byHost()).toEqual({
        'a.test': { host: 'a.test', queued: 1, leased: 2, oldest_leased_at: NOW },
        'b.test': { host: 'b.test', queued: 1, leased: 0, oldest_leased_at: null },
      });
      // An expired lease goes back to its queue; the one re-leased later is younger.
      await s.reclaim(p.crawl_id, NOW + 30_000, 1);
      expect((await byHost())['a.test']).toEqual({ host: 'a.test', queued: 2, leased: 1, oldest_leased_at: NOW + 500 });
      expect(await s.hostLoads('crawl_missing')).toEqual([]);
    });

    it('holds max_pages exactly when many completions race to admit links', async () => {
      const s = make();
      const p = plan({ max_pages: 25 });
      const seeds = Array.from({ length: 10 }, (_, i) => req(`http://h${i}.test/`));
      await s.createCrawl(p, seeds);
      const batches = await Promise.all(seeds.map((r) => s.lease(p.crawl_id, r.host, 1, 30_000, NOW)));
      // Ten lease calls at once: exactly one of them started the crawl (it is logged once, whoever leased first).
      expect(batches.filter((b) => b.started)).toHaveLength(1);
      const leases = batches.flatMap((b) => b.leases);
      await Promise.all(
        leases.map((l, i) =>
          s.complete(
            p.crawl_id,
            l,
            { kind: 'delivered', item: String(i) },
            Array.from({ length: 20 }, (_, j) => req(`http://h${(i + j) % 10}.test/p${j}`, 1)),
            NOW,
          ),
        ),
      );
      const snap = (await s.getCrawl(p.crawl_id))!;
      expect(snap.counters.discovered).toBe(25);
      expect(snap.counters.queued).toBe(15);
      addsUp(snap);
    });
  });
}
