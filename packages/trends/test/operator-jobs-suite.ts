import { describe, expect, it } from 'vitest';
import type { TrendsGrain } from '@trawl/contract';
import {
  getTrendsJob,
  listTrendsJobs,
  ListTrendsJobsInput,
  TrendsJobIdInput,
  type TrendsJobStore,
} from '../src/index.ts';

const GRAIN: TrendsGrain = { keyword: 'tea', geo: 'GB', timeframe: 'today 12-m', category: 0, property: '', hl: 'en-GB', tz: 0 };
const T0 = Date.UTC(2026, 1, 1);

/** The operator's job listing on every backend: operator-jobs.test.ts (Kv stores) and .e2e.test.ts (Redis). */
export function operatorJobCases(backends: [string, () => TrendsJobStore][]): void {
  describe.each(backends)('operator trends jobs: %s', (_name, make) => {
    const list = (s: TrendsJobStore, input: unknown) => listTrendsJobs(s, ListTrendsJobsInput.parse(input));

    it('lists jobs of every team newest first, by team and state, page after page with an opaque cursor', async () => {
      const s = make();
      const a1 = await s.create({ team_id: 'team_a', request: GRAIN }, T0);
      const b1 = await s.create({ team_id: 'team_b', request: GRAIN }, T0 + 1_000);
      const a2 = await s.create({ team_id: 'team_a', request: GRAIN }, T0 + 2_000);
      const lease = (await s.claim('runner_1', T0 + 3_000, { leaseMs: 60_000, maxAttempts: 3 }))!;
      expect(lease.job.id).toBe(a1.id);

      const all = await list(s, undefined);
      expect(all.ok && all.jobs.map((j) => [j.id, j.team_id, j.state])).toEqual([
        [a2.id, 'team_a', 'queued'],
        [b1.id, 'team_b', 'queued'],
        [a1.id, 'team_a', 'running'],
      ]);
      const first = await list(s, { limit: 2 });
      if (!first.ok) throw new Error('bad page');
      expect(first.next_cursor).not.toBeNull();
      const second = await list(s, { limit: 2, cursor: first.next_cursor });
      expect(second).toMatchObject({ ok: true, next_cursor: null });
      expect(second.ok && second.jobs.map((j) => j.id)).toEqual([a1.id]);
      const running = await list(s, { state: 'running' });
      expect(running.ok && running.jobs).toMatchObject([{ id: a1.id, owner: 'runner_1', lease_until: new Date(T0 + 63_000).toISOString() }]);
      const teamB = await list(s, { team_id: 'team_b', state: 'queued' });
      expect(teamB.ok && teamB.jobs.map((j) => j.id)).toEqual([b1.id]);
      expect(await list(s, { cursor: 'xyz' })).toEqual({ ok: false, reason: 'bad_cursor' });
      expect(ListTrendsJobsInput.safeParse({ state: 'paused' }).success).toBe(false);
      expect(ListTrendsJobsInput.safeParse({ limit: 0 }).success).toBe(false);
    });

    it('reads any team’s job with its team, or null', async () => {
      const s = make();
      const job = await s.create({ team_id: 'team_z', request: GRAIN }, T0);
      expect(await getTrendsJob(s, TrendsJobIdInput.parse({ job_id: job.id }))).toMatchObject({
        id: job.id,
        team_id: 'team_z',
        state: 'queued',
        request: GRAIN,
        owner: null,
        lease_until: null,
      });
      expect(await getTrendsJob(s, TrendsJobIdInput.parse({ job_id: 'job_missing' }))).toBeNull();
    });
  });
}
