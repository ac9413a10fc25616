import { isElement, type DomDocument, type DomElement } from '@trawl/content';
import type { CompiledExtraction } from './compile.ts';
import { compileSelector, selectAllIn, selectFirstIn, type CompiledSelector } from './css-engine.ts';
import { deriveFieldSelector } from './derive.ts';
import { bestSimilarity, fieldSimilarity, recordSimilarity, TEXT_KIND_PENALTY, textKindAgrees, type Fingerprint, type PageFeatures } from './fingerprint.ts';
import type { SelectorMemory } from './memory.ts';
import { bucket, NOT_TEXT, textShape } from './text.ts';
import { fillFromUsualPlaces } from './usual-place.ts';
import { attributeOf } from './values.ts';

// Relocation: finding records and fields by similarity to what the memory remembers. A wrong value is worse than
// a null, so every step has a threshold, and a field also needs a margin over its runner-up.

/** A field element must be at least this similar to the remembered one. */
export const FIELD_THRESHOLD = 0.62;
/** ...and this much more similar than the best other candidate giving a different value (else: ambiguous, null). */
export const FIELD_MARGIN = 0.06;
/**
 * An attribute-valued field's element that is the only one of its record carrying that attribute (a data-rating,
 * a data-sku) closes this share of the gap between its similarity and 1: the attribute says what the value is.
 */
export const SOLE_HOLDER_WEIGHT = 0.25;
/** Inline tags that may wrap a text leaf's whole text after a redesign (h2 > a, p > span). */
const TEXT_WRAPPER_TAGS = new Set(['a', 'span', 'strong', 'b', 'em']);
const HEADING = /^h[1-6]$/;
/** A relocated record must score at least this (0.3 × record similarity + 0.7 × its fields' similarity). */
export const RECORD_THRESHOLD = 0.6;
/** The mean score of the relocated records (or fields) must reach this, or nothing is extracted: low_confidence. */
export const CONFIDENCE_THRESHOLD = 0.65;
/** Elements less similar than this to the remembered record are not record candidates at all. */
const RECORD_PREFILTER = 0.45;
/** Groups of same-shaped elements evaluated in depth, and records sampled per group to rank them. */
const GROUPS_EVALUATED = 5;
const GROUP_SAMPLE = 3;
/** A schema selector's match inside a relocated record is kept when this close below FIELD_THRESHOLD. */
const SELECTOR_ALLOWANCE = 0.1;
const RECORD_WEIGHT = 0.3;
/** Share of relocated records that must hold each field memory saw in every record (scaled by its presence). */
const REQUIRED_FIELD_SHARE = 0.5;
/** Fields present in at least this share of the learned records are the ones a relocation must find... */
const REQUIRED_PRESENCE = 0.5;
/** ...all but this share of them (rounded down): one field changed beyond recognition is left null. */
const LOST_FIELDS_SHARE = 0.25;
/** A relocated value repeated at one place of at least this many records can be page chrome (dropConstantValues). */
const CONSTANT_MIN_RECORDS = 3;
/** A field's place in a few records is off when its usual place holds it in at least this many times more. */
const OFF_PLACE_RATIO = 2;

/** How one field is looked for inside a record. */
export interface FieldPlan {
  /** Tried first (the schema's or a derived selector); null: none. */
  selector: CompiledSelector | null;
  /** The selector's match is taken as is (the schema's selectors on the schema's records). */
  trusted: boolean;
  /** Similarity search when the selector gives nothing acceptable. */
  search: boolean;
}

/** Where a field's element came from: the schema's selector, a derived one, a similarity search, its partner field. */
export type FieldSource = 'schema' | 'selector' | 'search' | 'same' | null;

export interface RecordMatch {
  /** Per field: matched elements (one, or all for a list), or null. */
  elements: (DomElement[] | null)[];
  /** Per field: similarity of what was taken (1 when trusted, 0 when nothing). */
  sims: number[];
  sources: FieldSource[];
  /** Weighted similarity of the fields that were checked (1 when none was). */
  fieldScore: number;
}

export class Relocator {
  private readonly fingerprints = new Map<DomElement, Map<DomElement, Fingerprint>>();
  private readonly holders = new Map<DomElement, Map<string, DomElement | null>>();
  private readonly recordSims = new Map<DomElement, number>();
  /** placeOf, memoized: an element's place below the record it was last asked for. */
  private readonly places = new Map<DomElement, { record: DomElement; place: string }>();
  /** The winning group's members once it is chosen, and (built on first need) how many hold each text at a place. */
  private chromeGroup: readonly DomElement[] | null = null;
  private chrome: { counts: Map<string, number>; min: number } | null = null;

