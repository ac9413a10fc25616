import { mkdtempSync, rmSync } from 'node:fs';
import { tmpdir } from 'node:os';
import { join } from 'node:path';
import { describe, expect, it } from 'vitest';
import { openKv, openMemoryKv, type Kv, type KvTx } from '../src/index.ts';

/** A small seeded generator (mulberry32), so a failing run can be replayed by its seed. */
function random(seed: number) {
  let a = seed >>> 0;
  return () => {
    a = (a + 0x6d2b79f5) >>> 0;
    let t = Math.imul(a ^ (a >>> 15), 1 | a);
    t = (t + Math.imul(t ^ (t >>> 7), 61 | t)) ^ t;
    return ((t ^ (t >>> 14)) >>> 0) / 4294967296;
  };
}

// Characters whose UTF-8 and UTF-16 orders disagree (U+FFFD, U+FFFF against characters past U+FFFF, the last one
// included) among plain ones.
const ALPHABET = ['a', 'b', ':', '\u00e9', '\ufffd', '\uffff', '\u{1f600}', '\u{10ffff}'];

/**
 * The same random operations on the memory Kv and on LMDB, every answer compared: the memory Kv keeps LMDB's
 * rules (order, expiry, prefix sweeps and their counts, rollback) however the operations interleave.
 */
describe('memory Kv against LMDB', () => {
  it('answers every operation of random runs as LMDB does', async () => {
    // 40 runs here; KV_DIFF_SEEDS=600 ran clean when memory-kv.ts was written (about 10 s).
    for (let seed = 1; seed <= Number(process.env.KV_DIFF_SEEDS ?? 40); seed++) {
      const rnd = random(seed);
      const pick = <T>(xs: T[]) => xs[Math.floor(rnd() * xs.length)]!;
      const key = () => Array.from({ length: 1 + Math.floor(rnd() * 3) }, () => pick(ALPHABET)).join('');
      let t = 1_000_000;
      const dir = mkdtempSync(join(tmpdir(), 'trawl-kv-diff-'));
      const lmdb = openKv({ dir, now: () => t });
      const memory = openMemoryKv({ now: () => t });
      // Each operation draws its arguments when made, so the same one runs on both Kvs.
      const makers: (() => (tx: KvTx) => unknown)[] = [
        () => {
          const [k, n, o] = [key(), Math.floor(rnd() * 100), rnd() < 0.5 ? { expiresAt: t + Math.floor(rnd() * 20) } : undefined];
          return (tx) => tx.put(k, { n }, o);
        },
        () => {
          const k = key();
          return (tx) => tx.del(k);
        },
        () => {
          const k = key();
          return (tx) => [tx.get(k), tx.has(k), tx.expiresAt(k)];
        },
        () => {
          const [k, at] = [key(), rnd() < 0.3 ? null : t + Math.floor(rnd() * 20)];
          return (tx) => tx.expire(k, at);
        },
        () => {
          const [k, at] = [key(), rnd() < 0.2 ? null : t + Math.floor(rnd() * 20)];
          return (tx) => tx.expirePrefix(k, at);
        },
        () => {
          const o = {
            prefix: rnd() < 0.5 ? key() : undefined,
            start: rnd() < 0.3 ? key() : undefined,
            end: rnd() < 0.3 ? key() : undefined,
            reverse: rnd() < 0.5,
            limit: rnd() < 0.3 ? 1 + Math.floor(rnd() * 4) : undefined,
          };
          return (tx) => [...tx.range(o)];
        },
      ];
      try {
        for (let step = 0; step < 150; step++) {
          const r = rnd();
          if (r < 0.1) {
            t += Math.floor(rnd() * 10);
            continue;
          }
          if (r < 0.2) {
            const max = 1 + Math.floor(rnd() * 5);
            expect(memory.sweepExpired(max), `seed ${seed} step ${step}: sweep`).toBe(lmdb.sweepExpired(max));
            continue;
          }
          // A transaction of a few operations, one in ten thrown away at its end.
          const batch = Array.from({ length: 1 + Math.floor(rnd() * 3) }, () => pick(makers)());
          const abort = rnd() < 0.1;
          const run = (kv: Kv) => {
            const out: unknown[] = [];
            try {
              kv.transact((tx) => {
                for (const op of batch) out.push(op(tx));
                if (abort) throw new Error('abort');
              });
            } catch {
              out.push('aborted');
            }
            return out;
          };
          expect(run(memory), `seed ${seed} step ${step}`).toEqual(run(lmdb));
        }
        const all = (kv: Kv) => kv.transact((tx) => [...tx.range({})]);
        expect(all(memory), `seed ${seed}: final contents`).toEqual(all(lmdb));
      } finally {
        await lmdb.close();
        await memory.close();
        rmSync(dir, { recursive: true, force: true });
      }
    }
  });
});
