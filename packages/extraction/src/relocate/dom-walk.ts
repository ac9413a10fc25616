import { isElement, type DomElement } from '@trawl/content';
import { NOT_TEXT } from '../text.ts';

/** The record's descendant elements in document order, script-like subtrees left out. */
export function descendants(record: DomElement): DomElement[] {
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

/** Whether el is ancestor or self of e. */
export function contains(el: DomElement, e: DomElement): boolean {
  let p = e;
  while (p !== el) {
    if (p.parent === null || p.parent.type === 'root') return false;
    p = p.parent;
  }
  return true;
}

/** An element's classes, sorted and joined by dots: one step of a place below a record (FieldOracle.placeOf). */
export function classKey(el: DomElement): string {
  const value = el.attribs.class;
  if (typeof value !== 'string' || value === '') return '';
  if (!SPACE.test(value)) return value;
  return value.trim().split(WHITESPACE_RUN).sort().join('.');
}

const SPACE = /\s/;
const WHITESPACE_RUN = /\s+/;