  constructor(
    readonly compiled: CompiledExtraction,
    readonly memory: SelectorMemory,
    readonly features: PageFeatures,
  ) {}

  /** Similarity of el, inside record, to field i's memory (0 without memory). */
  fieldSim(i: number, el: DomElement, record: DomElement): number {
    const mem = this.memory.fields[i];
    if (mem === null) return 0;
    let perRecord = this.fingerprints.get(record);
    if (perRecord === undefined) {
      perRecord = new Map();
      this.fingerprints.set(record, perRecord);
    }
    let fp = perRecord.get(el);
    if (fp === undefined) {
      fp = this.features.fieldFingerprint(el, record);
      perRecord.set(el, fp);
    }
    // A field whose value is text is penalized for a text of another kind (digits, currency, empty).
    const textValued = this.compiled.fields[i].attribute === null && this.compiled.fields[i].type !== 'attribute';
    // A heading whose whole text sits in one inline child (a title put inside its link: h3 → h2 > a) is also
    // compared with a remembered bare heading as the text leaf it was.
    const asLeaf = fp.l !== 0 && fp.k === 1 && this.wrapsWholeText(el) ? { ...fp, k: 0, h: [], z: 0 } : null;
    let best = 0;
    for (const sample of mem.fp) {
      const c = asLeaf !== null && sample.k === 0 && sample.l !== 0 && HEADING.test(sample.t) && HEADING.test(fp.t) ? asLeaf : fp;
      let sim = Math.max(fieldSimilarity(sample, fp), c === fp ? 0 : fieldSimilarity(sample, c));
      if (textValued && !textKindAgrees(sample, fp)) sim *= TEXT_KIND_PENALTY;
      if (sim > best) best = sim;
    }
    const attribute = this.compiled.fields[i].attribute;
    if (attribute !== null && best < 1 && this.soleHolder(record, attribute) === el) best += (1 - best) * SOLE_HOLDER_WEIGHT;
    return best;
  }

  /** Whether el's only element child is inline, has no element children and holds all of el's text. */
  private wrapsWholeText(el: DomElement): boolean {
    let only: DomElement | null = null;
    for (const c of el.children) {
      if (!isElement(c)) continue;
      if (only !== null) return false;
      only = c;
    }
    if (only === null || !TEXT_WRAPPER_TAGS.has(only.name) || only.children.some(isElement)) return false;
    return this.features.text(only) === this.features.text(el);
  }

  /** The one element of the record carrying the attribute, null when none or several do. */
  private soleHolder(record: DomElement, attribute: string): DomElement | null {
    let perRecord = this.holders.get(record);
    if (perRecord === undefined) {
      perRecord = new Map();
      this.holders.set(record, perRecord);
    }
    let holder = perRecord.get(attribute);
    if (holder === undefined) {
      holder = null;
      for (const d of descendants(record)) {
        if (attributeOf(d, attribute) === null) continue;
        if (holder !== null) {
          holder = null;
          break;
        }
        holder = d;
      }
      perRecord.set(attribute, holder);
    }
    return holder;
  }

  recordSim(el: DomElement): number {
    let sim = this.recordSims.get(el);
    if (sim === undefined) {
      sim = bestSimilarity(this.memory.base, this.features.recordFingerprint(el), recordSimilarity);
      this.recordSims.set(el, sim);
    }
    return sim;
  }

