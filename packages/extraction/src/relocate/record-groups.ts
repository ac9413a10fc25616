import type { DomDocument, DomElement } from '@trawl/content';
import { compileSelector } from '../css-engine.ts';
import { deriveFieldSelector } from '../derive.ts';
import { bucket, NOT_TEXT } from '../text.ts';
import { fillFromUsualPlaces } from '../usual-place.ts';
import { classKey, descendants } from './dom-walk.ts';
import type { FieldOracle } from './field-oracle.ts';
import type { FieldSearch } from './field-search.ts';
import { dropConstantValues, dropNeighbourValues, dropOffPlace } from './post-filters.ts';
import { clearField, fieldWeight, type FieldPlan, type RecordMatch, type Relocation, type TemplateHint } from './record-match.ts';
import { CONSTANT_MIN_RECORDS, FIELD_MARGIN, FIELD_THRESHOLD, RECORD_THRESHOLD } from './thresholds.ts';

// Records of a page whose base selector matched nothing: found by grouping look-alike elements, then kept or
// left out one by one on how well they hold the remembered fields.

/** Elements less similar than this to the remembered record are not record candidates at all. */
const RECORD_PREFILTER = 0.45;
/** Groups of same-shaped elements evaluated in depth, and records sampled per group to rank them. */
const GROUPS_EVALUATED = 5;
const GROUP_SAMPLE = 3;
const RECORD_WEIGHT = 0.3;
/** Share of relocated records that must hold each field memory saw in every record (scaled by its presence). */
const REQUIRED_FIELD_SHARE = 0.5;
/** Fields present in at least this share of the learned records are the ones a relocation must find... */
const REQUIRED_PRESENCE = 0.5;
/** ...all but this share of them (rounded down): one field changed beyond recognition is left null. */
const LOST_FIELDS_SHARE = 0.25;
const NOT_RECORDS = new Set(['html', 'head', 'body', ...NOT_TEXT]);

/**
 * Finds the records of a page whose base selector matched nothing: every element is scored against the
 * remembered record (structure only), candidates are grouped by position and shape (same depth and tag path:
 * repeated siblings, rows of cards), the best groups are ranked by how well a few of their members hold the
 * remembered fields, and every member of the winning group is kept as a record if it holds them well enough
 * (a promo block between cards does not).
 */
