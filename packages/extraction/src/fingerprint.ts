import { isElement, type DomDocument, type DomElement } from '@trawl/content';
import { bucket, elementText, NOT_TEXT, textShape, wordCount } from './text.ts';

// Structural fingerprints of elements and how similar two are. A fingerprint holds markup shape only: tag,
// attribute names, class tokens and a few stable attribute values, where the element sits (ancestor tags,
// sibling position) and what it holds (child tags, sizes), and of its text nothing but a 12-character shape
// signature ("$9.9") and the orders of magnitude of its length and word count.

/** Short keys: fingerprints are stored (memory is bounded in bytes). */
export interface Fingerprint {
  /** Tag name. */
  t: string;
  /** Attribute names, sorted; not class or style, none with a digit (generated names churn), at most 10. */
  a: string[];
  /** Class tokens without digits, at most 6. */
  c: string[];
  /** Stable attribute values as name=value (itemprop, role, type...), at most 4. */
  s: string[];
  /**
   * Values of data- attributes that name a thing (identifier-like: letters, '-' and '_', such as a test or hook
   * name) as name=value, at most 4. In memory, only those every sampled element of its target carried: a value
   * that varies between records (a category) says nothing about which element it is.
   */
  v: string[];
  /** Text shape (textShape), '' for records. */
  x: string;
  /** bucket() of the text length. */
  l: number;
  /** bucket() of the word count, 0 for records. */
  w: number;
  /** Ancestor tags, nearest first, at most 3 (for a field: only those below the record). */
  p: string[];
  /** Depth below the record (fields), 0 for records. */
  d: number;
  /** Index among element siblings, capped at 3 (0 for records: they are repeated siblings). */
  i: number;
  /** 1 when the last element sibling (0 for records). */
  e: number;
  /** bucket() of the number of element siblings with the same tag (self included). */
  n: number;
  /** bucket() of the number of element children. */
  k: number;
  /** Child element tags, unique, sorted, at most 8. */
  h: string[];
  /** bucket() of the number of descendant elements. */
  z: number;
}

export const FINGERPRINT_LIMITS = { attributes: 10, classes: 6, stable: 4, named: 4, ancestors: 3, childTags: 8, token: 40, stableValue: 60, shape: 12 } as const;

/** Depth below the record is counted up to this (deeper is as deep). */
const MAX_FIELD_DEPTH = 8;
const STABLE_ATTRIBUTES = new Set(['itemprop', 'itemtype', 'role', 'rel', 'type', 'name', 'property', 'scope']);
const SPACES = /\s+/;
const HAS_DIGIT = /\d/;
/** A data- attribute value that names what the element is (data-testid="title", data-hook="review-body"). */
const NAMING_VALUE = /^[A-Za-z][A-Za-z_-]*$/;

/**
 * Per-element figures, computed lazily (learning touches a few records) or for the whole page in one pass
 * (relocation scores every element), and element text, memoized. Figures live in parallel arrays indexed by a
 * slot per element, so a page of thousands of elements costs no object per element.
 */
export class PageFeatures {
  private readonly slots = new Map<DomElement, number>();
  /** Depth below the document, -1 until known. */
  private readonly depths: number[] = [];
  /** Descendant elements, -1 until known. */
  private readonly subtrees: number[] = [];
  /** Length of the descendant text (script-like text not counted), -1 until known. */
  private readonly textLengths: number[] = [];
  private readonly childCounts: number[] = [];
  private readonly siblingIndexes: number[] = [];
  private readonly lasts: boolean[] = [];
  private readonly sameTags: number[] = [];
  /** Unique sorted child element tags, null until asked for. */
  private readonly childTagLists: (string[] | null)[] = [];
  private readonly texts = new Map<DomElement, string>();

  text(el: DomElement): string {
    let text = this.texts.get(el);
    if (text === undefined) {
      text = elementText(el);
      this.texts.set(el, text);
    }
    return text;
  }

