import { describe, expect, it } from 'vitest';
import { scoreRecords } from '../../bench/support/extraction-score.ts';

// The fidelity scoring of bench/extraction.bench.ts: value by value, records aligned so that one extra or missing
// record does not shift the rest.

const names = ['title', 'price', 'tags'];
const rec = (title: string, price: string | null, tags: string[] | null = null) => ({ title, price, tags });
const expected = [rec('A', '1'), rec('B', null, ['x', 'y']), rec('C', '3'), rec('D', '4')];

describe('extraction fidelity score', () => {
  it('counts every value exact when the records are equal, null for null included', () => {
    expect(scoreRecords(expected, expected.map((r) => ({ ...r })), names)).toEqual({ values: 12, exact: 12, wrong: 0, missed: 0, expectedRecords: 4, gotRecords: 4 });
  });

  it('tells a null where a value is expected (missed) from a different value (wrong), lists compared whole', () => {
    const got = [rec('A', null), rec('B', '2', ['x']), rec('C', '3'), rec('D', '4')];
    expect(scoreRecords(expected, got, names)).toMatchObject({ values: 12, exact: 9, wrong: 2, missed: 1 });
  });

  it('counts an extra record (a promo taken for a record) as wrong values without misaligning the others', () => {
    const got = [rec('A', '1'), rec('Sponsored', 'From 9'), rec('B', null, ['x', 'y']), rec('C', '3'), rec('D', '4')];
    expect(scoreRecords(expected, got, names)).toEqual({ values: 15, exact: 12, wrong: 3, missed: 0, expectedRecords: 4, gotRecords: 5 });
  });

  it('counts a missing record as missed values', () => {
    const got = [rec('A', '1'), rec('C', '3'), rec('D', '4')];
    expect(scoreRecords(expected, got, names)).toEqual({ values: 12, exact: 9, wrong: 0, missed: 3, expectedRecords: 4, gotRecords: 3 });
  });

  it('counts no records at all as every value missed, and absent keys as null', () => {
    expect(scoreRecords(expected, [], names)).toMatchObject({ values: 12, exact: 0, wrong: 0, missed: 12 });
    expect(scoreRecords([rec('A', null)], [{ title: 'A' }], names)).toMatchObject({ values: 3, exact: 3 });
  });

  it('pairs records in order even when none of their values match', () => {
    const got = expected.map(() => rec('?', '?', ['?']));
    expect(scoreRecords(expected, got, names)).toMatchObject({ values: 12, exact: 0, wrong: 12, missed: 0 });
  });
});