export function relocateRecords(oracle: FieldOracle, search: FieldSearch, root: DomDocument, plans: readonly FieldPlan[]): Relocation | null {
  const all = oracle.features.indexAll(root);
  // A record of the redesign is at most about four times the size of a remembered one (bucket + 2): bigger
  // elements are containers, and never searched as records.
  const maxSize = Math.max(...oracle.memory.base.map((fp) => fp.z)) + 2;
  // ...and at least about a quarter of it: smaller elements are parts of records, never scored as records.
  const minSize = Math.min(...oracle.memory.base.map((fp) => fp.z)) - 2;
  const scored: { el: DomElement; sim: number; key: string }[] = [];
  for (let index = 0; index < all.length; index++) {
    const el = all[index];
    const size = oracle.features.subtree(el);
    if (el.name === 'head') {
      index += size; // nothing in head is a record
      continue;
    }
    if (size === 0 || NOT_RECORDS.has(el.name)) continue;
    const z = bucket(size);
    if (z > maxSize || z < minSize) continue;
    const sim = oracle.recordSim(el);
    if (sim >= RECORD_PREFILTER) scored.push({ el, sim, key: groupKey(oracle, el) });
  }
  const groups = new Map<string, { members: { el: DomElement; sim: number }[]; total: number }>();
  for (const s of scored) {
    let g = groups.get(s.key);
    if (g === undefined) groups.set(s.key, (g = { members: [], total: 0 }));
    g.members.push(s);
    g.total += s.sim;
  }
  const ranked = [...groups.entries()].sort((a, b) => b[1].total - a[1].total).slice(0, GROUPS_EVALUATED);
  let best: { key: string; score: number; sample: { el: DomElement; match: RecordMatch }[] } | null = null;
  for (const [key, g] of ranked) {
    const sample = [...g.members]
      .sort((a, b) => b.sim - a.sim)
      .slice(0, GROUP_SAMPLE)
      .map((m) => ({ el: m.el, sim: m.sim, match: search.matchRecord(m.el, plans) }));
    let score = 0;
    for (const m of sample) score += RECORD_WEIGHT * m.sim + (1 - RECORD_WEIGHT) * m.match.fieldScore;
    score /= sample.length;
    if (best === null || score > best.score) best = { key, score, sample };
  }
  if (best === null) return null;
  // The members of the winning group share a template: selectors derived from its sampled records find most
  // fields of the other members by selector (checked by similarity), so only the rest is searched.
  const fieldSelectors = plans.map((_, i) => {
    const found = best.sample.map((m) => m.match.elements[i]);
    return found.some((f) => f !== null) ? deriveFieldSelector(best.sample.map((m) => m.el), found, oracle.compiled.fields[i].type === 'list') : null;
  });
  const memberPlans = plans.map((plan, i) => {
    const derived = fieldSelectors[i];
    return derived === null ? plan : { selector: compileSelector(derived), trusted: false, search: true };
  });
  const members: { el: DomElement; match: RecordMatch; sim: number }[] = [];
  const [depth, tag] = best.key.split('|');
  const group = all.filter((el) => el.name === tag && String(oracle.features.depth(el)) === depth && groupKey(oracle, el) === best.key);
  search.setChromeGroup(group);
  // Members of the same markup (most cards) reuse the similarities of the first one matched.
  const templates = new Map<string, TemplateHint['like']>();
  for (const el of group) {
    const { key, elements } = markupTemplate(el);
    const like = templates.get(key);
    const match = search.matchRecord(el, memberPlans, like === undefined ? undefined : { elements, like });
    if (like === undefined) {
      templates.set(key, { match, positions: match.elements.map((found) => (found === null ? -1 : elements.indexOf(found[0]))) });
    }
    members.push({ el, match, sim: oracle.recordSim(el) });
  }
  // Records are scored on what they hold (a field displaced to a neighbour's place is still evidence the member is
  // a record of the template); the displaced values are dropped all the same.
  const held = members.map((m) => ({ ...m.match, sims: [...m.match.sims], elements: [...m.match.elements] }));
  dropNeighbourValues(oracle, members.map((m) => ({ el: m.el, match: m.match })));
  // A field memory saw in most records that is found in few of these was not relocated (its markup changed
  // beyond recognition): it is left null everywhere, and records are scored on the fields that were. Twice: the
  // fields lost among all members (promos included), then among the records kept.
  let lost: number[] = [];
  let records: { el: DomElement; match: RecordMatch; score: number }[] = [];
  let bestRejected = 0;
  for (let pass = 0; pass < 2; pass++) {
    const among = pass === 0 ? members : records;
    lost = lostFields(oracle, among.map((m) => m.match));
    records = [];
    bestRejected = 0;
    for (const [k, m] of members.entries()) {
      const score = RECORD_WEIGHT * m.sim + (1 - RECORD_WEIGHT) * fieldScoreWithout(oracle, held[k], lost);
      if (score >= RECORD_THRESHOLD) records.push({ el: m.el, match: m.match, score });
      else bestRejected = Math.max(bestRejected, score);
    }
    if (records.length === 0) break;
  }
  const confidence = records.length === 0 ? bestRejected : records.reduce((sum, r) => sum + r.score, 0) / records.length;
  if (records.length >= CONSTANT_MIN_RECORDS && records.length < members.length) records = addSparseRecords(oracle, records, members, lost);
  // Most of the fields memory saw in most records must be found in most of these records: a list of something
  // else (blog posts where products were) misses several, a redesign that changed one field beyond recognition
  // only that one.
  const required = oracle.memory.fields.filter((f) => f !== null && f.p >= REQUIRED_PRESENCE).length;
  if (records.length > 0 && lost.length > Math.floor(required * LOST_FIELDS_SHARE)) {
    return { records: [], confidence: Math.min(confidence, 1 - lost.length / required), fieldSelectors };
  }
  for (const r of records) {
    for (const i of lost) clearField(r.match, i);
  }
  dropConstantValues(oracle, records);
  dropOffPlace(oracle, records);
  fillFromUsualPlaces(oracle, records, FIELD_THRESHOLD, FIELD_MARGIN);
  return { records, confidence, fieldSelectors };
}

/**
 * Members of the winning group scored below RECORD_THRESHOLD because optional fields are absent from them (an
 * event without a price, a review without a variant) are records all the same when they are marked as the kept
 * records are (tag and classes of the element itself, which a promo tile reusing the inner classes is not), hold
 * at least half the required fields, and hold every required field they have at the place the kept records hold
 * it (an optional one found elsewhere is null).
 * Kept in document order; the confidence stays that of the records that passed on their own.
 */