  /** Every element of the page in document order, with depth and sizes of all of them computed in one pass. */
  indexAll(root: DomDocument): DomElement[] {
    const order: DomElement[] = [];
    const parents: number[] = [];
    const depths: number[] = [];
    const textLength: number[] = [];
    // Pending elements with their parent's index, as parallel stacks (no per-element allocation).
    const stackEl: DomElement[] = [];
    const stackParent: number[] = [];
    const pushChildren = (children: DomElement['children'], parent: number) => {
      this.siblingsOf(children);
      for (let i = children.length - 1; i >= 0; i--) {
        const child = children[i];
        if (isElement(child)) {
          stackEl.push(child);
          stackParent.push(parent);
        }
      }
    };
    pushChildren(root.children, -1);
    while (stackEl.length > 0) {
      const el = stackEl.pop()!;
      const parent = stackParent.pop()!;
      const index = order.length;
      order.push(el);
      parents.push(parent);
      depths.push(parent < 0 ? 1 : depths[parent] + 1);
      let own = 0;
      if (!NOT_TEXT.has(el.name)) for (const child of el.children) if (child.type === 'text') own += child.data.trim().length;
      textLength.push(own);
      pushChildren(el.children, index);
    }
    const subtree = new Array<number>(order.length).fill(0);
    for (let i = order.length - 1; i >= 0; i--) {
      const p = parents[i];
      if (p < 0) continue;
      subtree[p] += subtree[i] + 1;
      if (!NOT_TEXT.has(order[i].name)) textLength[p] += textLength[i];
    }
    for (let i = 0; i < order.length; i++) {
      const slot = this.slots.get(order[i])!;
      this.depths[slot] = depths[i];
      this.subtrees[slot] = subtree[i];
      this.textLengths[slot] = NOT_TEXT.has(order[i].name) ? 0 : textLength[i];
    }
    return order;
  }

  /** Slots, with sibling figures, for one parent's element children. */
  private siblingsOf(children: DomElement['children']): void {
    let count = 0;
    let uniform = true;
    let firstTag: string | null = null;
    for (const child of children) {
      if (!isElement(child)) continue;
      count++;
      if (firstTag === null) firstTag = child.name;
      else if (child.name !== firstTag) uniform = false;
    }
    let tagCounts: Map<string, number> | null = null;
    if (!uniform) {
      tagCounts = new Map();
      for (const child of children) if (isElement(child)) tagCounts.set(child.name, (tagCounts.get(child.name) ?? 0) + 1);
    }
    let index = 0;
    for (const child of children) {
      if (!isElement(child)) continue;
      if (!this.slots.has(child)) {
        const slot = this.depths.length;
        this.slots.set(child, slot);
        let childCount = 0;
        for (const c of child.children) if (isElement(c)) childCount++;
        this.depths.push(-1);
        this.subtrees.push(-1);
        this.textLengths.push(-1);
        this.childCounts.push(childCount);
        this.siblingIndexes.push(index);
        this.lasts.push(index === count - 1);
        this.sameTags.push(tagCounts === null ? count : tagCounts.get(child.name)!);
        this.childTagLists.push(null);
      }
      index++;
    }
  }

  /** The element's slot, its sibling figures known. */
  private slotOf(el: DomElement): number {
    let slot = this.slots.get(el);
    if (slot === undefined) {
      this.siblingsOf(el.parent === null ? [el] : el.parent.children);
      slot = this.slots.get(el)!;
    }
    return slot;
  }

  /** The element's slot, its depth and sizes known too. */
  private measuredSlot(el: DomElement): number {
    const slot = this.slotOf(el);
    if (this.depths[slot] >= 0) return slot;
    let depth = 0;
    for (let p = el.parent; p !== null; p = p.parent) depth++;
    let subtree = 0;
    let textLength = 0;
    const stack: DomElement['children'][number][] = [];
    const counted: boolean[] = [];
    const inText = !NOT_TEXT.has(el.name);
    for (const c of el.children) {
      stack.push(c);
      counted.push(inText);
    }
    while (stack.length > 0) {
      const node = stack.pop()!;
      const isCounted = counted.pop()!;
      if (node.type === 'text') {
        if (isCounted) textLength += node.data.trim().length;
      } else if (isElement(node)) {
        subtree++;
        const childCounted = isCounted && !NOT_TEXT.has(node.name);
        for (const c of node.children) {
          stack.push(c);
          counted.push(childCounted);
        }
      }
    }
    this.depths[slot] = depth;
    this.subtrees[slot] = subtree;
    this.textLengths[slot] = inText ? textLength : 0;
    return slot;
  }

  depth(el: DomElement): number {
    return this.depths[this.measuredSlot(el)];
  }

  subtree(el: DomElement): number {
    return this.subtrees[this.measuredSlot(el)];
  }

  private childTags(el: DomElement, slot: number): string[] {
    let tags = this.childTagLists[slot];
    if (tags === null) {
      tags = [];
      for (const c of el.children) if (isElement(c) && !tags.includes(c.name)) tags.push(c.name);
      tags = tags.sort().slice(0, FINGERPRINT_LIMITS.childTags);
      this.childTagLists[slot] = tags;
    }
    return tags;
  }

