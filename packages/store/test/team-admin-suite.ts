import { describe, expect, it } from 'vitest';
import type { Store, TeamRecord } from '../src/index.ts';
import type { MakeStore } from './store-backends.ts';

export const T0 = 1_800_000_000_000;

async function allTeams(store: Store, limit: number) {
  const ids: string[] = [];
  let after: string | undefined;
  for (let pages = 0; pages < 100; pages++) {
    const page = await store.listTeams({ limit, after });
    expect(page.teams.length).toBeLessThanOrEqual(limit);
    ids.push(...page.teams.map((t) => t.id));
    if (page.next_after === null) return ids;
    after = page.next_after;
  }
  throw new Error('listTeams never ended');
}

/**
 * What the admin API needs of a store, on both backends: teams listed in pages (disabled ones too), disabled and
 * enabled, one key read back and rotated (atomically), the ledger read in stable pages.
 * Run by team-admin-conformance.test.ts (Kv stores) and team-admin-conformance.e2e.test.ts (Redis).
 */
export function teamAdminConformance(backends: [string, MakeStore][]): void {
  describe.each(backends)('team admin conformance: %s', (_name, make) => {
    it('lists every team oldest first in pages, disabled ones included, each once', async () => {
      const clock = { t: T0 };
      const store = make(clock);
      expect(await store.listTeams({ limit: 10 })).toEqual({ teams: [], next_after: null });
      const made: TeamRecord[] = [];
      for (let i = 0; i < 7; i++) {
        // Two teams per millisecond: ties in creation time are ordered by id, still each listed once.
        if (i % 2 === 0) clock.t += 1;
        made.push(await store.createTeam(`t${i}`));
      }
      await store.setTeamDisabled(made[3].id, true);
      const ids = await allTeams(store, 2);
      expect(new Set(ids).size).toBe(7);
      expect(ids.slice().sort()).toEqual(made.map((t) => t.id).sort());
      const created = ids.map((id) => made.find((t) => t.id === id)!.created_at);
      expect(created).toEqual(created.slice().sort());
      const first = await store.listTeams({ limit: 7 });
      expect(first.next_after).toBeNull();
      expect(first.teams.find((t) => t.id === made[3].id)?.disabled_at).not.toBeNull();

      // A cursor stays valid while teams are created: a newer team is listed after the pages already read.
      const page1 = await store.listTeams({ limit: 3 });
      clock.t += 1;
      const late = await store.createTeam('late');
      const rest = await store.listTeams({ limit: 100, after: page1.next_after! });
      expect([...page1.teams, ...rest.teams].map((t) => t.id)).toEqual([...ids, late.id]);
    });

    it('makes one team per name: a repeated or concurrent creation returns the first, listed once', async () => {
      const store = make({ t: T0 });
      const first = await store.createTeam('once');
      expect(await store.createTeam('once')).toEqual(first);
      const racing = await Promise.all(Array.from({ length: 10 }, () => store.createTeam('race-name')));
      expect(new Set(racing.map((t) => t.id)).size).toBe(1);
      expect((await store.listTeams({ limit: 100 })).teams.map((t) => t.name).sort()).toEqual(['once', 'race-name']);
      expect(await store.getTeam(racing[0].id)).toEqual(racing[0]);
    });

    it('disables a team, keeping the first disabled_at, and enables it again; an unknown team is null', async () => {
      const clock = { t: T0 };
      const store = make(clock);
      const team = await store.createTeam('acme');
      expect(team.disabled_at).toBeNull();
      clock.t += 1000;
      const disabled = await store.setTeamDisabled(team.id, true);
      expect(disabled).toEqual({ ...team, disabled_at: new Date(T0 + 1000).toISOString() });
      clock.t += 1000;
      expect((await store.setTeamDisabled(team.id, true))?.disabled_at).toBe(new Date(T0 + 1000).toISOString());
      expect(await store.getTeam(team.id)).toEqual(disabled);
      expect(await store.findTeamByName('acme')).toEqual(disabled);
      expect(await store.setTeamDisabled(team.id, false)).toEqual(team);
      expect(await store.getTeam(team.id)).toEqual(team);
      expect(await store.setTeamDisabled('team_nobody', true)).toBeNull();
    });

    it('reads one key of a team, revoked or not, never another team’s', async () => {
      const store = make({ t: T0 });
      const team = await store.createTeam('keys');
      const { key } = await store.createApiKey(team.id, { label: 'ci', scopes: ['fetch'] });
      expect(await store.getApiKey(team.id, key.id)).toEqual(key);
      expect(await store.getApiKey('team_other', key.id)).toBeNull();
      expect(await store.getApiKey(team.id, 'key_nobody')).toBeNull();
      await store.revokeApiKey(team.id, key.id);
      expect((await store.getApiKey(team.id, key.id))?.revoked_at).toBe(new Date(T0).toISOString());
    });

    it('rotates a live key: a new secret with the same team, label and scopes, the old one revoked', async () => {
      const store = make({ t: T0 });
      const team = await store.createTeam('rotate');
      const old = await store.createApiKey(team.id, { label: 'ci', scopes: ['fetch', 'runs'] });
      expect(await store.rotateApiKey('team_other', old.key.id)).toBeNull();
      expect(await store.rotateApiKey(team.id, 'key_nobody')).toBeNull();
      const next = (await store.rotateApiKey(team.id, old.key.id))!;
      expect(next.key).toMatchObject({ team_id: team.id, label: 'ci', scopes: ['fetch', 'runs'], revoked_at: null });
      expect(next.key.id).not.toBe(old.key.id);
      expect(next.secret).not.toBe(old.secret);
      expect(await store.findApiKey(old.secret)).toBeNull();
      expect((await store.findApiKey(next.secret))?.id).toBe(next.key.id);
      const keys = await store.listApiKeys(team.id);
      expect(Object.fromEntries(keys.map((k) => [k.id, k.revoked_at === null]))).toEqual({ [old.key.id]: false, [next.key.id]: true });
      // A revoked key is not rotated again.
      expect(await store.rotateApiKey(team.id, old.key.id)).toBeNull();
    });

    it('of 20 concurrent rotations of one key exactly one succeeds, leaving one live key', async () => {
      const store = make({ t: T0 });
      const team = await store.createTeam('race');
      const old = await store.createApiKey(team.id, { label: 'ci', scopes: ['fetch'] });
      const results = await Promise.all(Array.from({ length: 20 }, () => store.rotateApiKey(team.id, old.key.id)));
      const won = results.filter((r) => r !== null);
      expect(won).toHaveLength(1);
      const live = (await store.listApiKeys(team.id)).filter((k) => k.revoked_at === null);
      expect(live.map((k) => k.id)).toEqual([won[0]!.key.id]);
    });

    it('pages the ledger newest first, and a page read does not shift when new charges arrive', async () => {
      const store = make({ t: T0 });
      const charge = (i: number) =>
        store.charge({ team_id: 'team_p', run_id: `r${i}`, units: 1, reason: 'page', at: new Date(T0).toISOString() }, false);
      expect(await store.ledgerPage('team_p', { limit: 5 })).toEqual({ entries: [], next_before: null });
      for (let i = 0; i < 7; i++) await charge(i);
      const p1 = await store.ledgerPage('team_p', { limit: 3 });
      expect(p1.entries.map((e) => e.run_id)).toEqual(['r6', 'r5', 'r4']);
      await charge(7);
      const p2 = await store.ledgerPage('team_p', { limit: 3, before: p1.next_before! });
      expect(p2.entries.map((e) => e.run_id)).toEqual(['r3', 'r2', 'r1']);
      const p3 = await store.ledgerPage('team_p', { limit: 3, before: p2.next_before! });
      expect(p3).toEqual({ entries: [expect.objectContaining({ run_id: 'r0', units: 1, reason: 'page' })], next_before: null });
      expect((await store.ledgerPage('team_p', { limit: 1 })).entries.map((e) => e.run_id)).toEqual(['r7']);
      // A position past the end reads from the newest.
      expect((await store.ledgerPage('team_p', { limit: 2, before: 1e12 })).entries.map((e) => e.run_id)).toEqual(['r7', 'r6']);
      expect(await store.ledgerPage('team_other', { limit: 3, before: 2 })).toEqual({ entries: [], next_before: null });
    });
  });
}
