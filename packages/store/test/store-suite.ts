import { beforeAll, describe, expect, it } from 'vitest';
import { MAX_SELECTOR_MEMORY_BYTES, type Store, type RunRecord } from '../src/index.ts';
import type { Clock, MakeStore } from './store-backends.ts';

function runRecord(id: string, team: string): RunRecord {
  return {
    team_id: team,
    run: {
      id,
      type: 'fetch',
      status: 'running',
      created_at: new Date().toISOString(),
      cost_units: 0,
      quota: { resource: 'scrape', quantity_reserved: 1 },
    },
  };
}

/** Runs, artifacts, keys, idempotency, the ledger and selector memory: store-conformance.test.ts and .e2e.test.ts. */
export function storeConformance(backends: [string, MakeStore][]): void {
  describe.each(backends)('store conformance: %s', (_name, make) => {
    const clock: Clock = { t: Date.now() };
    let store: Store;
    beforeAll(() => {
      store = make(clock);
    });

    it('finds an API key by its secret, stores no secret, and forgets revoked keys', async () => {
      const team = await store.createTeam('acme');
      const { key, secret } = await store.createApiKey(team.id, { label: 'ci', scopes: ['fetch'] });
      expect(secret).toMatch(/^trawl_/);
      expect(JSON.stringify(key)).not.toContain(secret);
      expect((await store.findApiKey(secret))?.id).toBe(key.id);
      expect(await store.findApiKey(secret + 'x')).toBeNull();
      expect((await store.listApiKeys(team.id)).map((k) => k.id)).toEqual([key.id]);
      expect(await store.revokeApiKey('team_other', key.id)).toBe(false);
      expect(await store.revokeApiKey(team.id, key.id)).toBe(true);
      expect(await store.findApiKey(secret)).toBeNull();
    });

    it('accepts a caller-chosen secret (bootstrap key) and finds teams by name', async () => {
      const team = await store.createTeam('boot');
      await store.createApiKey(team.id, { label: 'bootstrap', scopes: ['fetch', 'runs'], secret: 'dev-key-0123456789abcdef' });
      expect((await store.findApiKey('dev-key-0123456789abcdef'))?.team_id).toBe(team.id);
      expect((await store.findTeamByName('boot'))?.id).toBe(team.id);
      expect(await store.findTeamByName('nobody')).toBeNull();
    });

    it('creates a run once and returns copies that callers cannot mutate', async () => {
      await store.createRun(runRecord('run_a', 'team_1'));
      await expect(store.createRun(runRecord('run_a', 'team_1'))).rejects.toThrow();
      const r = (await store.getRun('run_a'))!;
      r.run.status = 'failed';
      expect((await store.getRun('run_a'))!.run.status).toBe('running');
      await store.saveRun({ ...r, run: { ...r.run, status: 'completed' } });
      expect((await store.getRun('run_a'))!.run.status).toBe('completed');
      expect(await store.getRun('run_missing')).toBeNull();
    });

    it('serves artifact bytes until retention elapses, then reports them gone (not missing)', async () => {
      const bytes = Buffer.from([0, 1, 2, 255, 0x89, 0x50]);
      await store.putArtifact(
        {
          run_id: 'run_art',
          key: 'png',
          team_id: 'team_1',
          content_type: 'image/png',
          crawl_id: null,
          created_at: new Date(clock.t).toISOString(),
          expires_at: new Date(clock.t + 60_000).toISOString(),
        },
        bytes,
      );
      const got = (await store.getArtifact('run_art', 'png'))!;
      expect(got.body?.equals(bytes)).toBe(true);
      expect(got.meta.content_type).toBe('image/png');
      expect(await store.getArtifact('run_art', 'nope')).toBeNull();
      clock.t += 61_000;
      const later = (await store.getArtifact('run_art', 'png'))!;
      expect(later.meta.key).toBe('png');
      expect(later.body).toBeNull();
      clock.t -= 61_000;
    });

    it('idempotency: one claim, conflict on another body, in progress until completed, then replay', async () => {
      const key = 'team_1:k1';
      expect(await store.beginIdempotent(key, 'fp1', 60)).toEqual({ state: 'started' });
      expect(await store.beginIdempotent(key, 'fp1', 60)).toEqual({ state: 'in_progress' });
      expect(await store.beginIdempotent(key, 'fp2', 60)).toEqual({ state: 'conflict' });
      await store.completeIdempotent(key, 'fp1', { status: 200, body: '{"ok":true}' }, 86400);
      expect(await store.beginIdempotent(key, 'fp1', 60)).toEqual({
        state: 'replay',
        response: { status: 200, body: '{"ok":true}' },
      });
      expect(await store.beginIdempotent(key, 'fp2', 60)).toEqual({ state: 'conflict' });
    });

    it('idempotency: hasReplay is true only for a completed response with the same fingerprint, and writes nothing', async () => {
      const key = 'team_1:k4';
      expect(await store.hasReplay(key, 'fp')).toBe(false);
      // Nothing was claimed by asking.
      expect(await store.beginIdempotent(key, 'fp', 60)).toEqual({ state: 'started' });
      expect(await store.hasReplay(key, 'fp')).toBe(false);
      await store.completeIdempotent(key, 'fp', { status: 202, body: '{}' }, 86400);
      expect(await store.hasReplay(key, 'fp')).toBe(true);
      expect(await store.hasReplay(key, 'other')).toBe(false);
    });

    it('idempotency: a released claim can be taken again', async () => {
      const key = 'team_1:k2';
      expect((await store.beginIdempotent(key, 'fp', 60)).state).toBe('started');
      await store.releaseIdempotent(key, 'fp');
      expect((await store.beginIdempotent(key, 'fp', 60)).state).toBe('started');
    });

    it('idempotency: exactly one of 50 concurrent claims starts', async () => {
      const results = await Promise.all(
        Array.from({ length: 50 }, () => store.beginIdempotent('team_1:k3', 'fp', 60)),
      );
      expect(results.filter((r) => r.state === 'started')).toHaveLength(1);
      expect(results.filter((r) => r.state === 'in_progress')).toHaveLength(49);
    });

    it('ledger: charges once per run, enforces only in enforce mode', async () => {
      await store.grantCredits('team_l', 2);
      const at = new Date().toISOString();
      expect(await store.charge({ team_id: 'team_l', run_id: 'r1', units: 1, reason: 'page', at }, true)).toEqual({ ok: true, balance: 1 });
      expect(await store.charge({ team_id: 'team_l', run_id: 'r1', units: 1, reason: 'page', at }, true)).toEqual({ ok: true, balance: 1 });
      expect((await store.charge({ team_id: 'team_l', run_id: 'r2', units: 1, reason: 'page', at }, true)).balance).toBe(0);
      expect(await store.charge({ team_id: 'team_l', run_id: 'r3', units: 1, reason: 'page', at }, true)).toEqual({ ok: false, balance: 0 });
      expect(await store.charge({ team_id: 'team_l', run_id: 'r3', units: 1, reason: 'page', at }, false)).toEqual({ ok: true, balance: -1 });
      expect(await store.balance('team_l')).toBe(-1);
      expect((await store.entries('team_l', 10)).map((e) => e.run_id)).toEqual(['r3', 'r2', 'r1']);
    });

    it('selector memory: kept per team, domain and schema, never across teams', async () => {
      const key = { team_id: 'team_m', domain: 'shop.test', schema_key: 's1' };
      expect(await store.getSelectorMemory(key, 60)).toBeNull();
      await store.putSelectorMemory(key, '{"v":1}', 60);
      expect(await store.getSelectorMemory(key, 60)).toBe('{"v":1}');
      expect(await store.getSelectorMemory({ ...key, team_id: 'team_other' }, 60)).toBeNull();
      expect(await store.getSelectorMemory({ ...key, domain: 'other.test' }, 60)).toBeNull();
      expect(await store.getSelectorMemory({ ...key, schema_key: 's2' }, 60)).toBeNull();
      await store.putSelectorMemory(key, '{"v":2}', 60);
      expect(await store.getSelectorMemory(key, 60)).toBe('{"v":2}');
    });

    it('selector memory: expires after its time unused, and each read restarts the clock', async () => {
      const key = { team_id: 'team_m', domain: 'ttl.test', schema_key: 's1' };
      // Redis keeps its own clock, so time passes for real here as well as on the injected clock.
      const pass = async (ms: number) => {
        await new Promise((r) => setTimeout(r, ms));
        clock.t += ms;
      };
      // 3 s of time-to-live and steps of 60% of it: a loaded machine may oversleep by a second and the test still
      // tells a restarted clock (alive at 120% of the TTL) from an expired one.
      await store.putSelectorMemory(key, 'x', 3);
      await pass(1_800);
      expect(await store.getSelectorMemory(key, 3)).toBe('x');
      await pass(1_800);
      expect(await store.getSelectorMemory(key, 3)).toBe('x');
      await pass(3_600);
      expect(await store.getSelectorMemory(key, 3)).toBeNull();
    });

    it('selector memory: a value over the size bound is not stored', async () => {
      const key = { team_id: 'team_m', domain: 'big.test', schema_key: 's1' };
      await store.putSelectorMemory(key, 'y'.repeat(MAX_SELECTOR_MEMORY_BYTES + 1), 60);
      expect(await store.getSelectorMemory(key, 60)).toBeNull();
    });
  });
}