  /**
   * Fingerprint of an element as a record (what the base selector matched). Records are repeated siblings, so
   * their position among siblings is not part of it.
   */
  recordFingerprint(el: DomElement): Fingerprint {
    const slot = this.measuredSlot(el);
    const ancestors: string[] = [];
    for (let p = el.parent; p !== null && p.type !== 'root' && ancestors.length < FINGERPRINT_LIMITS.ancestors; p = p.parent) ancestors.push(p.name);
    const m = markup(el);
    return {
      t: m.t,
      a: m.a,
      c: m.c,
      s: m.s,
      v: m.v,
      x: '',
      l: bucket(this.textLengths[slot]),
      w: 0,
      p: ancestors,
      d: 0,
      i: 0,
      e: 0,
      n: bucket(this.sameTags[slot]),
      k: bucket(this.childCounts[slot]),
      h: this.childTags(el, slot),
      z: bucket(this.subtrees[slot]),
    };
  }

  /** Fingerprint of an element as a field inside record. */
  fieldFingerprint(el: DomElement, record: DomElement): Fingerprint {
    const slot = this.measuredSlot(el);
    const text = this.text(el);
    const ancestors: string[] = [];
    let depth = 1;
    for (let p = el.parent; p !== null && p !== record && p.type !== 'root' && depth < MAX_FIELD_DEPTH; p = p.parent) {
      if (ancestors.length < FINGERPRINT_LIMITS.ancestors) ancestors.push(p.name);
      depth++;
    }
    const m = markup(el);
    return {
      t: m.t,
      a: m.a,
      c: m.c,
      s: m.s,
      v: m.v,
      x: textShape(text),
      l: bucket(text.length),
      w: bucket(wordCount(text)),
      p: ancestors,
      d: depth,
      i: Math.min(3, this.siblingIndexes[slot]),
      e: this.lasts[slot] ? 1 : 0,
      n: bucket(this.sameTags[slot]),
      k: bucket(this.childCounts[slot]),
      h: this.childTags(el, slot),
      z: bucket(this.subtrees[slot]),
    };
  }
}

const NO_STRINGS: string[] = [];

function markup(el: DomElement): Pick<Fingerprint, 't' | 'a' | 'c' | 's' | 'v'> {
  let names: string[] = NO_STRINGS;
  let stable: string[] = NO_STRINGS;
  let named: string[] = NO_STRINGS;
  const attribs = el.attribs;
  for (const name in attribs) {
    if (name === 'class' || name === 'style' || name.length > FINGERPRINT_LIMITS.token || HAS_DIGIT.test(name)) continue;
    if (names === NO_STRINGS) names = [];
    if (names.length < FINGERPRINT_LIMITS.attributes) names.push(name);
    if (STABLE_ATTRIBUTES.has(name) && stable.length < FINGERPRINT_LIMITS.stable) {
      const value = attribs[name];
      if (value.length <= FINGERPRINT_LIMITS.stableValue) {
        if (stable === NO_STRINGS) stable = [];
        stable.push(`${name}=${value.trim().toLowerCase().slice(0, FINGERPRINT_LIMITS.stableValue)}`);
      }
    }
    if (name.startsWith('data-') && named.length < FINGERPRINT_LIMITS.named) {
      const value = attribs[name];
      if (value.length <= FINGERPRINT_LIMITS.token && NAMING_VALUE.test(value)) {
        if (named === NO_STRINGS) named = [];
        named.push(`${name}=${value}`);
      }
    }
  }
  if (names.length > 1) names.sort();
  if (stable.length > 1) stable.sort();
  if (named.length > 1) named.sort();
  return { t: el.name, a: names, c: classTokens(el), s: stable, v: named };
}

export function classTokens(el: DomElement): string[] {
  const value = el.attribs.class;
  if (typeof value !== 'string' || value === '' || !Object.hasOwn(el.attribs, 'class')) return NO_STRINGS;
  const tokens: string[] = [];
  for (const token of value.split(SPACES)) {
    if (token === '' || token.length > FINGERPRINT_LIMITS.token || HAS_DIGIT.test(token) || tokens.includes(token)) continue;
    tokens.push(token);
    if (tokens.length >= FINGERPRINT_LIMITS.classes) break;
  }
  return tokens.length > 1 ? tokens.sort() : tokens;
}

