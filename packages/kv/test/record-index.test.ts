import { describe, expect, it } from 'vitest';
import { useKvBackends } from '@trawl/test-support/backends.ts';
import { KvRecordIndex } from '../src/index.ts';

const backends = useKvBackends();

const key = (ms: number, id: string) => `${String(ms).padStart(15, '0')}:${id}`;

describe.each(backends)('kv record index on %s', (_name, open) => {
  it('pages newest first per team, never mixing a team with one whose id it prefixes', () => {
    const kv = open();
    const ix = new KvRecordIndex('ix:');
    kv.transact((tx) => {
      ix.add(tx, key(1, 'a1'), 'a');
      ix.add(tx, key(2, 'ab1'), 'a:b');
      ix.add(tx, key(3, 'a2'), 'a');
    });
    const page = (q: { team_id?: string; after?: string; limit: number }) => kv.transact((tx) => ix.page(tx, q));
    expect(page({ limit: 10 })).toEqual([key(3, 'a2'), key(2, 'ab1'), key(1, 'a1')]);
    expect(page({ team_id: 'a', limit: 10 })).toEqual([key(3, 'a2'), key(1, 'a1')]);
    expect(page({ team_id: 'a:b', limit: 10 })).toEqual([key(2, 'ab1')]);
    expect(page({ team_id: 'a', after: key(3, 'a2'), limit: 1 })).toEqual([key(1, 'a1')]);
  });

  it('a scheduled entry is listed as expiring, soonest first, and leaves every listing at its forget time', () => {
    let t = 1_000;
    const kv = open(() => t);
    const ix = new KvRecordIndex('ix:');
    kv.transact((tx) => {
      for (const id of ['r1', 'r2', 'r3']) ix.add(tx, key(1, id), 'team');
      ix.expireAt(tx, key(1, 'r2'), 'team', 1_200);
      ix.expireAt(tx, key(1, 'r1'), 'team', 1_100);
    });
    expect(kv.transact((tx) => ix.expiring(tx, 10))).toEqual([
      { key: key(1, 'r1'), team: 'team', at: 1_100 },
      { key: key(1, 'r2'), team: 'team', at: 1_200 },
    ]);
    t = 1_100;
    expect(kv.transact((tx) => [ix.page(tx, { limit: 10 }), ix.page(tx, { team_id: 'team', limit: 10 }), ix.expiring(tx, 10).map((e) => e.at)])).toEqual([
      [key(1, 'r3'), key(1, 'r2')],
      [key(1, 'r3'), key(1, 'r2')],
      [1_200],
    ]);
  });
});
