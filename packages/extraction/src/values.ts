import type { DomElement } from '@trawl/content';
import { serializeInnerSanitized } from '@trawl/content';
import type { ExtractionFieldType, ExtractionTransform } from '@trawl/contract';
import { elementText } from './text.ts';

export type FieldValue = string | string[] | null;

/** What a field needs to turn its matched elements into a value. */
export interface ValueSpec {
  type: ExtractionFieldType;
  /** Lower-case attribute name, or null. */
  attribute: string | null;
  transform: ExtractionTransform | null;
}

/**
 * A field's value from the elements it matched (only the first counts unless the type is list): null when nothing
 * matched, when an `attribute` field's element lacks the attribute, or when `absolute_url` cannot resolve. A list
 * keeps the matches that give a value (elements without the attribute, unresolvable URLs are left out) and is null
 * when none does.
 */
export function fieldValue(spec: ValueSpec, elements: readonly DomElement[], pageUrl: string, text: (el: DomElement) => string = elementText): FieldValue {
  if (elements.length === 0) return null;
  if (spec.type !== 'list') return singleValue(spec, elements[0], pageUrl, text);
  const values: string[] = [];
  for (const el of elements) {
    const raw = spec.attribute === null ? text(el) : attributeOf(el, spec.attribute);
    const value = raw === null ? null : transform(spec.transform, raw, pageUrl);
    if (value !== null) values.push(value);
  }
  return values.length > 0 ? values : null;
}

export function singleValue(spec: ValueSpec, el: DomElement, pageUrl: string, text: (el: DomElement) => string = elementText): string | null {
  let raw: string | null;
  if (spec.type === 'attribute') raw = spec.attribute === null ? null : attributeOf(el, spec.attribute);
  else if (spec.type === 'html') raw = serializeInnerSanitized(el, pageUrl);
  else raw = text(el);
  return raw === null ? null : transform(spec.transform, raw, pageUrl);
}

export function attributeOf(el: DomElement, name: string): string | null {
  return Object.hasOwn(el.attribs, name) ? el.attribs[name] : null;
}

export function transform(kind: ExtractionTransform | null, value: string, pageUrl: string): string | null {
  switch (kind) {
    case null:
      return value;
    case 'strip':
      return value.trim();
    case 'lowercase':
      return value.toLowerCase();
    case 'uppercase':
      return value.toUpperCase();
    case 'absolute_url':
      return absoluteUrl(value, pageUrl);
  }
}

function absoluteUrl(value: string, pageUrl: string): string | null {
  const trimmed = value.trim();
  if (trimmed === '') return null;
  try {
    return new URL(trimmed, pageUrl).href;
  } catch {
    return null;
  }
}
