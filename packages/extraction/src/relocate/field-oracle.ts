import { isElement, type DomElement } from '@trawl/content';
import type { CompiledExtraction } from '../compile.ts';
import { bestSimilarity, fieldSimilarity, recordSimilarity, TEXT_KIND_PENALTY, textKindAgrees, type Fingerprint, type PageFeatures } from '../fingerprint.ts';
import type { SelectorMemory } from '../memory.ts';
import { attributeOf } from '../values.ts';
import { classKey, descendants } from './dom-walk.ts';

/**
 * An attribute-valued field's element that is the only one of its record carrying that attribute (a data-rating,
 * a data-sku) closes this share of the gap between its similarity and 1: the attribute says what the value is.
 */
const SOLE_HOLDER_WEIGHT = 0.25;
/** Inline tags that may wrap a text leaf's whole text after a redesign (h2 > a, p > span). */
const TEXT_WRAPPER_TAGS = new Set(['a', 'span', 'strong', 'b', 'em']);
const HEADING = /^h[1-6]$/;

/**
 * What every phase of a relocation asks of one page: how similar an element is to a remembered field or record,
 * the value it gives a field, and its place below a record. Memoized per page: the phases ask about the same
 * elements many times.
 */
export class FieldOracle {
  private readonly fingerprints = new Map<DomElement, Map<DomElement, Fingerprint>>();
  private readonly holders = new Map<DomElement, Map<string, DomElement | null>>();
  private readonly recordSims = new Map<DomElement, number>();
  /** placeOf, memoized: an element's place below the record it was last asked for. */
  private readonly places = new Map<DomElement, { record: DomElement; place: string }>();

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

  valueKey(field: number, el: DomElement): string {
    const attribute = this.compiled.fields[field].attribute;
    return attribute !== null ? (attributeOf(el, attribute) ?? '') : this.features.text(el);
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
}
