import type { DomElement } from '@trawl/content';
import { descendants } from './dom-walk.ts';
import type { FieldOracle } from './field-oracle.ts';
import { clearField, type RecordMatch } from './record-match.ts';
import { CONSTANT_MIN_RECORDS } from './thresholds.ts';

// Checks across the records of one page, after each was matched on its own: records of one group share a
// template, so a value that breaks the template (a neighbour's, page chrome, one off its usual place) is dropped.

/** A field's place in a few records is off when its usual place holds it in at least this many times more. */
const OFF_PLACE_RATIO = 2;

type Matched = readonly { el: DomElement; match: RecordMatch }[];

/**
 * A relocated field whose value is the same text at the same place of several records, where memory says the
 * field's text varied (fingerprints of more than one text shape) or was sometimes absent and that text is there
 * in every record, is page chrome (a visually hidden "Compare" label, a "Report" link), not the field: it is
 * null in those records, and so is a field that follows it.
 */
export function dropConstantValues(oracle: FieldOracle, records: Matched): void {
  if (records.length < CONSTANT_MIN_RECORDS) return;
  const { fields } = oracle.compiled;
  fields.forEach((field, i) => {
    const mem = oracle.memory.fields[i];
    if (mem === null || mem.same >= 0 || field.type === 'list') return;
    const varied = new Set(mem.fp.map((fp) => `${fp.x}|${fp.l}|${fp.w}`)).size > 1;
    if (!varied && mem.p >= 1) return;
    const byPlace = new Map<string, { value: string; rows: number[]; constant: boolean }>();
    records.forEach((r, k) => {
      const found = r.match.elements[i];
      if (found === null || r.match.sources[i] === 'schema') return;
      const place = oracle.placeOf(found[0], r.el);
      const value = oracle.valueKey(i, found[0]);
      const group = byPlace.get(place);
      if (group === undefined) byPlace.set(place, { value, rows: [k], constant: true });
      else {
        group.rows.push(k);
        if (group.value !== value) group.constant = false;
      }
    });
    for (const [place, group] of byPlace) {
      if (!group.constant || group.rows.length < CONSTANT_MIN_RECORDS) continue;
      if (!varied && !records.every((r, k) => group.rows.includes(k) || holds(oracle, r.el, place, i, group.value))) continue;
      for (const k of group.rows) {
        const match = records[k].match;
        fields.forEach((_, j) => {
          if (j !== i && oracle.memory.fields[j]?.same !== i) return;
          clearField(match, j);
        });
      }
    }
  });
}

/** Whether the record has an element at this place giving this value for field i. */
function holds(oracle: FieldOracle, record: DomElement, place: string, i: number, value: string): boolean {
  return descendants(record).some((el) => oracle.placeOf(el, record) === place && oracle.valueKey(i, el) === value);
}

/**
 * Records of one group share a template, so a field sits at one place in it. A field found at its usual place
 * in most records and elsewhere in a few (a likes count absent from a post, taking the post number there) is
 * null in those few, and so is a field that follows it. Only the fields of `only` are dropped (default: all).
 */
export function dropOffPlace(oracle: FieldOracle, records: Matched, only?: readonly number[]): void {
  if (records.length < CONSTANT_MIN_RECORDS) return;
  const { fields } = oracle.compiled;
  fields.forEach((field, i) => {
    const mem = oracle.memory.fields[i];
    if (mem === null || mem.same >= 0 || field.type === 'list' || (only !== undefined && !only.includes(i))) return;
    const places = records.map((r) => {
      const found = r.match.elements[i];
      return found === null || r.match.sources[i] === 'schema' ? null : oracle.placeOf(found[0], r.el);
    });
    const counts = new Map<string, number>();
    for (const place of places) if (place !== null) counts.set(place, (counts.get(place) ?? 0) + 1);
    if (counts.size < 2) return;
    const usual = Math.max(...counts.values());
    records.forEach((r, k) => {
      const place = places[k];
      if (place === null || counts.get(place)! * OFF_PLACE_RATIO > usual) return;
      fields.forEach((_, j) => {
        if (j !== i && oracle.memory.fields[j]?.same !== i) return;
        clearField(r.match, j);
      });
    });
  });
}

/**
 * Records of one group share a template, so each place in it (the path of tags and classes below the record)
 * holds one field. A field whose element sits, in some record, where another field sits in more records (an
 * optional field absent from this record taking its neighbour's element) is null in that record, and so is a
 * field that follows it (a link's href after its text). A list field sits wherever its items do, so a field
 * taking one of the items is displaced too. Only the fields of `only` are dropped (default: all).
 */
export function dropNeighbourValues(oracle: FieldOracle, records: Matched, only?: readonly number[]): void {
  const { fields } = oracle.compiled;
  const n = fields.length;
  const places = records.map((r) => r.match.elements.map((found, i) => (found === null || (oracle.memory.fields[i]?.same ?? -1) >= 0 ? null : oracle.placeOf(found[0], r.el))));
  const counts = new Map<string, number[]>();
  for (const row of places) {
    row.forEach((place, i) => {
      if (place === null) return;
      let c = counts.get(place);
      if (c === undefined) counts.set(place, (c = new Array<number>(n).fill(0)));
      c[i]++;
    });
  }
  records.forEach((r, k) => {
    const dropped: number[] = [];
    places[k].forEach((place, i) => {
      if (place === null || (only !== undefined && !only.includes(i))) return;
      const c = counts.get(place)!;
      // Displaced: the usual holder of this place is elsewhere (or nowhere) in this record.
      if (c.some((count, j) => j !== i && count > c[i] && (places[k][j] !== place || fields[j].type === 'list'))) dropped.push(i);
    });
    if (dropped.length === 0) return;
    fields.forEach((_, i) => {
      const same = oracle.memory.fields[i]?.same ?? -1;
      if (!dropped.includes(i) && !(same >= 0 && dropped.includes(same))) return;
      clearField(r.match, i);
    });
  });
}
