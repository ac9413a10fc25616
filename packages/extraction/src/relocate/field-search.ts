import type { DomElement } from '@trawl/content';
import { selectAllIn, selectFirstIn } from '../css-engine.ts';
import { textShape } from '../text.ts';
import { attributeOf } from '../values.ts';
import { bestAssignment } from './best-assignment.ts';
import { contains, descendants } from './dom-walk.ts';
import type { FieldOracle } from './field-oracle.ts';
import { fieldWeight, type FieldPlan, type FieldSource, type RecordMatch, type TemplateHint } from './record-match.ts';
import { CONSTANT_MIN_RECORDS, FIELD_MARGIN, FIELD_THRESHOLD } from './thresholds.ts';

/** A schema selector's match inside a relocated record is kept when this close below FIELD_THRESHOLD. */
const SELECTOR_ALLOWANCE = 0.1;

/** Finding the fields of one record: by selector where the plan has one, by similarity search for the rest. */
export class FieldSearch {
  /** The winning group's members once it is chosen, and (built on first need) how many hold each text at a place. */
  private chromeGroup: readonly DomElement[] | null = null;
  private chrome: { counts: Map<string, number>; min: number } | null = null;

  constructor(private readonly oracle: FieldOracle) {}

  /** The records whose common texts are page chrome from now on (the winning group of relocateRecords). */
  setChromeGroup(group: readonly DomElement[]): void {
    this.chromeGroup = group;
    this.chrome = null;
  }

  /**
   * The fields of one record, by selector where the plan says so and by similarity search for the rest. With a
   * template (a record of the same markup already matched), a selector taking the element at the same place
   * takes its similarity too, and a field that record did not have is not searched for.
   */
  matchRecord(record: DomElement, plans: readonly FieldPlan[], template?: TemplateHint): RecordMatch {
    const { fields } = this.oracle.compiled;
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
      const mem = this.oracle.memory.fields[i];
      const schemaSelector = plan.selector === fields[i].selector;
      let sim = 1;
      const known = template?.like.positions[i];
      if (known !== undefined && known >= 0 && template!.elements[known] === found[0] && template!.like.match.sources[i] !== 'search') {
        sim = template!.like.match.sims[i];
      } else if (!plan.trusted && mem !== null) {
        // The schema's own selector still matching is evidence in itself; a derived one must pass on similarity.
        const allowance = schemaSelector ? SELECTOR_ALLOWANCE : 0;
        sim = this.oracle.fieldSim(i, found[0], record);
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
      const mem = this.oracle.memory.fields[i];
      if (elements[i] !== null && (mem === null || mem.same === -1)) for (const el of elements[i]!) claimed.add(el);
    });

    const searching: number[] = [];
    plans.forEach((plan, i) => {
      const mem = this.oracle.memory.fields[i];
      if (template !== undefined && template.like.match.elements[i] === null) return;
      if (elements[i] === null && plan.search && mem !== null && mem.same === -1) searching.push(i);
    });
    if (searching.length > 0) this.search(record, searching, elements, sims, sources, claimed);
    this.unwrap(elements, sources);

    // A field that matched the same element as an earlier one (a link's text and its href) follows it.
    plans.forEach((plan, i) => {
      const mem = this.oracle.memory.fields[i];
      if (elements[i] !== null || !plan.search || mem === null || mem.same < 0) return;
      const partner = elements[mem.same];
      if (partner === null) return;
      const el = partner[0];
      const spec = fields[i];
      if (spec.attribute !== null && attributeOf(el, spec.attribute) === null) return;
      const sim = this.oracle.fieldSim(i, el, record);
      if (sim < FIELD_THRESHOLD) return;
      elements[i] = spec.type === 'list' ? partner : [el];
      sims[i] = sim;
      sources[i] = 'same';
    });

    let weighted = 0;
    let weights = 0;
    plans.forEach((plan, i) => {
      const mem = this.oracle.memory.fields[i];
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
    const { fields } = this.oracle.compiled;
    fields.forEach((field, i) => {
      const found = elements[i];
      if (found === null || field.type !== 'text' || field.attribute !== null || sources[i] === 'schema') return;
      const el = found[0];
      const inner: DomElement[] = [];
      fields.forEach((other, j) => {
        const theirs = elements[j];
        if (j === i || theirs === null || other.attribute !== null || other.type === 'attribute') return;
        for (const e of theirs) if (e !== el && contains(el, e) && this.oracle.features.text(e) !== '') inner.push(e);
      });
      if (inner.length === 0) return;
      // Only where memory says so: the wrapper's text is of no remembered shape, and its own part is of one.
      const shapes = this.oracle.memory.fields[i]?.fp.map((fp) => fp.x) ?? [];
      let text = this.oracle.features.text(el);
      if (shapes.includes(textShape(text))) return;
      for (const e of inner) text = text.replace(this.oracle.features.text(e), ' ');
      text = text.replace(WHITESPACE, ' ').trim();
      if (!shapes.includes(textShape(text))) return;
      const rest = squash(text);
      let own: DomElement | null = null;
      if (rest !== '') {
        for (const d of descendants(el)) {
          if (inner.some((e) => contains(d, e)) || squash(this.oracle.features.text(d)) !== rest) continue;
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
    const attribute = this.oracle.compiled.fields[i].attribute;
    const value = this.oracle.valueKey(i, el);
    for (const other of descendants(record)) {
      if (other === el || (attribute !== null && attributeOf(other, attribute) === null)) continue;
      if (this.oracle.fieldSim(i, other, record) - sim < FIELD_MARGIN) continue;
      if (this.oracle.valueKey(i, other) !== value) return true;
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
    const { fields } = this.oracle.compiled;
    const candidates = descendants(record);
    const floor = FIELD_THRESHOLD - FIELD_MARGIN;
    const pairs: { field: number; el: DomElement; sim: number }[] = [];
    for (const i of searching) {
      const attribute = fields[i].attribute;
      for (const el of candidates) {
        if (claimed.has(el)) continue;
        if (attribute !== null && attributeOf(el, attribute) === null) continue;
        const sim = this.oracle.fieldSim(i, el, record);
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
      const value = this.oracle.valueKey(field, el);
      const isList = fields[field].type === 'list';
      let rival = 0;
      for (const pair of pairs) {
        if (pair.field !== field || pair.el === el || pair.sim <= rival) continue;
        if (taken.has(pair.el) || (listItems.has(pair.el) && !isList)) continue; // another field's element
        if (isList && pair.el.name === el.name && pair.el.parent === el.parent) continue; // a list-mate
        if (this.oracle.valueKey(field, pair.el) === value) continue; // same value: no ambiguity
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
        const text = this.oracle.features.text(el);
        if (text === '') continue;
        const key = `${this.oracle.placeOf(el, record)}\u0000${text}`;
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
    const text = this.oracle.features.text(el);
    return text !== '' && (this.chrome.counts.get(`${this.oracle.placeOf(el, record)}\u0000${text}`) ?? 0) >= this.chrome.min;
  }
}

const WHITESPACE = /\s+/g;

function squash(text: string): string {
  return text.replace(WHITESPACE, '');
}

function nonNull<T>(x: T | null): T[] {
  return x === null ? [] : [x];
}
