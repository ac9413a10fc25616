import type { DomElement } from '@trawl/content';
import { FIELD_THRESHOLD } from './thresholds.ts';

/**
 * The assignment of elements to fields (each to at most one) maximizing the total similarity of the given pairs
 * beyond FIELD_THRESHOLD (Hungarian method on fields × elements, with one "nothing" column per field): a pair
 * adds only what it exceeds the threshold by, so two weak pairs never beat one clearly right one.
 */
export function bestAssignment<T extends { field: number; el: DomElement; sim: number }>(fieldList: readonly number[], pairs: readonly T[]): Map<number, T> {
  const out = new Map<number, T>();
  if (pairs.length === 0) return out;
  const rows = fieldList.filter((f) => pairs.some((p) => p.field === f));
  const cols: DomElement[] = [];
  const colOf = new Map<DomElement, number>();
  for (const p of pairs) if (!colOf.has(p.el)) colOf.set(p.el, cols.push(p.el) - 1);
  const n = rows.length;
  const m = cols.length + n;
  const rowOf = new Map(rows.map((f, r) => [f, r]));
  const cost: number[][] = rows.map(() => new Array<number>(m).fill(0));
  const pairAt: (T | null)[][] = rows.map(() => new Array<T | null>(cols.length).fill(null));
  for (let r = 0; r < n; r++) for (let c = 0; c < cols.length; c++) cost[r][c] = 1; // not a candidate: worse than nothing
  for (const p of pairs) {
    const r = rowOf.get(p.field)!;
    const c = colOf.get(p.el)!;
    cost[r][c] = FIELD_THRESHOLD - p.sim;
    pairAt[r][c] = p;
  }
  // e-maxx Hungarian (1-based potentials), n ≤ m.
  const u = new Array<number>(n + 1).fill(0);
  const v = new Array<number>(m + 1).fill(0);
  const match = new Array<number>(m + 1).fill(0);
  const way = new Array<number>(m + 1).fill(0);
  for (let i = 1; i <= n; i++) {
    match[0] = i;
    let j0 = 0;
    const minv = new Array<number>(m + 1).fill(Infinity);
    const used = new Array<boolean>(m + 1).fill(false);
    do {
      used[j0] = true;
      const i0 = match[j0];
      let delta = Infinity;
      let j1 = 0;
      for (let j = 1; j <= m; j++) {
        if (used[j]) continue;
        const cur = cost[i0 - 1][j - 1] - u[i0] - v[j];
        if (cur < minv[j]) {
          minv[j] = cur;
          way[j] = j0;
        }
        if (minv[j] < delta) {
          delta = minv[j];
          j1 = j;
        }
      }
      for (let j = 0; j <= m; j++) {
        if (used[j]) {
          u[match[j]] += delta;
          v[j] -= delta;
        } else minv[j] -= delta;
      }
      j0 = j1;
    } while (match[j0] !== 0);
    do {
      const j1 = way[j0];
      match[j0] = match[j1];
      j0 = j1;
    } while (j0 !== 0);
  }
  for (let j = 1; j <= cols.length; j++) {
    if (match[j] === 0) continue;
    const p = pairAt[match[j] - 1][j - 1];
    if (p !== null) out.set(rows[match[j] - 1], p);
  }
  return out;
}
