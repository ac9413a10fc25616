import { describe, expect, it } from 'vitest';
import type { OpenKv } from '@trawl/test-support/backends.ts';
import type { RangeOptions } from '../src/index.ts';

/** The rules every Kv keeps (kv.ts), run on each implementation by kv.test.ts. */
export function kvSuite(name: string, open: OpenKv): void {
  describe(`kv: ${name}`, () => {
    it('puts, reads back structured values and buffers, deletes', () => {
      const kv = open();
      kv.transact((tx) => {
        tx.put('a', { n: 1, list: ['x'], none: null });
        tx.put('b', Buffer.from([1, 2, 3]));
      });
      expect(kv.transact((tx) => tx.get('a'))).toEqual({ n: 1, list: ['x'], none: null });
      const b = kv.transact((tx) => tx.get<Uint8Array>('b'))!;
      expect(Buffer.isBuffer(b)).toBe(true);
      expect(Buffer.from(b)).toEqual(Buffer.from([1, 2, 3]));
      expect(kv.transact((tx) => [tx.del('a'), tx.del('a'), tx.has('a')])).toEqual([true, false, false]);
    });

    it('values are copies: mutating what was put or read changes nothing stored', () => {
      const kv = open();
      const put = { list: [1], buf: Buffer.from([1]) };
      kv.transact((tx) => tx.put('k', put));
      put.list.push(2);
      put.buf[0] = 9;
      const read = kv.transact((tx) => tx.get<typeof put>('k'))!;
      read.list.push(3);
      read.buf[0] = 8;
      const [ranged] = kv.transact((tx) => [...tx.range<typeof put>({ prefix: 'k' })]);
      ranged!.value.list.push(4);
      expect(kv.transact((tx) => tx.get('k'))).toEqual({ list: [1], buf: Buffer.from([1]) });
    });

    it('a transaction that throws leaves nothing behind; reads inside see its own writes', () => {
      const kv = open();
      kv.transact((tx) => tx.put('n', 1));
      expect(() =>
        kv.transact((tx) => {
          tx.put('n', (tx.get<number>('n') ?? 0) + 1);
          expect(tx.get('n')).toBe(2);
          throw new Error('boom');
        }),
      ).toThrow('boom');
      expect(kv.transact((tx) => tx.get('n'))).toBe(1);
    });

    it('a transaction that throws undoes its deletes, expiries and prefix schedules too', () => {
      let t = 1_000_000;
      const kv = open(() => t);
      kv.transact((tx) => {
        tx.put('a', 1);
        tx.put('b', 2, { expiresAt: t + 10 });
        tx.expirePrefix('p:', t + 10);
      });
      expect(() =>
        kv.transact((tx) => {
          tx.del('a');
          tx.expire('b', null);
          tx.put('c', 3, { expiresAt: t + 5 });
          tx.expirePrefix('p:', null);
          tx.expirePrefix('q:', t + 5);
          tx.put('p:1', 1);
          throw new Error('boom');
        }),
      ).toThrow('boom');
      expect(kv.transact((tx) => [tx.get('a'), tx.expiresAt('b'), tx.has('c'), tx.has('p:1')])).toEqual([1, 1_000_010, false, false]);
      kv.transact((tx) => {
        tx.put('p:2', 2);
        tx.put('q:1', 1);
      });
      t += 10;
      // b by its expiry, p:2 by its prefix's; q: was never scheduled.
      expect(kv.sweepExpired(100)).toBe(2);
      expect(kv.transact((tx) => [...tx.range({})].map((e) => e.key))).toEqual(['a', 'q:1']);
    });

    it('ranges: prefix, bounds (start included, end excluded), reverse, limit', () => {
      const kv = open();
      kv.transact((tx) => {
        for (const k of ['p:1', 'p:2', 'p:3', 'q:1', 'o:9']) tx.put(k, k);
      });
      const keys = (o: RangeOptions) => kv.transact((tx) => [...tx.range(o)].map((e) => e.key));
      expect(keys({ prefix: 'p:' })).toEqual(['p:1', 'p:2', 'p:3']);
      expect(keys({ prefix: 'p:', reverse: true })).toEqual(['p:3', 'p:2', 'p:1']);
      expect(keys({ start: 'p:2', end: 'q:1' })).toEqual(['p:2', 'p:3']);
      expect(keys({ start: 'p:2', end: 'q:1', reverse: true })).toEqual(['p:3', 'p:2']);
      expect(keys({ prefix: 'p:', start: 'p:2', limit: 1 })).toEqual(['p:2']);
      expect(keys({ prefix: 'p:', reverse: true, limit: 2 })).toEqual(['p:3', 'p:2']);
      expect(keys({ prefix: 'p:', start: 'a' })).toEqual(['p:1', 'p:2', 'p:3']);
      expect(keys({ prefix: 'p:', end: 'p:3', reverse: true })).toEqual(['p:2', 'p:1']);
      expect(keys({})).toEqual(['o:9', 'p:1', 'p:2', 'p:3', 'q:1']);
      expect(keys({ reverse: true, limit: 1 })).toEqual(['q:1']);
    });

    it('orders keys by their UTF-8 bytes (code points), not UTF-16 units: a character past U+FFFF after U+FFFD', () => {
      const kv = open();
      const sorted = ['k', 'k\u007f', 'k\u00e9', 'k\u4e2d', 'k\ufffd', 'k\u{1f600}', 'k\u{1f600}a', 'k\u{20000}'];
      kv.transact((tx) => {
        for (const k of [...sorted].reverse()) tx.put(k, k);
      });
      const keys = (o: RangeOptions) => kv.transact((tx) => [...tx.range(o)].map((e) => e.key));
      expect(keys({})).toEqual(sorted);
      expect(keys({ reverse: true })).toEqual([...sorted].reverse());
      expect(keys({ start: 'k\ufffd', end: 'k\u{20000}' })).toEqual(['k\ufffd', 'k\u{1f600}', 'k\u{1f600}a']);
      expect(keys({ prefix: 'k\u{1f600}', reverse: true })).toEqual(['k\u{1f600}a', 'k\u{1f600}']);
    });

    it('counts its transactions (sweeps apart)', () => {
      const kv = open();
      const before = kv.transactions;
      kv.transact((tx) => tx.put('a', 1));
      kv.transact((tx) => tx.get('a'));
      kv.sweepExpired(10);
      expect(() => kv.transact(() => { throw new Error('x'); })).toThrow('x');
      expect(kv.transactions - before).toBe(3);
    });

    it('expiry: an expired key reads as absent and leaves ranges; a sweep deletes it; a new put without expiry keeps it', () => {
      let t = 1_000_000;
      const kv = open(() => t);
      kv.transact((tx) => {
        tx.put('short', 1, { expiresAt: t + 10 });
        tx.put('long', 2, { expiresAt: t + 1000 });
        tx.put('kept', 3, { expiresAt: t + 10 });
        tx.put('kept', 4);
      });
      expect(kv.transact((tx) => tx.expiresAt('short'))).toBe(1_000_010);
      t += 10;
      expect(kv.transact((tx) => [tx.get('short'), tx.has('short'), tx.expiresAt('short'), tx.get('long'), tx.get('kept'), [...tx.range({})].map((e) => e.key)])).toEqual([
        undefined,
        false,
        null,
        2,
        4,
        ['kept', 'long'],
      ]);
      expect(kv.transact((tx) => [tx.expire('short', null), tx.del('short')])).toEqual([false, false]);
      expect(kv.sweepExpired(100)).toBe(0);
      expect(kv.transact((tx) => tx.expire('long', t + 5))).toBe(true);
      t += 5;
      expect(kv.sweepExpired(100)).toBe(1);
      expect(kv.transact((tx) => [...tx.range({})].map((e) => e.key))).toEqual(['kept']);
    });

    it('a sweep deletes every key due, however many share one expiry, and only up to its max', () => {
      let t = 1_000_000;
      const kv = open(() => t);
      const names = Array.from({ length: 40 }, (_, i) => `p:${String(i).padStart(2, '0')}:${'x'.repeat(i)}`);
      kv.transact((tx) => {
        for (const k of names) tx.put(k, 1);
        for (const k of names) tx.expire(k, t + 10);
        tx.put('later', 1, { expiresAt: t + 1000 });
      });
      t += 10;
      expect(kv.sweepExpired(15)).toBe(15);
      expect(kv.sweepExpired(100)).toBe(25);
      expect(kv.sweepExpired(100)).toBe(0);
      t += 1000;
      expect(kv.sweepExpired(100)).toBe(1);
    });

    it('expiry: sweeps expired keys of every length (long ones too), and only expired ones', () => {
      let t = 1_800_000_000_000;
      const kv = open(() => t);
      const keys = [1, 20, 63, 64, 100, 1000].map((n) => 'k'.repeat(n));
      kv.transact((tx) => {
        for (const k of keys) tx.put(k, k.length, { expiresAt: t + k.length });
        tx.put('x'.repeat(900), 'kept', { expiresAt: t + 10_000 });
      });
      t += 1000;
      expect(kv.sweepExpired(100)).toBe(keys.length);
      expect(kv.sweepExpired(100)).toBe(0);
      expect(kv.transact((tx) => [...tx.range({})].map((e) => e.key.length))).toEqual([900]);
      t += 10_000;
      expect(kv.sweepExpired(100)).toBe(1);
    });

    it('prefix expiry: every key under the prefix, written before or after, is swept once due; reads and other keys are untouched', () => {
      let t = 1_000_000;
      const kv = open(() => t);
      const all = () => kv.transact((tx) => [...tx.range({})].map((e) => e.key));
      kv.transact((tx) => {
        for (let i = 0; i < 30; i++) tx.put(`c:1:${String(i).padStart(2, '0')}`, 'x'.repeat(40_000));
        tx.put('c:1:own', 1, { expiresAt: t + 5 });
        tx.put('c:10', 'a neighbour that only shares characters');
        tx.put('c:2:a', 2);
        tx.expirePrefix('c:1:', t + 10);
      });
      kv.transact((tx) => tx.put('c:1:late', 3));
      // Rescheduling replaces the first schedule; a cancelled one never sweeps.
      kv.transact((tx) => tx.expirePrefix('c:1:', t + 20));
      kv.transact((tx) => tx.expirePrefix('c:2:', t + 10));
      kv.transact((tx) => tx.expirePrefix('c:2:', null));
      t += 10;
      expect(kv.sweepExpired(100)).toBe(1); // only c:1:own, by its own expiry
      // Until swept, the keys read as they were: the prefix's owner guards its reads with a key of its own.
      expect(kv.transact((tx) => tx.get('c:1:late'))).toBe(3);
      t += 10;
      expect(kv.sweepExpired(20)).toBe(20);
      expect(kv.sweepExpired(20)).toBe(11);
      expect(kv.sweepExpired(20)).toBe(0);
      expect(all()).toEqual(['c:10', 'c:2:a']);
      // The schedule went with its keys: new keys under the prefix stay.
      kv.transact((tx) => tx.put('c:1:new', 4));
      t += 1000;
      expect(kv.sweepExpired(100)).toBe(0);
      expect(all()).toEqual(['c:10', 'c:1:new', 'c:2:a']);
    });

    it('a key swept with its prefix before its own expiry leaves an index entry its own sweep counts later', () => {
      let t = 1_000_000;
      const kv = open(() => t);
      kv.transact((tx) => {
        tx.put('c:1:a', 1, { expiresAt: t + 20 });
        tx.put('c:1:b', 2);
        tx.expirePrefix('c:1:', t + 10);
      });
      t += 10;
      expect(kv.sweepExpired(100)).toBe(2);
      // Written again with another expiry: the stale entry is counted, the new key kept until its own time.
      kv.transact((tx) => tx.put('c:1:a', 3, { expiresAt: t + 100 }));
      t += 10;
      expect(kv.sweepExpired(100)).toBe(1);
      expect(kv.transact((tx) => tx.get('c:1:a'))).toBe(3);
      t += 100;
      expect(kv.sweepExpired(100)).toBe(1);
      expect(kv.transact((tx) => tx.has('c:1:a'))).toBe(false);
    });

    it('space: the bytes in use rise with what is stored and fall when it is swept', () => {
      let t = 1_000_000;
      const kv = open(() => t);
      const empty = kv.space().usedBytes;
      const value = 'v'.repeat(50_000);
      kv.transact((tx) => {
        for (let i = 0; i < 20; i++) tx.put(`big:${i}`, value, { expiresAt: t + 10 });
      });
      expect(kv.space().usedBytes - empty).toBeGreaterThanOrEqual(20 * value.length);
      t += 10;
      while (kv.sweepExpired(500) > 0);
      expect(kv.space().usedBytes - empty).toBeLessThan(64 * 1024);
    });

    it('refuses long keys and reserved ones', () => {
      const kv = open();
      expect(() => kv.transact((tx) => tx.put('x'.repeat(1001), 1))).toThrow(/longer/);
      expect(() => kv.transact((tx) => tx.put('\u0000x', 1))).toThrow(/NUL/);
      expect(() => kv.transact((tx) => tx.put('é'.repeat(501), 1))).toThrow(/longer/);
      // An empty prefix would schedule the whole store, reserved indexes included, for deletion.
      expect(() => kv.transact((tx) => tx.expirePrefix('', Date.now()))).toThrow(/empty prefix/);
      expect(() => kv.transact((tx) => tx.expirePrefix('\u0000exp', Date.now()))).toThrow(/NUL/);
    });

    it('once closed, refuses transactions and sweeps', async () => {
      const kv = open();
      await kv.close();
      expect(() => kv.transact((tx) => tx.get('a'))).toThrow();
      expect(() => kv.sweepExpired(1)).toThrow();
    });
  });
}