// Tag families: a redesign swaps tags within a family (div → section/article/li, b → strong).
const FAMILY: Record<string, string> = {};
const family = (name: string, tags: string) => tags.split(' ').forEach((t) => (FAMILY[t] = name));
family('box', 'div section article li main aside header footer figure dd details blockquote nav');
family('row', 'tr');
family('cell', 'td th');
family('inline', 'span b strong em i small mark label font ins del s u sup sub bdi data cite q abbr code kbd var');
family('heading', 'h1 h2 h3 h4 h5 h6 dt legend caption figcaption summary');
family('para', 'p');
family('media', 'img picture source video audio svg');
family('list', 'ul ol dl menu');
family('table', 'table tbody thead tfoot');
const CONTAINERS = new Set(['box', 'row', 'cell', 'list', 'table']);

function tagSimilarity(a: string, b: string): number {
  if (a === b) return 1;
  const fa = FAMILY[a];
  const fb = FAMILY[b];
  if (fa === undefined || fb === undefined) return 0;
  if (fa === fb) return 0.6;
  // Text-bearing families are close to each other too (a heading restyled as a paragraph).
  if (CONTAINERS.has(fa) && CONTAINERS.has(fb)) return 0.3;
  if ((fa === 'heading' || fa === 'para' || fa === 'inline') && (fb === 'heading' || fb === 'para' || fb === 'inline')) return 0.3;
  return 0;
}

function jaccard(a: readonly string[], b: readonly string[]): number {
  if (a.length === 0 && b.length === 0) return 1;
  let common = 0;
  for (const x of a) if (b.includes(x)) common++;
  return common / (a.length + b.length - common);
}

function closeness(a: number, b: number, span: number): number {
  const d = Math.abs(a - b);
  return d >= span ? 0 : 1 - d / span;
}

function pathSimilarity(a: readonly string[], b: readonly string[]): number {
  const n = Math.max(a.length, b.length);
  if (n === 0) return 1;
  let sum = 0;
  for (let i = 0; i < n; i++) if (i < a.length && i < b.length) sum += tagSimilarity(a[i], b[i]);
  return sum / n;
}

function shapeSimilarity(a: string, b: string): number {
  if (a === b) return 1;
  // Same kinds of characters (digits, letters, currency, percent) and the same first kind.
  let agree = 0;
  for (const kind of ['9', 'a', '$', '%']) if (a.includes(kind) === b.includes(kind)) agree++;
  if (a[0] === b[0]) agree++;
  return (agree / 5) * 0.7;
}

function textSimilarity(fp: Fingerprint, c: Fingerprint): number {
  if (fp.l === 0 || c.l === 0) return fp.l === c.l ? 1 : 0;
  return 0.5 * shapeSimilarity(fp.x, c.x) + 0.3 * closeness(fp.l, c.l, 3) + 0.2 * closeness(fp.w, c.w, 3);
}

function childrenSimilarity(fp: Fingerprint, c: Fingerprint): number {
  return 0.35 * closeness(fp.k, c.k, 2) + 0.4 * jaccard(fp.h, c.h) + 0.25 * closeness(fp.z, c.z, 2);
}

function positionSimilarity(fp: Fingerprint, c: Fingerprint): number {
  return (fp.i === c.i ? 0.6 : 0) + (fp.e === c.e ? 0.4 : 0);
}

/** A text leaf restyled under another tag (li → span, time → span, dd → span, a → span, div → p) keeps this much. */
const LEAF_TAG_SIMILARITY = 0.5;

/**
 * Tags of field elements: two leaves holding text (no element children) are the same kind of thing whatever
 * their tags, since a redesign picks the tag of a text leaf for its styling; the rest of the fingerprint decides.
 */
function fieldTagSimilarity(fp: Fingerprint, c: Fingerprint): number {
  const tags = tagSimilarity(fp.t, c.t);
  if (tags >= LEAF_TAG_SIMILARITY || !isTextLeaf(fp) || !isTextLeaf(c)) return tags;
  return LEAF_TAG_SIMILARITY;
}

/** Element children that only decorate a text (an icon, a line break, a superscript unit such as "m²"). */
const DECORATION_TAGS = new Set(['svg', 'img', 'picture', 'br', 'wbr', 'sup', 'sub']);

/** An element holding text whose element children, if any, only decorate it ("<li><svg/> 2 bd</li>"). */
function isTextLeaf(fp: Fingerprint): boolean {
  return fp.l !== 0 && fp.h.every((tag) => DECORATION_TAGS.has(tag));
}

