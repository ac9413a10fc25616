import { describe, expect, it } from 'vitest';
import { KV_CHARGE_MARK_TTL_S, KvStore, quotaMonth } from '../src/index.ts';
import { randomPrefix, useKvBackends } from '@trawl/test-support/backends.ts';
import type { Clock } from './store-backends.ts';

const T0 = 1_800_000_000_000;
const DAY = 86_400_000;

/** What the Kv backend adds to the shared conformance suites: its growth is bounded by time, and its Kv is shared. */
describe.each(useKvBackends())('Kv store on %s', (name, open) => {
  it('leaves only balances and ledger entries behind once every time-to-live has passed', async () => {
    const clock: Clock = { t: T0 };
    const now = () => clock.t;
    const kv = open(now);
    const prefix = randomPrefix();
    const store = new KvStore(kv, prefix, now);
    await store.beginIdempotent('team_a:k1', 'fp', 60);
    await store.completeIdempotent('team_a:k1', 'fp', { status: 200, body: '{}' }, 86_400);
    await store.beginIdempotent('team_a:k2', 'fp', 60);
    await store.charge({ team_id: 'team_a', run_id: 'run_1', units: 1, reason: 'page', at: new Date(T0).toISOString() }, false);
    await store.putSelectorMemory({ team_id: 'team_a', domain: 'shop.test', schema_key: 's' }, '{}', 3_600);
    await store.takeRateLimit('team_a', 'reads', 10);
    const month = quotaMonth(T0);
    await store.takeQuota('team_a', 'scrape', month, 2);
    await store.returnQuota('team_a', 'scrape', month, 1, 'run_1');
    const expires_at = new Date(T0 + DAY).toISOString();
    const meta = { run_id: 'run_1', key: 'html', team_id: 'team_a', content_type: 'text/html', crawl_id: null, created_at: new Date(T0).toISOString(), expires_at };
    await store.putArtifact(meta, Buffer.from('<p>x</p>'));
    const keys = () => kv.transact((tx) => [...tx.range({ prefix })].map((e) => e.key.slice(prefix.length)));
    const written = keys().length;
    expect(written).toBe(12);

    // Past the charge marks' keeping (the longest time-to-live but the quota months' own).
    clock.t = T0 + KV_CHARGE_MARK_TTL_S * 1000 + 1;
    expect(keys().filter((k) => k.includes(':charged:') || k.includes('idem:') || k.includes('selmem:') || k.includes('artifact:') || k.includes(':w:'))).toEqual([]);
    // A month's usage is forgotten a few months after it ends.
    clock.t = T0 + 200 * DAY;
    expect(keys().sort()).toEqual(['s:ledger:team_a:balance', 's:ledger:team_a:count', 's:ledger:team_a:e:000000000000']);
    // And sweeping deletes what had expired for good: every key but those three.
    expect(kv.sweepExpired(1_000)).toBe(written - 3);
    expect(await store.balance('team_a')).toBe(-1);
  });

  it('keeps stores of different prefixes on one Kv apart, and close() leaves the shared Kv open', async () => {
    const kv = open();
    const a = new KvStore(kv, randomPrefix());
    const b = new KvStore(kv, randomPrefix());
    const team = await a.createTeam('acme');
    expect(await b.findTeamByName('acme')).toBeNull();
    expect(await b.getTeam(team.id)).toBeNull();
    await a.close();
    await expect(b.ping()).resolves.toBeUndefined();
    expect((await b.createTeam('acme')).id).not.toBe(team.id);
  });

  it('is of kind memory on the in-memory Kv (health checks, no development key file), disk on LMDB', () => {
    expect(new KvStore(open(), randomPrefix()).kind).toBe(name === 'memory Kv' ? 'memory' : 'disk');
  });

  it('ping rejects once the Kv is closed', async () => {
    const kv = open();
    const store = new KvStore(kv, randomPrefix());
    await expect(store.ping()).resolves.toBeUndefined();
    await kv.close();
    await expect(store.ping()).rejects.toThrow();
  });
});
