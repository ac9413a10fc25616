import { isElement, type DomElement } from '@trawl/content';
import type { CompiledExtraction } from './compile.ts';
import type { SelectorMemory } from './memory.ts';
import type { RecordMatch } from './relocate/record-match.ts';
import { attributeOf } from './values.ts';

// A field the search left null in a record because look-alike leaves tied there (a category chip beside a price
// chip, a company name beside skill tags), or that a record was never searched for, is taken from the place
// (path of tags and classes below the record) where the other records of the page hold it: records of one
// template keep a field at one place, so the page's vote breaks a tie no single record can.

/** What the vote needs from the relocator. */
interface PlaceOracle {
  readonly compiled: CompiledExtraction;
  readonly memory: SelectorMemory;
  placeOf(el: DomElement, record: DomElement): string;
  fieldSim(i: number, el: DomElement, record: DomElement): number;
  valueKey(i: number, el: DomElement): string;
}

/** A field's usual place must hold it in at least this many records... */
const MIN_VOTES = 3;
/** ...and be where it sits in at least this share of the records that have it. */
const MIN_SHARE = 0.75;

/**
 * Fills, in records where field i is null, the element at the field's usual place: unclaimed by the record's other
 * fields, at least `threshold` similar, and ahead by `margin` of any other element at that place giving another
 * value. A field that follows it (the href of a link whose text it is) follows it there. Lists are left alone (their
 * items sit wherever the list does). Only the fields of `only` are filled (default: all).
 */
export function fillFromUsualPlaces(
  oracle: PlaceOracle,
  records: readonly { el: DomElement; match: RecordMatch }[],
  threshold: number,
  margin: number,
  only?: readonly number[],
): void {
  if (records.length < MIN_VOTES) return;
  const { fields } = oracle.compiled;
  const memory = oracle.memory.fields;
  // Per field left null somewhere, its usual place, as the steps (tag and class) down to one element there.
  const steps: (DomElement[] | null)[] = fields.map((field, i) => {
    const mem = memory[i];
    if (mem === null || mem.same >= 0 || field.type === 'list' || (only !== undefined && !only.includes(i))) return null;
    if (records.every((r) => r.match.elements[i] !== null)) return null;
    const counts = new Map<string, { count: number; el: DomElement; record: DomElement }>();
    let found = 0;
    for (const r of records) {
      const el = r.match.elements[i];
      if (el === null) continue;
      found++;
      const place = oracle.placeOf(el[0], r.el);
      const seen = counts.get(place);
      if (seen === undefined) counts.set(place, { count: 1, el: el[0], record: r.el });
      else seen.count++;
    }
    let best: { count: number; el: DomElement; record: DomElement } | null = null;
    for (const c of counts.values()) if (best === null || c.count > best.count) best = c;
    if (best === null || best.count < MIN_VOTES || best.count < found * MIN_SHARE) return null;
    const chain: DomElement[] = [];
    for (let e: DomElement = best.el; e !== best.record; e = e.parent as DomElement) chain.push(e);
    return chain.reverse();
  });
  const active = steps.flatMap((chain, i) => (chain === null ? [] : [i]));
  if (active.length === 0) return;
  for (const r of records) {
    for (const i of active) {
      const chain = steps[i]!;
      if (r.match.elements[i] !== null) continue;
      const at = atPlace(r.el, chain);
      if (at.length === 0) continue;
      const found = at.filter((el) => !claimed(r.match, el));
      if (found.length === 0) continue;
      const sims = found.map((el) => oracle.fieldSim(i, el, r.el));
      let k = 0;
      for (let c = 1; c < found.length; c++) if (sims[c] > sims[k]) k = c;
      const [best, bestSim] = [found[k], sims[k]];
      let rival = 0;
      for (let c = 0; c < found.length; c++) {
        if (c !== k && sims[c] > rival && oracle.valueKey(i, found[c]) !== oracle.valueKey(i, best)) rival = sims[c];
      }
      if (bestSim < threshold || bestSim - rival < margin) continue;
      setField(r.match, i, best, bestSim);
      // Fields that shared the element with this one when learned follow it, where it carries what they read.
      fields.forEach((other, j) => {
        if (memory[j]?.same !== i || r.match.elements[j] !== null) return;
        if (other.attribute !== null && attributeOf(best, other.attribute) === null) return;
        const sim = oracle.fieldSim(j, best, r.el);
        if (sim >= threshold) setField(r.match, j, best, sim);
      });
    }
  }
}

/**
 * The record's elements at the place of a chain of elements below another record of the template: each step has
 * the tag and class attribute of the chain's element at that depth. Only the branches that fit are walked.
 */
function atPlace(record: DomElement, chain: readonly DomElement[]): DomElement[] {
  let level: DomElement[] = [record];
  for (const step of chain) {
    const next: DomElement[] = [];
    for (const parent of level) {
      for (const c of parent.children) if (isElement(c) && c.name === step.name && c.attribs.class === step.attribs.class) next.push(c);
    }
    if (next.length === 0) return next;
    level = next;
  }
  return level;
}

/** Whether another field of the record took el. */
function claimed(match: RecordMatch, el: DomElement): boolean {
  return match.elements.some((found) => found !== null && found.includes(el));
}

function setField(match: RecordMatch, i: number, el: DomElement, sim: number): void {
  match.elements[i] = [el];
  match.sims[i] = sim;
  match.sources[i] = 'search';
}