  /**
   * The fields of one record, by selector where the plan says so and by similarity search for the rest. With a
   * template (a record of the same markup already matched), a selector taking the element at the same place
   * takes its similarity too, and a field that record did not have is not searched for.
   */
  matchRecord(record: DomElement, plans: readonly FieldPlan[], template?: TemplateHint): RecordMatch {
    const { fields } = this.compiled;
    const n = fields.length;
    const elements: (DomElement[] | null)[] = new Array(n).fill(null);
    const sims: number[] = new Array(n).fill(0);
    const sources: FieldSource[] = new Array(n).fill(null);
    const claimed = new Set<DomElement>();

    // Selector pass. An element two fields' selectors both took (a derived selector too loose in this record)
    // goes to the more similar field; the other searches.
    const owner = new Map<DomElement, number>();
    plans.forEach((plan, i) => {
      if (plan.selector === null) return;
      const found = fields[i].type === 'list' ? selectAllIn(plan.selector, record) : nonNull(selectFirstIn(plan.selector, record));
      if (found.length === 0) return;
      const mem = this.memory.fields[i];
      const schemaSelector = plan.selector === fields[i].selector;
      let sim = 1;
      const known = template?.like.positions[i];
      if (known !== undefined && known >= 0 && template!.elements[known] === found[0] && template!.like.match.sources[i] !== 'search') {
        sim = template!.like.match.sims[i];
      } else if (!plan.trusted && mem !== null) {
        // The schema's own selector still matching is evidence in itself; a derived one must pass on similarity.
        const allowance = schemaSelector ? SELECTOR_ALLOWANCE : 0;
        sim = this.fieldSim(i, found[0], record);
        if (sim < FIELD_THRESHOLD - allowance) return;
        // A selector that still matches after a redesign may match the wrong element (a positional selector after
        // the columns moved): another element clearly more like the field wins, by search.
        if (this.clearlyBetter(i, record, found[0], sim)) return;
        sim = Math.min(1, sim + allowance);
      }
      if (mem === null || mem.same === -1) {
        const rival = owner.get(found[0]);
        if (rival !== undefined && !plan.trusted) {
          if (sims[rival] >= sim) return;
          elements[rival] = null;
          sims[rival] = 0;
          sources[rival] = null;
        }
        owner.set(found[0], i);
      }
      elements[i] = found;
      sims[i] = sim;
      sources[i] = schemaSelector ? 'schema' : 'selector';
    });
    plans.forEach((_, i) => {
      const mem = this.memory.fields[i];
      if (elements[i] !== null && (mem === null || mem.same === -1)) for (const el of elements[i]!) claimed.add(el);
    });

    const searching: number[] = [];
    plans.forEach((plan, i) => {
      const mem = this.memory.fields[i];
      if (template !== undefined && template.like.match.elements[i] === null) return;
      if (elements[i] === null && plan.search && mem !== null && mem.same === -1) searching.push(i);
    });
    if (searching.length > 0) this.search(record, searching, elements, sims, sources, claimed);
    this.unwrap(elements, sources);

    // A field that matched the same element as an earlier one (a link's text and its href) follows it.
    plans.forEach((plan, i) => {
      const mem = this.memory.fields[i];
      if (elements[i] !== null || !plan.search || mem === null || mem.same < 0) return;
      const partner = elements[mem.same];
      if (partner === null) return;
      const el = partner[0];
      const spec = fields[i];
      if (spec.attribute !== null && attributeOf(el, spec.attribute) === null) return;
      const sim = this.fieldSim(i, el, record);
      if (sim < FIELD_THRESHOLD) return;
      elements[i] = spec.type === 'list' ? partner : [el];
      sims[i] = sim;
      sources[i] = 'same';
    });

    let weighted = 0;
    let weights = 0;
    plans.forEach((plan, i) => {
      const mem = this.memory.fields[i];
      if (mem === null || mem.p === 0 || (plan.trusted && sources[i] !== null)) return;
      const weight = fieldWeight(mem.p, sims[i] > 0);
      weighted += weight * sims[i];
      weights += weight;
    });
    return { elements, sims, sources, fieldScore: weights === 0 ? 1 : weighted / weights };
  }

  /**
   * A text field whose element is a wrapper holding other text fields' elements too (a price block with the
   * charges note beside it) gives its own text only, when memory knows the shape of that text and not the
   * wrapper's: the descendant whose text is the wrapper's without theirs takes its place, without one the field
   * is null.
   */
  private unwrap(elements: (DomElement[] | null)[], sources: FieldSource[]): void {
    const { fields } = this.compiled;
    fields.forEach((field, i) => {
      const found = elements[i];
      if (found === null || field.type !== 'text' || field.attribute !== null || sources[i] === 'schema') return;
      const el = found[0];
      const inner: DomElement[] = [];
      fields.forEach((other, j) => {
        const theirs = elements[j];
        if (j === i || theirs === null || other.attribute !== null || other.type === 'attribute') return;
        for (const e of theirs) if (e !== el && contains(el, e) && this.features.text(e) !== '') inner.push(e);
      });
      if (inner.length === 0) return;
      // Only where memory says so: the wrapper's text is of no remembered shape, and its own part is of one.
      const shapes = this.memory.fields[i]?.fp.map((fp) => fp.x) ?? [];
      let text = this.features.text(el);
      if (shapes.includes(textShape(text))) return;
      for (const e of inner) text = text.replace(this.features.text(e), ' ');
      text = text.replace(WHITESPACE, ' ').trim();
      if (!shapes.includes(textShape(text))) return;
      const rest = squash(text);
      let own: DomElement | null = null;
      if (rest !== '') {
        for (const d of descendants(el)) {
          if (inner.some((e) => contains(d, e)) || squash(this.features.text(d)) !== rest) continue;
          own = d;
          break;
        }
      }
      elements[i] = own === null ? null : [own];
      if (own === null) sources[i] = null;
    });
  }