function addSparseRecords(
  oracle: FieldOracle,
  records: { el: DomElement; match: RecordMatch; score: number }[],
  members: readonly { el: DomElement; match: RecordMatch; sim: number }[],
  lost: readonly number[],
): { el: DomElement; match: RecordMatch; score: number }[] {
  const markOf = (el: DomElement) => `${el.name}.${classKey(el)}`;
  const marks = new Map<string, number>();
  for (const r of records) marks.set(markOf(r.el), (marks.get(markOf(r.el)) ?? 0) + 1);
  const [mark, count] = [...marks.entries()].sort((a, b) => b[1] - a[1])[0];
  if (count * 2 <= records.length) return records;
  const n = oracle.compiled.fields.length;
  // Per field, the place most kept records hold it at.
  const usual: (string | null)[] = [];
  for (let i = 0; i < n; i++) {
    const counts = new Map<string, number>();
    for (const r of records) {
      const found = r.match.elements[i];
      if (found !== null) counts.set(oracle.placeOf(found[0], r.el), (counts.get(oracle.placeOf(found[0], r.el)) ?? 0) + 1);
    }
    const best = [...counts.entries()].sort((a, b) => b[1] - a[1])[0];
    usual.push(best === undefined ? null : best[0]);
  }
  const required = oracle.memory.fields.map((f, i) => f !== null && f.p >= REQUIRED_PRESENCE && !lost.includes(i));
  const requiredCount = required.filter(Boolean).length;
  const kept = new Set(records.map((r) => r.el));
  const added: { el: DomElement; match: RecordMatch; score: number }[] = [];
  for (const m of members) {
    if (kept.has(m.el) || markOf(m.el) !== mark) continue;
    let held = 0;
    let inPlace = true;
    const off: number[] = [];
    for (let i = 0; i < n && inPlace; i++) {
      const found = m.match.elements[i];
      if (found === null || (oracle.memory.fields[i]?.same ?? -1) >= 0) continue;
      if (usual[i] !== null && oracle.placeOf(found[0], m.el) === usual[i]) {
        if (required[i]) held++;
      } else if (required[i]) inPlace = false;
      else off.push(i);
    }
    if (!inPlace || held * 2 < requiredCount) continue;
    // An optional field found off its place (taking something else there) is null, with the fields that follow it.
    oracle.compiled.fields.forEach((_, j) => {
      const same = oracle.memory.fields[j]?.same ?? -1;
      if (!off.includes(j) && !(same >= 0 && off.includes(same))) return;
      clearField(m.match, j);
    });
    added.push({ el: m.el, match: m.match, score: RECORD_THRESHOLD });
  }
  if (added.length === 0) return records;
  const order = new Map(members.map((m, k) => [m.el, k]));
  return [...records, ...added].sort((a, b) => order.get(a.el)! - order.get(b.el)!);
}

/**
 * Fields memory saw in at least REQUIRED_PRESENCE of the records that are found in fewer than
 * REQUIRED_FIELD_SHARE of what their presence promises among these matches.
 */
function lostFields(oracle: FieldOracle, matches: readonly RecordMatch[]): number[] {
  const lost: number[] = [];
  if (matches.length === 0) return lost;
  oracle.memory.fields.forEach((mem, i) => {
    if (mem === null || mem.p < REQUIRED_PRESENCE) return;
    const found = matches.filter((m) => m.elements[i] !== null).length;
    if (found < matches.length * mem.p * REQUIRED_FIELD_SHARE) lost.push(i);
  });
  return lost;
}

/** The record's field score (weighted by presence) leaving out the given fields. */
function fieldScoreWithout(oracle: FieldOracle, match: RecordMatch, left: readonly number[]): number {
  let weighted = 0;
  let weights = 0;
  oracle.memory.fields.forEach((mem, i) => {
    if (mem === null || mem.p === 0 || left.includes(i)) return;
    const weight = fieldWeight(mem.p, match.sims[i] > 0);
    weighted += weight * match.sims[i];
    weights += weight;
  });
  return weights === 0 ? 0 : weighted / weights;
}

/** Same depth, tag and three ancestor tags: siblings of one list, or cards in rows. */
function groupKey(oracle: FieldOracle, el: DomElement): string {
  let key = `${oracle.features.depth(el)}|${el.name}`;
  let p = el.parent;
  for (let i = 0; i < 3 && p !== null && p.type !== 'root'; i++, p = p.parent) key += `|${p.name}`;
  return key;
}

/**
 * A key that is equal for two records of the same markup: every descendant's depth, tag, classes and attributes
 * (names, and values of the attributes a derived selector may use) in document order, and those descendants.
 */
function markupTemplate(record: DomElement): { key: string; elements: DomElement[] } {
  const elements = descendants(record);
  let key = '';
  for (const el of elements) {
    let depth = 0;
    for (let p = el.parent; p !== null && p !== record && depth < 64; p = p.parent) depth++;
    key += `${depth}<${el.name}`;
    for (const name in el.attribs) {
      // Values that differ per record (links, ids, data) are left out; the derived selectors never use them.
      if (name === 'href' || name === 'src' || name === 'id' || name === 'alt' || name === 'title' || name.startsWith('data-')) key += ` ${name}`;
      else key += ` ${name}=${el.attribs[name]}`;
    }
    key += '>';
  }
  return { key, elements };
}
