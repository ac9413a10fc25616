import { mkdtempSync, rmSync } from 'node:fs';
import { tmpdir } from 'node:os';
import { join } from 'node:path';
import { afterEach, describe, expect, it } from 'vitest';
import type { TrendsGrain } from '@trawl/contract';
import { openKv } from '@trawl/kv';
import { KvTrendsJobStore } from '../src/index.ts';

const GRAIN: TrendsGrain = { keyword: 'soup', geo: 'FR', timeframe: 'today 12-m', category: 0, property: '', hl: 'fr', tz: 0 };
const T0 = Date.UTC(2026, 2, 1);
const opts = { leaseMs: 1000, maxAttempts: 3 };

const dirs: string[] = [];
afterEach(() => {
  for (const d of dirs.splice(0)) rmSync(d, { recursive: true, force: true });
});

describe('disk trends job store', () => {
  it('keeps jobs, the queue, leases and the index across a restart: a lease taken before it lapses and moves on', async () => {
    const dir = mkdtempSync(join(tmpdir(), 'trawl-trends-disk-'));
    dirs.push(dir);
    let kv = openKv({ dir });
    let s = new KvTrendsJobStore(kv, 'p:');
    const running = await s.create({ team_id: 't', request: GRAIN }, T0);
    const queued = await s.create({ team_id: 't', request: GRAIN }, T0 + 1);
    const lease = (await s.claim('r1', T0 + 2, opts))!;
    expect(lease.job.id).toBe(running.id);
    await kv.close();

    kv = openKv({ dir });
    s = new KvTrendsJobStore(kv, 'p:');
    expect(await s.get(running.id)).toMatchObject({ state: 'running', owner: 'r1', attempts: 1 });
    expect((await s.list({ limit: 10 })).map((e) => e.id)).toEqual([queued.id, running.id]);
    expect((await s.claim('r2', T0 + 3, opts))!.job.id).toBe(queued.id);
    // The first runner died with the old process: its lease lapses and the job is taken over.
    expect(await s.claim('r2', T0 + 1001, opts)).toBeNull();
    expect(await s.claim('r2', T0 + 1002, opts)).toMatchObject({ attempt: 2, job: { id: running.id, owner: 'r2' } });
    expect(await s.complete(lease, { top: [], rising: [] }, false, T0 + 1003)).toBe(false);
    await kv.close();
  });

  it('keeps each prefix’s jobs apart in one shared Kv', async () => {
    const dir = mkdtempSync(join(tmpdir(), 'trawl-trends-disk-'));
    dirs.push(dir);
    const kv = openKv({ dir });
    const a = new KvTrendsJobStore(kv, 'a:');
    const b = new KvTrendsJobStore(kv, 'b:');
    const job = await a.create({ team_id: 't', request: GRAIN }, T0);
    expect(await b.get(job.id)).toBeNull();
    expect(await b.list({ limit: 10 })).toEqual([]);
    expect(await b.claim('r', T0, opts)).toBeNull();
    expect((await a.claim('r', T0, opts))!.job.id).toBe(job.id);
    await kv.close();
  });
});
