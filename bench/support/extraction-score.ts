import { isDeepStrictEqual } from 'node:util';
import type { ExtractedRecord } from './extraction-corpus.ts';

/**
 * Scores extracted records against the expected ones, value by value (fields and computed fields of every record).
 * Records are paired in document order by the alignment that keeps the most values exact (an extra record in the
 * middle, a promo taken for a record, does not shift every later record out of line); among equally good
 * alignments, the one pairing the most records. Then each value slot is:
 * - exact: equal to the expected value (null where null is expected counts as exact),
 * - wrong: not null and different from the expected value (also a value where null is expected),
 * - missed: null where a value is expected.
 * A record too many counts all its values as wrong; a record missing counts all its values as missed.
 */
export interface Tally {
  /** Value slots: (paired + missing + extra records) × value names. */
  values: number;
  exact: number;
  wrong: number;
  missed: number;
  expectedRecords: number;
  gotRecords: number;
}

export const emptyTally = (): Tally => ({ values: 0, exact: 0, wrong: 0, missed: 0, expectedRecords: 0, gotRecords: 0 });

export function addTally(into: Tally, t: Tally): Tally {
  into.values += t.values;
  into.exact += t.exact;
  into.wrong += t.wrong;
  into.missed += t.missed;
  into.expectedRecords += t.expectedRecords;
  into.gotRecords += t.gotRecords;
  return into;
}

const valueOf = (record: ExtractedRecord, name: string) => (Object.hasOwn(record, name) ? record[name] : null);

function exactCount(expected: ExtractedRecord, got: ExtractedRecord, names: readonly string[]): number {
  let n = 0;
  for (const name of names) if (isDeepStrictEqual(valueOf(got, name), valueOf(expected, name))) n++;
  return n;
}

/** Pairs (expected index, got index), in order. */
function align(expected: ExtractedRecord[], got: ExtractedRecord[], names: readonly string[]): [number, number][] {
  const n = expected.length;
  const m = got.length;
  // Score of a pairing: exact values first, number of pairs second.
  const PAIR = 1;
  const VALUE = m + n + 1;
  const dp: number[][] = Array.from({ length: n + 1 }, () => new Array<number>(m + 1).fill(0));
  const w: number[][] = Array.from({ length: n }, (_, i) => Array.from({ length: m }, (_, j) => exactCount(expected[i], got[j], names) * VALUE + PAIR));
  for (let i = 1; i <= n; i++) {
    for (let j = 1; j <= m; j++) dp[i][j] = Math.max(dp[i - 1][j], dp[i][j - 1], dp[i - 1][j - 1] + w[i - 1][j - 1]);
  }
  const pairs: [number, number][] = [];
  for (let i = n, j = m; i > 0 && j > 0; ) {
    if (dp[i][j] === dp[i - 1][j - 1] + w[i - 1][j - 1]) {
      pairs.push([i - 1, j - 1]);
      i--;
      j--;
    } else if (dp[i][j] === dp[i - 1][j]) i--;
    else j--;
  }
  return pairs.reverse();
}

export function scoreRecords(expected: ExtractedRecord[], got: ExtractedRecord[], names: readonly string[]): Tally {
  const t = emptyTally();
  t.expectedRecords = expected.length;
  t.gotRecords = got.length;
  const pairs = align(expected, got, names);
  for (const [i, j] of pairs) {
    for (const name of names) {
      const e = valueOf(expected[i], name);
      const g = valueOf(got[j], name);
      t.values++;
      if (isDeepStrictEqual(g, e)) t.exact++;
      else if (g === null) t.missed++;
      else t.wrong++;
    }
  }
  const missing = expected.length - pairs.length;
  const extra = got.length - pairs.length;
  t.values += (missing + extra) * names.length;
  t.missed += missing * names.length;
  t.wrong += extra * names.length;
  return t;
}

export const share = (part: number, whole: number): number => (whole === 0 ? 0 : part / whole);
export const percent = (part: number, whole: number): string => `${(100 * share(part, whole)).toFixed(1)}%`;