  /** Whether an element of the record giving another value is more similar to field i than el by FIELD_MARGIN. */
  private clearlyBetter(i: number, record: DomElement, el: DomElement, sim: number): boolean {
    const attribute = this.compiled.fields[i].attribute;
    const value = this.valueKey(i, el);
    for (const other of descendants(record)) {
      if (other === el || (attribute !== null && attributeOf(other, attribute) === null)) continue;
      if (this.fieldSim(i, other, record) - sim < FIELD_MARGIN) continue;
      if (this.valueKey(i, other) !== value) return true;
    }
    return false;
  }

  /**
   * Assigns each searched field the most similar unclaimed element of the record (greedy, best pairs first, each
   * element to one field), then drops an assignment whose best rival with a different value is within the margin.
   */
  private search(
    record: DomElement,
    searching: readonly number[],
    elements: (DomElement[] | null)[],
    sims: number[],
    sources: FieldSource[],
    claimed: Set<DomElement>,
  ): void {
    const { fields } = this.compiled;
    const candidates = descendants(record);
    const floor = FIELD_THRESHOLD - FIELD_MARGIN;
    const pairs: { field: number; el: DomElement; sim: number }[] = [];
    for (const i of searching) {
      const attribute = fields[i].attribute;
      for (const el of candidates) {
        if (claimed.has(el)) continue;
        if (attribute !== null && attributeOf(el, attribute) === null) continue;
        const sim = this.fieldSim(i, el, record);
        if (sim >= floor) pairs.push({ field: i, el, sim });
      }
    }
    pairs.sort((a, b) => b.sim - a.sim);
    const assigned = new Map<number, { el: DomElement; sim: number }>();
    const taken = new Set<DomElement>();
    // The other items of an assigned list are that list's elements too: never another field's, nor its rival.
    const listItems = new Set<DomElement>();
    // The assignment of elements to fields with the greatest total similarity (one field's best element may be the
    // only good one for another field, which greedy best-pairs-first would take from it). Lists first: their
    // other items are nobody else's.
    const best = bestAssignment(searching, pairs.filter((p) => p.sim >= FIELD_THRESHOLD));
    const order = [...best.entries()].sort((a, b) => Number(fields[b[0]].type === 'list') - Number(fields[a[0]].type === 'list') || b[1].sim - a[1].sim);
    for (const [field, pair] of order) {
      if (taken.has(pair.el) || listItems.has(pair.el)) continue;
      assigned.set(field, { el: pair.el, sim: pair.sim });
      taken.add(pair.el);
      if (fields[field].type !== 'list') continue;
      for (const p of pairs) {
        if (p.field === field && p.el.name === pair.el.name && p.el.attribs.class === pair.el.attribs.class && p.el.parent === pair.el.parent && !taken.has(p.el)) listItems.add(p.el);
      }
    }
    for (const [field, { el, sim }] of assigned) {
      const value = this.valueKey(field, el);
      const isList = fields[field].type === 'list';
      let rival = 0;
      for (const pair of pairs) {
        if (pair.field !== field || pair.el === el || pair.sim <= rival) continue;
        if (taken.has(pair.el) || (listItems.has(pair.el) && !isList)) continue; // another field's element
        if (isList && pair.el.name === el.name && pair.el.parent === el.parent) continue; // a list-mate
        if (this.valueKey(field, pair.el) === value) continue; // same value: no ambiguity
        // The same text at this place of most records is page chrome (checked only where it would decide).
        if (pair.sim > sim - FIELD_MARGIN && this.isChrome(pair.el, record)) continue;
        rival = pair.sim;
      }
      if (sim - rival < FIELD_MARGIN) continue;
      let found = [el];
      if (isList) {
        found = pairs
          .filter((p) => p.field === field && p.el.name === el.name && p.el.attribs.class === el.attribs.class && p.el.parent === el.parent && (p.el === el || !taken.has(p.el)))
          .map((p) => p.el);
        found.sort((a, b) => candidates.indexOf(a) - candidates.indexOf(b));
      }
      elements[field] = found;
      sims[field] = sim;
      sources[field] = 'search';
      for (const f of found) claimed.add(f);
    }
  }

  /**
   * Per place and text, how many of the group's members hold that text there: a text at one place of most members
   * (a "Report" link, a "Compare" label) is page chrome, never a rival that makes a field ambiguous.
   */
  private chromeTexts(group: readonly DomElement[]): { counts: Map<string, number>; min: number } | null {
    if (group.length < CONSTANT_MIN_RECORDS) return null;
    const counts = new Map<string, number>();
    for (const record of group) {
      const seen = new Set<string>();
      for (const el of descendants(record)) {
        const text = this.features.text(el);
        if (text === '') continue;
        const key = `${this.placeOf(el, record)}\u0000${text}`;
        if (seen.has(key)) continue;
        seen.add(key);
        counts.set(key, (counts.get(key) ?? 0) + 1);
      }
    }
    return { counts, min: Math.max(CONSTANT_MIN_RECORDS, Math.ceil(group.length / 2)) };
  }

