import { beforeAll, describe, expect, it } from 'vitest';
import type { TrendsGrain, TrendsResult } from '@trawl/contract';
import { WORKER_LOST, type TrendsJobStore, type TrendsJobStoreOptions } from '../src/index.ts';

/** Makes a fresh, empty job store (with the given retention). */
export type MakeJobStore = (opts?: TrendsJobStoreOptions) => TrendsJobStore;

const GRAIN: TrendsGrain = { keyword: 'pizza', geo: '', timeframe: '2021-01-01 2021-12-31', category: 0, property: '', hl: 'en-US', tz: 360 };
const RESULT: TrendsResult = {
  top: [{ query: 'pizza hut', value: 100, formatted_value: '100', breakout: false, link: 'https://trends.google.com/trends/explore?q=pizza+hut' }],
  rising: [],
};
const T0 = Date.UTC(2026, 0, 1);
const iso = (ms: number) => new Date(ms).toISOString();
const opts = { leaseMs: 1000, maxAttempts: 3 };

/** The job store's rules on every backend: job-store-conformance.test.ts (Kv stores) and .e2e.test.ts (Redis). */
export function jobStoreConformance(backends: [string, MakeJobStore][]): void {
  describe.each(backends)('trends job store conformance: %s', (_name, make) => {
    let store: TrendsJobStore;
    beforeAll(() => {
      store = make();
    });

    it('creates a queued job and reads it back', async () => {
      const job = await store.create({ team_id: 'team_a', request: GRAIN }, T0);
      expect(job.id).toMatch(/^job_[A-Za-z0-9_-]{22}$/);
      expect(await store.get(job.id)).toEqual({
        id: job.id,
        team_id: 'team_a',
        request: GRAIN,
        state: 'queued',
        attempts: 0,
        created_at: iso(T0),
        updated_at: iso(T0),
        started_at: null,
        completed_at: null,
        result: null,
        error: null,
        cached: false,
        owner: null,
        lease_until: null,
      });
      expect(await store.get('job_missing')).toBeNull();
    });

    it('claims the oldest due job once, under a lease, and completes it', async () => {
      const s = make();
      const a = await s.create({ team_id: 't', request: GRAIN }, T0);
      const b = await s.create({ team_id: 't', request: GRAIN }, T0 + 5);
      const lease = (await s.claim('r1', T0 + 10, opts))!;
      expect(lease.job.id).toBe(a.id);
      expect(lease).toMatchObject({ owner: 'r1', attempt: 1, job: { state: 'running', attempts: 1, started_at: iso(T0 + 10), owner: 'r1', lease_until: T0 + 1010 } });
      expect((await s.claim('r2', T0 + 10, opts))!.job.id).toBe(b.id);
      expect(await s.claim('r3', T0 + 10, opts)).toBeNull();
      expect(await s.complete(lease, RESULT, false, T0 + 20)).toBe(true);
      expect(await s.get(a.id)).toMatchObject({ state: 'completed', result: RESULT, cached: false, completed_at: iso(T0 + 20), updated_at: iso(T0 + 20), owner: null, lease_until: null });
      // Settled: the lease is spent.
      expect(await s.complete(lease, RESULT, false, T0 + 30)).toBe(false);
      expect(await s.renew(lease, T0 + 30, 1000)).toBe(false);
    });

    it('keeps an empty result as empty arrays and records a cached completion', async () => {
      const s = make();
      const job = await s.create({ team_id: 't', request: GRAIN }, T0);
      const lease = (await s.claim('r', T0, opts))!;
      await s.complete(lease, { top: [], rising: [] }, true, T0 + 1);
      expect(await s.get(job.id)).toMatchObject({ state: 'completed', result: { top: [], rising: [] }, cached: true });
    });

    it('retries: back to queued, claimable again only from its not-before time, attempts counted, started_at kept', async () => {
      const s = make();
      const job = await s.create({ team_id: 't', request: GRAIN }, T0);
      const first = (await s.claim('r1', T0, opts))!;
      expect(await s.retry(first, T0 + 500, T0 + 100)).toBe(true);
      expect(await s.get(job.id)).toMatchObject({ state: 'queued', attempts: 1, owner: null, updated_at: iso(T0 + 100) });
      expect(await s.claim('r2', T0 + 499, opts)).toBeNull();
      const second = (await s.claim('r2', T0 + 500, opts))!;
      expect(second).toMatchObject({ attempt: 2, job: { attempts: 2, started_at: iso(T0), owner: 'r2' } });
      expect(await s.fail(second, { code: 'upstream_rejected', message: 'no', retryable: false }, T0 + 600)).toBe(true);
      expect(await s.get(job.id)).toMatchObject({ state: 'failed', error: { code: 'upstream_rejected' }, completed_at: iso(T0 + 600), result: null });
    });

    it('renews a held lease; an expired one goes to another runner with attempts grown, and fences the old holder', async () => {
      const s = make();
      const job = await s.create({ team_id: 't', request: GRAIN }, T0);
      const first = (await s.claim('r1', T0, opts))!;
      expect(await s.renew(first, T0 + 900, 1000)).toBe(true);
      expect(await s.claim('r2', T0 + 1500, opts)).toBeNull();
      const second = (await s.claim('r2', T0 + 1901, opts))!;
      expect(second).toMatchObject({ owner: 'r2', attempt: 2, job: { id: job.id, attempts: 2, state: 'running' } });
      expect(await s.renew(first, T0 + 1950, 1000)).toBe(false);
      expect(await s.complete(first, RESULT, false, T0 + 1950)).toBe(false);
      expect(await s.retry(first, T0, T0 + 1950)).toBe(false);
      expect(await s.complete(second, RESULT, false, T0 + 2000)).toBe(true);
      expect(await s.get(job.id)).toMatchObject({ state: 'completed', attempts: 2 });
    });

    it('fails a job as worker_lost when its lease expires at the last attempt', async () => {
      const s = make();
      const job = await s.create({ team_id: 't', request: GRAIN }, T0);
      let now = T0;
      for (let i = 1; i <= 3; i++) {
        expect((await s.claim(`r${i}`, now, opts))?.attempt).toBe(i);
        now += 1001;
      }
      expect(await s.claim('r4', now, opts)).toBeNull();
      expect(await s.get(job.id)).toMatchObject({ state: 'failed', attempts: 3, error: WORKER_LOST, completed_at: iso(now) });
    });

    it('hands each job to exactly one of many concurrent claimers', async () => {
      const s = make();
      const ids = new Set<string>();
      for (let i = 0; i < 5; i++) ids.add((await s.create({ team_id: 't', request: GRAIN }, T0)).id);
      const leases = await Promise.all(Array.from({ length: 20 }, (_, i) => s.claim(`r${i}`, T0, opts)));
      const taken = leases.filter((l) => l !== null).map((l) => l!.job.id);
      expect(taken.sort()).toEqual([...ids].sort());
    });

    it('lists jobs newest first, by team or all, page after page from an index key', async () => {
      const s = make();
      const a1 = await s.create({ team_id: 'team_a', request: GRAIN }, T0);
      const b1 = await s.create({ team_id: 'team_b', request: GRAIN }, T0 + 1_000);
      const a2 = await s.create({ team_id: 'team_a', request: GRAIN }, T0 + 2_000);
      const ids = (es: { id: string }[]) => es.map((e) => e.id);
      expect(ids(await s.list({ limit: 10 }))).toEqual([a2.id, b1.id, a1.id]);
      const first = await s.list({ team_id: 'team_a', limit: 1 });
      expect(ids(first)).toEqual([a2.id]);
      const rest = await s.list({ team_id: 'team_a', after: first[0].key, limit: 5 });
      expect(ids(rest)).toEqual([a1.id]);
      expect(await s.list({ team_id: 'team_a', after: rest[0].key, limit: 5 })).toEqual([]);
      // Without a retention nothing is ever forgotten, so nothing is listed as expiring.
      expect(await s.expiring(10)).toEqual([]);
    });

    it('returns copies that callers cannot mutate', async () => {
      const s = make();
      const job = await s.create({ team_id: 't', request: GRAIN }, T0);
      const read = (await s.get(job.id))!;
      read.request.keyword = 'changed';
      read.state = 'failed';
      expect(await s.get(job.id)).toMatchObject({ state: 'queued', request: GRAIN });
    });

    it('reuses a team’s result of a grain while it is fresh, and only for that team and grain', async () => {
      const s = make();
      expect(await s.cachedResult('t1', 'grainA', T0)).toBeNull();
      await s.cacheResult('t1', 'grainA', RESULT, T0, 60_000);
      expect(await s.cachedResult('t1', 'grainA', T0 + 59_999)).toEqual(RESULT);
      expect(await s.cachedResult('t2', 'grainA', T0)).toBeNull();
      expect(await s.cachedResult('t1', 'grainB', T0)).toBeNull();
      expect(await s.cachedResult('t1', 'grainA', T0 + 60_000)).toBeNull();
    });

    it('announces a created job and one handed back for now to its watchers, not a retry for later nor after unwatching', async () => {
      const s = make();
      let heard = 0;
      const unwatch = await s.watch(() => heard++);
      // Announcements arrive in order (one channel): once the one awaited is here, an earlier one would be too.
      const hear = async (n: number) => {
        const deadline = Date.now() + 5_000;
        while (heard < n && Date.now() < deadline) await new Promise((r) => setTimeout(r, 5));
        return heard;
      };
      const base = heard;
      await s.create({ team_id: 't', request: GRAIN }, T0);
      expect(await hear(base + 1)).toBe(base + 1);
      const lease = (await s.claim('r1', T0, opts))!;
      await s.retry(lease, T0 + 10_000, T0 + 1);
      await s.create({ team_id: 't', request: GRAIN }, T0 + 2);
      expect(await hear(base + 2)).toBe(base + 2);
      const again = (await s.claim('r1', T0 + 10_000, opts))!;
      await s.retry(again, T0 + 10_000, T0 + 10_000);
      expect(await hear(base + 3)).toBe(base + 3);
      await unwatch();
      await s.create({ team_id: 't', request: GRAIN }, T0 + 10_001);
      await new Promise((r) => setTimeout(r, 100));
      expect(heard).toBe(base + 3);
    });
  });

  describe.each(backends)('trends job retention: %s', (_name, make) => {
    it('forgets completed and failed jobs once their retention has passed, never queued or running ones', async () => {
      const s = make({ retentionMs: 300 });
      const done = await s.create({ team_id: 't', request: GRAIN }, T0);
      const failed = await s.create({ team_id: 't', request: GRAIN }, T0 + 1);
      const retried = await s.create({ team_id: 't', request: GRAIN }, T0 + 2);
      const running = await s.create({ team_id: 't', request: GRAIN }, T0 + 3);
      const queued = await s.create({ team_id: 't', request: GRAIN }, T0 + 4);
      expect(await s.complete((await s.claim('r', T0 + 10, opts))!, RESULT, false, T0 + 10)).toBe(true);
      expect(await s.fail((await s.claim('r', T0 + 10, opts))!, WORKER_LOST, T0 + 10)).toBe(true);
      expect(await s.retry((await s.claim('r', T0 + 10, opts))!, T0 + 10_000, T0 + 10)).toBe(true);
      expect((await s.claim('r', T0 + 10, opts))!.job.id).toBe(running.id);
      expect((await s.get(done.id))!.state).toBe('completed');
      // Only settled jobs have a forget time; the one settled first goes first.
      const expiring = await s.expiring(10);
      expect(expiring.map((e) => [e.id, e.team_id])).toEqual([
        [done.id, 't'],
        [failed.id, 't'],
      ]);
      expect(expiring[0].expires_at).toBeLessThanOrEqual(expiring[1].expires_at);
      await new Promise((r) => setTimeout(r, 400));
      expect(await s.get(done.id)).toBeNull();
      expect(await s.get(failed.id)).toBeNull();
      expect((await s.get(retried.id))!.state).toBe('queued');
      expect((await s.get(running.id))!.state).toBe('running');
      expect((await s.get(queued.id))!.state).toBe('queued');
      // Forgotten jobs leave the listings too, so the index is bounded like the jobs.
      expect((await s.list({ limit: 10 })).map((e) => e.id)).toEqual([queued.id, running.id, retried.id]);
      expect((await s.list({ team_id: 't', limit: 10 })).map((e) => e.id)).toEqual([queued.id, running.id, retried.id]);
      expect(await s.expiring(10)).toEqual([]);
    });

    it('forgets a job failed because its workers kept dying', async () => {
      const s = make({ retentionMs: 300 });
      const job = await s.create({ team_id: 't', request: GRAIN }, T0);
      await s.claim('r', T0, { leaseMs: 10, maxAttempts: 1 });
      // The lease lapsed at its last attempt: the next claim fails the job instead of taking it.
      expect(await s.claim('r2', T0 + 100, { leaseMs: 10, maxAttempts: 1 })).toBeNull();
      expect((await s.get(job.id))!).toMatchObject({ state: 'failed', error: WORKER_LOST });
      expect((await s.expiring(10)).map((e) => e.id)).toEqual([job.id]);
      await new Promise((r) => setTimeout(r, 400));
      expect(await s.get(job.id)).toBeNull();
      expect(await s.list({ limit: 10 })).toEqual([]);
    });
  });
}
