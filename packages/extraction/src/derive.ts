import type { DomDocument, DomElement } from '@trawl/content';
import { compileSelector, selectAllIn, selectFirstIn, selectorProblem, selectorText, type CompiledSelector, type SimpleSelector } from './css-engine.ts';
import { EXTRACTION_LIMITS } from '@trawl/contract';

// Selectors derived from a relocation, so that the next pages of the redesigned site are extracted by selector
// instead of by similarity search. A derived selector is kept only if it selects exactly what the relocation
// found on this page.

/** A selector for exactly these records (document order), or null. */
export function deriveRecordSelector(root: DomDocument, records: readonly DomElement[]): string | null {
  if (records.length === 0) return null;
  const own = commonStep(records);
  const parents = records.map((r) => r.parent).filter((p): p is DomElement => p !== null && p.type !== 'root');
  const parent = parents.length === records.length ? commonStep(parents) : null;
  const candidates: string[] = [];
  const add = (steps: SimpleSelector[]) => candidates.push(selectorText(steps, 'child'));
  if (own.classes.length > 0) add([own]);
  for (const cls of own.classes) add([{ ...own, classes: [cls] }]);
  if (own.attributes.length > 0) add([{ ...own, classes: [] }]);
  if (parent !== null && (parent.classes.length > 0 || parent.attributes.length > 0)) {
    add([parent, { ...own, attributes: [] }]);
    add([parent, { tag: own.tag, classes: [], attributes: [] }]);
  }
  if (own.tag !== null) add([{ tag: own.tag, classes: [], attributes: [] }]);
  for (const text of candidates) {
    const selector = usable(text);
    if (selector !== null && sameElements(selectAllIn(selector, root), records)) return text;
  }
  return null;
}

/**
 * A selector that, inside each record, finds exactly the element (or all elements, for a list) the relocation
 * took, and nothing where it took nothing; or null.
 */
export function deriveFieldSelector(records: readonly DomElement[], found: readonly (readonly DomElement[] | null)[], list: boolean): string | null {
  const taken = found.flatMap((f) => (f === null ? [] : f));
  if (taken.length === 0) return null;
  const own = commonStep(taken);
  const parents = taken.map((el) => el.parent).filter((p): p is DomElement => p !== null && p.type !== 'root');
  const parent = parents.length === taken.length ? commonStep(parents) : null;
  const texts: string[] = [];
  if (own.classes.length > 0) texts.push(selectorText([{ ...own, attributes: [] }], 'child'));
  for (const cls of own.classes) texts.push(selectorText([{ tag: own.tag, classes: [cls], attributes: [] }], 'child'));
  if (own.attributes.length > 0) texts.push(selectorText([{ ...own, classes: [] }], 'child'));
  if (parent !== null) {
    texts.push(selectorText([{ ...parent, attributes: [] }, { tag: own.tag, classes: [], attributes: [] }], 'child'));
    if (own.classes.length > 0) texts.push(selectorText([{ ...parent, attributes: [] }, { ...own, attributes: [] }], 'child'));
  }
  if (own.tag !== null) texts.push(selectorText([{ tag: own.tag, classes: [], attributes: [] }], 'child'));
  for (const text of texts) {
    const selector = usable(text);
    if (selector === null) continue;
    const ok = records.every((record, r) => {
      const expected = found[r] ?? [];
      if (list) return sameElements(selectAllIn(selector, record), expected);
      const first = selectFirstIn(selector, record);
      return expected.length === 0 ? first === null : first === expected[0];
    });
    if (ok) return text;
  }
  return null;
}

/** Tag, classes and attributes (names; values when equal) that every element shares. */
function commonStep(elements: readonly DomElement[]): SimpleSelector {
  const first = elements[0];
  const tag = elements.every((el) => el.name === first.name) ? first.name : null;
  let classes = classList(first);
  for (const el of elements) {
    const own = classList(el);
    classes = classes.filter((c) => own.includes(c));
  }
  const attributes: [string, string | null][] = [];
  for (const name of Object.keys(first.attribs)) {
    if (name === 'class' || name === 'style' || name === 'id' || name === 'href' || name === 'src' || /\d/.test(name)) continue;
    if (!elements.every((el) => Object.hasOwn(el.attribs, name))) continue;
    const value = first.attribs[name];
    const sameValue = value.length <= 60 && elements.every((el) => el.attribs[name] === value);
    attributes.push([name, sameValue ? value : null]);
    if (attributes.length >= 2) break;
  }
  return { tag, classes: classes.slice(0, 3), attributes };
}

function classList(el: DomElement): string[] {
  const value = el.attribs.class;
  return typeof value === 'string' && Object.hasOwn(el.attribs, 'class') ? [...new Set(value.split(/\s+/).filter((c) => c !== ''))] : [];
}

function usable(text: string): CompiledSelector | null {
  if (text.length > EXTRACTION_LIMITS.selector_length || selectorProblem(text) !== null) return null;
  return compileSelector(text);
}

function sameElements(a: readonly DomElement[], b: readonly DomElement[]): boolean {
  return a.length === b.length && a.every((el, i) => el === b[i]);
}
