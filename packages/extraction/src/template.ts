import { parseTemplate, type TemplatePart } from '@trawl/contract';
import type { FieldValue } from './values.ts';

/** A list value inside a template: its items joined by this. */
export const LIST_JOINER = ', ';

/** The parts of a template checked by checkExtraction; throws on one that was not. */
export function compileTemplate(template: string): TemplatePart[] {
  const parsed = parseTemplate(template);
  if ('error' in parsed) throw new Error(`template ${parsed.error}`);
  return parsed.parts;
}

/** The template filled from a record's field values; null when any referenced field is null. */
export function renderTemplate(parts: readonly TemplatePart[], values: ReadonlyMap<string, FieldValue>): string | null {
  let out = '';
  for (const part of parts) {
    if ('literal' in part) {
      out += part.literal;
      continue;
    }
    const value = values.get(part.field);
    if (value === null || value === undefined) return null;
    out += typeof value === 'string' ? value : value.join(LIST_JOINER);
  }
  return out;
}
