import type { DomElement } from '@trawl/content';
import type { CompiledSelector } from '../css-engine.ts';

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

/** A record of the same markup matched before, and where each of its fields' elements sat in it. */
export interface TemplateHint {
  /** The record's descendants, in the order markupTemplate (record-groups.ts) lists them. */
  elements: DomElement[];
  like: { match: RecordMatch; positions: number[] };
}

export interface Relocation {
  records: { el: DomElement; match: RecordMatch; score: number }[];
  /** Mean score of the records kept; the best rejected score when none was. */
  confidence: number;
  /** Per field, the selector derived from the sampled records and tried first in every record (source 'selector'). */
  fieldSelectors: (string | null)[];
}

/**
 * A field's weight in a record's score: its presence when found; when not found, what its absence says against
 * the record, max(0, 2p - 1): a field every record had counts in full, one absent from a quarter of the records
 * half, one absent from half of them or more not at all.
 */
export function fieldWeight(p: number, found: boolean): number {
  return found ? p : Math.max(0, 2 * p - 1);
}

/** Empties field i of a match. */
export function clearField(match: RecordMatch, i: number): void {
  match.elements[i] = null;
  match.sims[i] = 0;
  match.sources[i] = null;
}