/** Weight of the naming data- values memory kept (nothing when it kept none). */
const NAMED_WEIGHT = 1.5;

/**
 * Share of the remembered element's naming data- values (fp.v, memory side) the candidate carries too. One-sided:
 * a candidate's own values count for nothing when memory kept none (they may vary per record).
 */
function namedShare(fp: Fingerprint, c: Fingerprint): number {
  if (fp.v.length === 0) return 0;
  let common = 0;
  for (const x of fp.v) if (c.v.includes(x)) common++;
  return common / fp.v.length;
}

/** How much a field candidate resembles a remembered field element (fp: memory's, c: the candidate's), 0..1. */
export function fieldSimilarity(fp: Fingerprint, c: Fingerprint): number {
  const stableWeight = fp.s.length > 0 || c.s.length > 0 ? 1.5 : 0;
  const classWeight = fp.c.length > 0 || c.c.length > 0 ? 0.75 : 0;
  const namedWeight = fp.v.length > 0 ? NAMED_WEIGHT : 0;
  const total = 2.5 + 1 + classWeight + stableWeight + namedWeight + 3 + 1 + 1 + 0.5;
  const sum =
    namedWeight * namedShare(fp, c) +
    2.5 * fieldTagSimilarity(fp, c) +
    1 * jaccard(fp.a, c.a) +
    classWeight * jaccard(fp.c, c.c) +
    stableWeight * jaccard(fp.s, c.s) +
    3 * textSimilarity(fp, c) +
    1 * (0.6 * pathSimilarity(fp.p, c.p) + 0.4 * closeness(fp.d, c.d, 3)) +
    1 * childrenSimilarity(fp, c) +
    0.5 * positionSimilarity(fp, c);
  return sum / total;
}

/** Multiplies the similarity of a text-valued field whose text is of another kind (see textKindAgrees). */
export const TEXT_KIND_PENALTY = 0.75;

/**
 * Whether two texts are of the same kind: both empty or both not, and when either is short (up to 3 words: a
 * price, a rating, a date, a label) digits and currency symbols present in both or in neither. Leaf elements of a
 * card look alike structurally; for a field whose value is text, "$89.99" and "Advertisement" must not. In prose
 * a digit is incidental, so longer texts only need to agree on being empty.
 */
export function textKindAgrees(fp: Fingerprint, c: Fingerprint): boolean {
  if ((fp.l === 0) !== (c.l === 0)) return false;
  // A text of symbols alone (a "·" separator, a "•" bullet) is never a value of a field that had words or numbers.
  if (hasWordOrNumber(fp.x) !== hasWordOrNumber(c.x)) return false;
  if (fp.w > 2 && c.w > 2) return true;
  return fp.x.includes('9') === c.x.includes('9') && fp.x.includes('$') === c.x.includes('$');
}

function hasWordOrNumber(shape: string): boolean {
  return shape.includes('a') || shape.includes('9');
}

/** How much a record candidate resembles a remembered record element, 0..1 (structure only, no text shape). */
export function recordSimilarity(fp: Fingerprint, c: Fingerprint): number {
  const stableWeight = fp.s.length > 0 || c.s.length > 0 ? 1.5 : 0;
  const classWeight = fp.c.length > 0 || c.c.length > 0 ? 0.75 : 0;
  const namedWeight = fp.v.length > 0 ? NAMED_WEIGHT : 0;
  const total = 1.5 + 0.75 + classWeight + stableWeight + namedWeight + 1 + 0.5 + 3 + 1;
  const sum =
    namedWeight * namedShare(fp, c) +
    1.5 * tagSimilarity(fp.t, c.t) +
    0.75 * jaccard(fp.a, c.a) +
    classWeight * jaccard(fp.c, c.c) +
    stableWeight * jaccard(fp.s, c.s) +
    1 * closeness(fp.l, c.l, 3) +
    0.5 * pathSimilarity(fp.p, c.p) +
    3 * childrenSimilarity(fp, c) +
    1 * closeness(fp.n, c.n, 3);
  return sum / total;
}

/** The best similarity to any of the remembered samples. */
export function bestSimilarity(samples: readonly Fingerprint[], c: Fingerprint, similarity: (fp: Fingerprint, c: Fingerprint) => number): number {
  let best = 0;
  for (const fp of samples) {
    const s = similarity(fp, c);
    if (s > best) best = s;
  }
  return best;
}
