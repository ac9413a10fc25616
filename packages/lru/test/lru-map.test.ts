import { describe, expect, it } from 'vitest';
import fc from 'fast-check';
import { LruMap } from '../src/index.ts';

describe('LruMap', () => {
  it('never holds more than its bound and evicts the least recently set entry first', () => {
    const m = new LruMap<string, number>(3);
    for (const [i, k] of ['a', 'b', 'c', 'd'].entries()) m.set(k, i);
    expect(m.size).toBe(3);
    expect(m.has('a')).toBe(false);
    expect([...m.keys()]).toEqual(['b', 'c', 'd']);
  });

  it('counts get as use, so a read entry outlives older unread ones', () => {
    const m = new LruMap<string, number>(2);
    m.set('a', 1).set('b', 2);
    expect(m.get('a')).toBe(1);
    m.set('c', 3);
    expect([...m.keys()]).toEqual(['a', 'c']);
  });

  it('does not count peek or has as use', () => {
    const m = new LruMap<string, number>(2);
    m.set('a', 1).set('b', 2);
    expect(m.peek('a')).toBe(1);
    expect(m.has('a')).toBe(true);
    m.set('c', 3);
    expect(m.has('a')).toBe(false);
  });

  it('re-setting a key replaces its value and refreshes it without growing', () => {
    const m = new LruMap<string, number>(2);
    m.set('a', 1).set('b', 2).set('a', 10).set('c', 3);
    expect([...m.entries()]).toEqual([
      ['a', 10],
      ['c', 3],
    ]);
  });

  it('keeps an undefined value distinct from a missing key', () => {
    const m = new LruMap<string, undefined>(2);
    m.set('a', undefined).set('b', undefined);
    m.get('a');
    m.set('c', undefined);
    expect([...m.keys()]).toEqual(['a', 'c']);
  });

  it('refuses a bound that is not a positive integer', () => {
    for (const bad of [0, -1, 1.5, Number.NaN]) expect(() => new LruMap(bad)).toThrow(RangeError);
  });

  it('behaves like a reference model of recency order under any sequence of operations', () => {
    const op = fc.oneof(
      fc.record({ kind: fc.constant('set' as const), key: fc.nat(7), value: fc.integer() }),
      fc.record({ kind: fc.constant('get' as const), key: fc.nat(7) }),
      fc.record({ kind: fc.constant('delete' as const), key: fc.nat(7) }),
    );
    fc.assert(
      fc.property(fc.integer({ min: 1, max: 5 }), fc.array(op, { maxLength: 60 }), (max, ops) => {
        const lru = new LruMap<number, number>(max);
        // The model: entries from least to most recently used.
        let model: [number, number][] = [];
        for (const o of ops) {
          const i = model.findIndex(([k]) => k === o.key);
          if (o.kind === 'set') {
            if (i >= 0) model.splice(i, 1);
            model.push([o.key, o.value]);
            if (model.length > max) model = model.slice(model.length - max);
            lru.set(o.key, o.value);
          } else if (o.kind === 'get') {
            const expected = i >= 0 ? model[i][1] : undefined;
            if (i >= 0) model.push(...model.splice(i, 1));
            expect(lru.get(o.key)).toBe(expected);
          } else {
            if (i >= 0) model.splice(i, 1);
            expect(lru.delete(o.key)).toBe(i >= 0);
          }
          expect(lru.size).toBeLessThanOrEqual(max);
        }
        expect([...lru.entries()]).toEqual(model);
      }),
    );
  });
});
