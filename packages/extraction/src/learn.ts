import type { DomElement } from '@trawl/content';
import type { PageFeatures, Fingerprint } from './fingerprint.ts';
import { MEMORY_VERSION, SAMPLES_PER_TARGET, boundMemory, type DerivedSelectors, type FieldMemory, type SelectorMemory } from './memory.ts';

/** Records fingerprinted when learning: spread over the page (first, last, between). Keeps learning cheap. */
const RECORDS_SAMPLED = 5;

/**
 * Memory from records and the elements each field took in them: fingerprints of a few records spread over the
 * page (distinct ones kept, at most SAMPLES_PER_TARGET), per field its elements' fingerprints, how often it was
 * present, and whether it shared its element with an earlier field. Null when no field matched in the sampled
 * records (nothing to relocate by).
 */
export function learnMemory(
  features: PageFeatures,
  records: readonly DomElement[],
  elements: readonly (readonly (readonly DomElement[] | null)[])[],
  fieldCount: number,
  src: SelectorMemory['src'],
  derived: DerivedSelectors | null,
  now: number,
): SelectorMemory | null {
  const picked = spread(records.length, RECORDS_SAMPLED);
  const base = distinct(sharedNames(picked.map((r) => features.recordFingerprint(records[r]))));
  const fields: (FieldMemory | null)[] = [];
  for (let i = 0; i < fieldCount; i++) {
    // Presence over every record (the selectors ran on all of them): the sampled few can all hold an optional field.
    let count = 0;
    for (const row of elements) if (row[i] !== null) count++;
    const present = picked.filter((r) => elements[r][i] !== null);
    if (present.length === 0) {
      fields.push(null);
      continue;
    }
    const fps = distinct(sharedNames(present.map((r) => features.fieldFingerprint(elements[r][i]![0], records[r]))));
    let same = -1;
    for (let j = 0; j < i && same < 0; j++) {
      if (fields[j] === null || fields[j]!.same >= 0) continue;
      if (picked.every((r) => (elements[r][i]?.[0] ?? null) === (elements[r][j]?.[0] ?? null))) same = j;
    }
    fields.push({ fp: fps, p: round2(count / records.length), same });
  }
  // Without a single field element there is nothing to check a relocation against: no memory.
  if (fields.every((f) => f === null)) return null;
  return boundMemory({ v: MEMORY_VERSION, at: now, src, base, fields, derived });
}

/** Up to k indexes of 0..n-1 spread evenly, first and last included. */
function spread(n: number, k: number): number[] {
  if (n <= k) return Array.from({ length: n }, (_, i) => i);
  const out = new Set<number>();
  for (let j = 0; j < k; j++) out.add(Math.round((j * (n - 1)) / (k - 1)));
  return [...out];
}

/** The fingerprints with only the naming data- values all of them carry (one that varies names no element kind). */
function sharedNames(fps: Fingerprint[]): Fingerprint[] {
  if (fps.every((fp) => fp.v.length === 0)) return fps;
  const shared = fps[0].v.filter((x) => fps.every((fp) => fp.v.includes(x)));
  return fps.map((fp) => (fp.v.length === shared.length ? fp : { ...fp, v: shared }));
}

function distinct(fps: Fingerprint[]): Fingerprint[] {
  const seen = new Set<string>();
  const out: Fingerprint[] = [];
  for (const fp of fps) {
    const key = JSON.stringify(fp);
    if (seen.has(key)) continue;
    seen.add(key);
    out.push(fp);
    if (out.length >= SAMPLES_PER_TARGET) break;
  }
  return out;
}

function round2(x: number): number {
  return Math.round(x * 100) / 100;
}