  private isChrome(el: DomElement, record: DomElement): boolean {
    if (this.chromeGroup === null) return false;
    if (this.chrome === null) this.chrome = this.chromeTexts(this.chromeGroup);
    if (this.chrome === null) return false;
    const text = this.features.text(el);
    return text !== '' && (this.chrome.counts.get(`${this.placeOf(el, record)}\u0000${text}`) ?? 0) >= this.chrome.min;
  }

  valueKey(field: number, el: DomElement): string {
    const attribute = this.compiled.fields[field].attribute;
    return attribute !== null ? (attributeOf(el, attribute) ?? '') : this.features.text(el);
  }

  /**
   * Finds the records of a page whose base selector matched nothing: every element is scored against the
   * remembered record (structure only), candidates are grouped by position and shape (same depth and tag path:
   * repeated siblings, rows of cards), the best groups are ranked by how well a few of their members hold the
   * remembered fields, and every member of the winning group is kept as a record if it holds them well enough
   * (a promo block between cards does not).
   */
  relocateRecords(root: DomDocument, plans: readonly FieldPlan[]): Relocation | null {
    const all = this.features.indexAll(root);
    // A record of the redesign is at most about four times the size of a remembered one (bucket + 2): bigger
    // elements are containers, and never searched as records.
    const maxSize = Math.max(...this.memory.base.map((fp) => fp.z)) + 2;
    // ...and at least about a quarter of it: smaller elements are parts of records, never scored as records.
    const minSize = Math.min(...this.memory.base.map((fp) => fp.z)) - 2;
    const scored: { el: DomElement; sim: number; key: string }[] = [];
    for (let index = 0; index < all.length; index++) {
      const el = all[index];
      const size = this.features.subtree(el);
      if (el.name === 'head') {
        index += size; // nothing in head is a record
        continue;
      }
      if (size === 0 || NOT_RECORDS.has(el.name)) continue;
      const z = bucket(size);
      if (z > maxSize || z < minSize) continue;
      const sim = this.recordSim(el);
      if (sim >= RECORD_PREFILTER) scored.push({ el, sim, key: this.groupKey(el) });
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
        .map((m) => ({ el: m.el, sim: m.sim, match: this.matchRecord(m.el, plans) }));
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
      return found.some((f) => f !== null) ? deriveFieldSelector(best.sample.map((m) => m.el), found, this.compiled.fields[i].type === 'list') : null;
    });
    const memberPlans = plans.map((plan, i) => {
      const derived = fieldSelectors[i];
      return derived === null ? plan : { selector: compileSelector(derived), trusted: false, search: true };
    });
    const members: { el: DomElement; match: RecordMatch; sim: number }[] = [];
    const [depth, tag] = best.key.split('|');
    const group = all.filter((el) => el.name === tag && String(this.features.depth(el)) === depth && this.groupKey(el) === best.key);
    this.chromeGroup = group;
    this.chrome = null;
    // Members of the same markup (most cards) reuse the similarities of the first one matched.
    const templates = new Map<string, TemplateHint['like']>();
    for (const el of group) {
      const { key, elements } = markupTemplate(el);
      const like = templates.get(key);
      const match = this.matchRecord(el, memberPlans, like === undefined ? undefined : { elements, like });
      if (like === undefined) {
        templates.set(key, { match, positions: match.elements.map((found) => (found === null ? -1 : elements.indexOf(found[0]))) });
      }
      members.push({ el, match, sim: this.recordSim(el) });
    }
    // Records are scored on what they hold (a field displaced to a neighbour's place is still evidence the member is
    // a record of the template); the displaced values are dropped all the same.
    const held = members.map((m) => ({ ...m.match, sims: [...m.match.sims], elements: [...m.match.elements] }));
    this.dropNeighbourValues(members.map((m) => ({ el: m.el, match: m.match })));
    // A field memory saw in most records that is found in few of these was not relocated (its markup changed
    // beyond recognition): it is left null everywhere, and records are scored on the fields that were. Twice: the
    // fields lost among all members (promos included), then among the records kept.
    let lost: number[] = [];
    let records: { el: DomElement; match: RecordMatch; score: number }[] = [];
    let bestRejected = 0;
    for (let pass = 0; pass < 2; pass++) {
      const among = pass === 0 ? members : records;
      lost = this.lostFields(among.map((m) => m.match));
      records = [];
      bestRejected = 0;
      for (const [k, m] of members.entries()) {
        const score = RECORD_WEIGHT * m.sim + (1 - RECORD_WEIGHT) * this.fieldScoreWithout(held[k], lost);
        if (score >= RECORD_THRESHOLD) records.push({ el: m.el, match: m.match, score });
        else bestRejected = Math.max(bestRejected, score);
      }
      if (records.length === 0) break;
    }
    const confidence = records.length === 0 ? bestRejected : records.reduce((sum, r) => sum + r.score, 0) / records.length;
    if (records.length >= CONSTANT_MIN_RECORDS && records.length < members.length) records = this.addSparseRecords(records, members, lost);
    // Most of the fields memory saw in most records must be found in most of these records: a list of something
    // else (blog posts where products were) misses several, a redesign that changed one field beyond recognition
    // only that one.
    const required = this.memory.fields.filter((f) => f !== null && f.p >= REQUIRED_PRESENCE).length;
    if (records.length > 0 && lost.length > Math.floor(required * LOST_FIELDS_SHARE)) {
      return { records: [], confidence: Math.min(confidence, 1 - lost.length / required), fieldSelectors };
    }
    for (const r of records) {
      for (const i of lost) {
        r.match.elements[i] = null;
        r.match.sims[i] = 0;
        r.match.sources[i] = null;
      }
    }
    this.dropConstantValues(records);
    this.dropOffPlace(records);
    fillFromUsualPlaces(this, records, FIELD_THRESHOLD, FIELD_MARGIN);
    return { records, confidence, fieldSelectors };
  }

  /**
   * A relocated field whose value is the same text at the same place of several records, where memory says the
   * field's text varied (fingerprints of more than one text shape) or was sometimes absent and that text is there
   * in every record, is page chrome (a visually hidden "Compare" label, a "Report" link), not the field: it is
   * null in those records, and so is a field that follows it.
   */
  dropConstantValues(records: readonly { el: DomElement; match: RecordMatch }[]): void {
    if (records.length < CONSTANT_MIN_RECORDS) return;
    const { fields } = this.compiled;
    fields.forEach((field, i) => {
      const mem = this.memory.fields[i];
      if (mem === null || mem.same >= 0 || field.type === 'list') return;
      const varied = new Set(mem.fp.map((fp) => `${fp.x}|${fp.l}|${fp.w}`)).size > 1;
      if (!varied && mem.p >= 1) return;
      const byPlace = new Map<string, { value: string; rows: number[]; constant: boolean }>();
      records.forEach((r, k) => {
        const found = r.match.elements[i];
        if (found === null || r.match.sources[i] === 'schema') return;
        const place = this.placeOf(found[0], r.el);
        const value = this.valueKey(i, found[0]);
        const group = byPlace.get(place);
        if (group === undefined) byPlace.set(place, { value, rows: [k], constant: true });
        else {
          group.rows.push(k);
          if (group.value !== value) group.constant = false;
        }
      });
      for (const [place, group] of byPlace) {
        if (!group.constant || group.rows.length < CONSTANT_MIN_RECORDS) continue;
        if (!varied && !records.every((r, k) => group.rows.includes(k) || this.holds(r.el, place, i, group.value))) continue;
        for (const k of group.rows) {
          const match = records[k].match;
          fields.forEach((_, j) => {
            if (j !== i && this.memory.fields[j]?.same !== i) return;
            match.elements[j] = null;
            match.sims[j] = 0;
            match.sources[j] = null;
          });
        }
      }
    });
  }

  /**
   * Records of one group share a template, so a field sits at one place in it. A field found at its usual place
   * in most records and elsewhere in a few (a likes count absent from a post, taking the post number there) is
   * null in those few, and so is a field that follows it. Only the fields of `only` are dropped (default: all).
   */
  dropOffPlace(records: readonly { el: DomElement; match: RecordMatch }[], only?: readonly number[]): void {
    if (records.length < CONSTANT_MIN_RECORDS) return;
    const { fields } = this.compiled;
    fields.forEach((field, i) => {
      const mem = this.memory.fields[i];
      if (mem === null || mem.same >= 0 || field.type === 'list' || (only !== undefined && !only.includes(i))) return;
      const places = records.map((r) => {
        const found = r.match.elements[i];
        return found === null || r.match.sources[i] === 'schema' ? null : this.placeOf(found[0], r.el);
      });
      const counts = new Map<string, number>();
      for (const place of places) if (place !== null) counts.set(place, (counts.get(place) ?? 0) + 1);
      if (counts.size < 2) return;
      const usual = Math.max(...counts.values());
      records.forEach((r, k) => {
        const place = places[k];
        if (place === null || counts.get(place)! * OFF_PLACE_RATIO > usual) return;
        fields.forEach((_, j) => {
          if (j !== i && this.memory.fields[j]?.same !== i) return;
          r.match.elements[j] = null;
          r.match.sims[j] = 0;
          r.match.sources[j] = null;
        });
      });
    });
  }

  /**
   * Where an element sits below its record: tag and classes of every step (siblings alike share a place). Built
   * on its parent's place, memoized: the template checks ask for many elements of the same records.
   */
  placeOf(el: DomElement, record: DomElement): string {
    if (el === record) return '';
    const known = this.places.get(el);
    if (known !== undefined && known.record === record) return known.place;
    const parent = el.parent;
    const above = parent === null || parent.type === 'root' || !isElement(parent) ? '' : this.placeOf(parent, record);
    // Within one page, generated class names are as stable as any.
    const place = `${above}${el.name}.${classKey(el)}>`;
    this.places.set(el, { record, place });
    return place;
  }

  /** Whether the record has an element at this place giving this value for field i. */
  private holds(record: DomElement, place: string, i: number, value: string): boolean {
    return descendants(record).some((el) => this.placeOf(el, record) === place && this.valueKey(i, el) === value);
  }

  /**
   * Records of one group share a template, so each place in it (the path of tags and classes below the record)
   * holds one field. A field whose element sits, in some record, where another field sits in more records (an
   * optional field absent from this record taking its neighbour's element) is null in that record, and so is a
   * field that follows it (a link's href after its text). A list field sits wherever its items do, so a field
   * taking one of the items is displaced too. Only the fields of `only` are dropped (default: all).
   */
  dropNeighbourValues(records: readonly { el: DomElement; match: RecordMatch }[], only?: readonly number[]): void {
    const n = this.compiled.fields.length;
    const places = records.map((r) => r.match.elements.map((found, i) => (found === null || (this.memory.fields[i]?.same ?? -1) >= 0 ? null : this.placeOf(found[0], r.el))));
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
        if (c.some((count, j) => j !== i && count > c[i] && (places[k][j] !== place || this.compiled.fields[j].type === 'list'))) dropped.push(i);
      });
      if (dropped.length === 0) return;
      this.compiled.fields.forEach((_, i) => {
        const same = this.memory.fields[i]?.same ?? -1;
        if (!dropped.includes(i) && !(same >= 0 && dropped.includes(same))) return;
        r.match.elements[i] = null;
        r.match.sims[i] = 0;
        r.match.sources[i] = null;
      });
    });
  }

  /**
   * Members of the winning group scored below RECORD_THRESHOLD because optional fields are absent from them (an
   * event without a price, a review without a variant) are records all the same when they are marked as the kept
   * records are (tag and classes of the element itself, which a promo tile reusing the inner classes is not), hold
   * at least half the required fields, and hold every required field they have at the place the kept records hold
   * it (an optional one found elsewhere is null).
   * Kept in document order; the confidence stays that of the records that passed on their own.
   */
  private addSparseRecords(
    records: { el: DomElement; match: RecordMatch; score: number }[],
    members: readonly { el: DomElement; match: RecordMatch; sim: number }[],
    lost: readonly number[],
  ): { el: DomElement; match: RecordMatch; score: number }[] {
    const markOf = (el: DomElement) => `${el.name}.${classKey(el)}`;
    const marks = new Map<string, number>();
    for (const r of records) marks.set(markOf(r.el), (marks.get(markOf(r.el)) ?? 0) + 1);
    const [mark, count] = [...marks.entries()].sort((a, b) => b[1] - a[1])[0];
    if (count * 2 <= records.length) return records;
    const n = this.compiled.fields.length;
    // Per field, the place most kept records hold it at.
    const usual: (string | null)[] = [];
    for (let i = 0; i < n; i++) {
      const counts = new Map<string, number>();
      for (const r of records) {
        const found = r.match.elements[i];
        if (found !== null) counts.set(this.placeOf(found[0], r.el), (counts.get(this.placeOf(found[0], r.el)) ?? 0) + 1);
      }
      const best = [...counts.entries()].sort((a, b) => b[1] - a[1])[0];
      usual.push(best === undefined ? null : best[0]);
    }
    const required = this.memory.fields.map((f, i) => f !== null && f.p >= REQUIRED_PRESENCE && !lost.includes(i));
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
        if (found === null || (this.memory.fields[i]?.same ?? -1) >= 0) continue;
        if (usual[i] !== null && this.placeOf(found[0], m.el) === usual[i]) {
          if (required[i]) held++;
        } else if (required[i]) inPlace = false;
        else off.push(i);
      }
      if (!inPlace || held * 2 < requiredCount) continue;
      // An optional field found off its place (taking something else there) is null, with the fields that follow it.
      this.compiled.fields.forEach((_, j) => {
        const same = this.memory.fields[j]?.same ?? -1;
        if (!off.includes(j) && !(same >= 0 && off.includes(same))) return;
        m.match.elements[j] = null;
        m.match.sims[j] = 0;
        m.match.sources[j] = null;
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
  private lostFields(matches: readonly RecordMatch[]): number[] {
    const lost: number[] = [];
    if (matches.length === 0) return lost;
    this.memory.fields.forEach((mem, i) => {
      if (mem === null || mem.p < REQUIRED_PRESENCE) return;
      const found = matches.filter((m) => m.elements[i] !== null).length;
      if (found < matches.length * mem.p * REQUIRED_FIELD_SHARE) lost.push(i);
    });
    return lost;
  }

  /** The record's field score (weighted by presence) leaving out the given fields. */
  private fieldScoreWithout(match: RecordMatch, left: readonly number[]): number {
    let weighted = 0;
    let weights = 0;
    this.memory.fields.forEach((mem, i) => {
      if (mem === null || mem.p === 0 || left.includes(i)) return;
      const weight = fieldWeight(mem.p, match.sims[i] > 0);
      weighted += weight * match.sims[i];
      weights += weight;
    });
    return weights === 0 ? 0 : weighted / weights;
  }

  /** Same depth, tag and three ancestor tags: siblings of one list, or cards in rows. */
  private groupKey(el: DomElement): string {
    let key = `${this.features.depth(el)}|${el.name}`;
    let p = el.parent;
    for (let i = 0; i < 3 && p !== null && p.type !== 'root'; i++, p = p.parent) key += `|${p.name}`;
    return key;
  }
}

/** A record of the same markup matched before, and where each of its fields' elements sat in it. */
export interface TemplateHint {
  /** The record's descendants, in the order markupTemplate lists them. */
  elements: DomElement[];
  like: { match: RecordMatch; positions: number[] };
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

/** Where an element sits below its record: tag and classes of every step (siblings alike share a place). */
function classKey(el: DomElement): string {
  const value = el.attribs.class;
  if (typeof value !== 'string' || value === '') return '';
  if (!SPACE.test(value)) return value;
  return value.trim().split(WHITESPACE_RUN).sort().join('.');
}

const SPACE = /\s/;
const WHITESPACE_RUN = /\s+/;

export interface Relocation {
  records: { el: DomElement; match: RecordMatch; score: number }[];
  /** Mean score of the records kept; the best rejected score when none was. */
  confidence: number;
  /** Per field, the selector derived from the sampled records and tried first in every record (source 'selector'). */
  fieldSelectors: (string | null)[];
}

const NOT_RECORDS = new Set(['html', 'head', 'body', ...NOT_TEXT]);

/** The record's descendant elements in document order, script-like subtrees left out. */
function descendants(record: DomElement): DomElement[] {
  const out: DomElement[] = [];
  const stack: DomElement[] = [];
  for (let i = record.children.length - 1; i >= 0; i--) {
    const c = record.children[i];
    if (isElement(c)) stack.push(c);
  }
  while (stack.length > 0) {
    const el = stack.pop()!;
    if (NOT_TEXT.has(el.name)) continue;
    out.push(el);
    for (let i = el.children.length - 1; i >= 0; i--) {
      const c = el.children[i];
      if (isElement(c)) stack.push(c);
    }
  }
  return out;
}

/**
 * The assignment of elements to fields (each to at most one) maximizing the total similarity of the given pairs
 * beyond FIELD_THRESHOLD (Hungarian method on fields × elements, with one "nothing" column per field): a pair
 * adds only what it exceeds the threshold by, so two weak pairs never beat one clearly right one.
 */
function bestAssignment<T extends { field: number; el: DomElement; sim: number }>(fieldList: readonly number[], pairs: readonly T[]): Map<number, T> {
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

/**
 * A field's weight in a record's score: its presence when found; when not found, what its absence says against
 * the record, max(0, 2p - 1): a field every record had counts in full, one absent from a quarter of the records
 * half, one absent from half of them or more not at all.
 */
function fieldWeight(p: number, found: boolean): number {
  return found ? p : Math.max(0, 2 * p - 1);
}

/** Whether el is ancestor or self of e. */
function contains(el: DomElement, e: DomElement): boolean {
  for (let p: DomElement | null = e; p !== null; p = p.parent as DomElement | null) {
    if (p === el) return true;
    if (p.parent === null || p.parent.type === 'root') return false;
  }
  return false;
}

const WHITESPACE = /\s+/g;

function squash(text: string): string {
  return text.replace(WHITESPACE, '');
}

function nonNull<T>(x: T | null): T[] {
  return x === null ? [] : [x];
}
