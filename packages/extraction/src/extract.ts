import type { DomDocument, DomElement } from '@trawl/content';
import type { AdaptiveAction } from '@trawl/contract';
import type { CompiledExtraction } from './compile.ts';
import { compileSelector, selectAllIn, selectFirstIn, type CompiledSelector } from './css-engine.ts';
import { deriveFieldSelector, deriveRecordSelector } from './derive.ts';
import { PageFeatures } from './fingerprint.ts';
import { learnMemory } from './learn.ts';
import { SCHEMA_SELECTOR, type DerivedSelectors, type SelectorMemory } from './memory.ts';
import type { FieldPlan, RecordMatch } from './relocate/record-match.ts';
import { Relocator } from './relocate/relocator.ts';
import { CONFIDENCE_THRESHOLD, FIELD_MARGIN, FIELD_THRESHOLD, RECORD_THRESHOLD } from './relocate/thresholds.ts';
import { renderTemplate } from './template.ts';
import { fillFromUsualPlaces } from './usual-place.ts';
import { fieldValue, type FieldValue } from './values.ts';

export type ExtractedRecord = Record<string, string | string[] | null>;

export interface ExtractionOutcome {
  /** One per record in document order: every field (null when nothing matched), then every computed field. */
  records: ExtractedRecord[];
  /** Public-safe (diagnostics.adaptive_extraction): no selector, fingerprint or page text. */
  adaptive: { enabled: boolean; used: boolean; action: AdaptiveAction; confidence: number };
  /** Memory to store for the next pages of this schema; null when there is nothing new to write. */
  memory: SelectorMemory | null;
}

export interface ExtractOptions {
  /** The page's final URL (or its document base): absolute_url and html links resolve against it. */
  pageUrl: string;
  /** What parseSelectorMemory read back for this team, registrable domain and schemaKey; null when none. */
  memory: SelectorMemory | null;
  /** extraction.adaptive. */
  adaptive: boolean;
  /** Clock for memory age, ms since the epoch (tests); Date.now() by default. */
  now?: number;
}

/** Memory learned where the selectors match is refreshed (re-learned and returned) once it is this old. */
export const MEMORY_REFRESH_MS = 24 * 60 * 60 * 1000;
/** A field is relocated when it matches in no record although it was present in at least this share when learned. */
const RELOCATE_PRESENCE = 0.5;

type Selected = (DomElement[] | null)[];

/**
 * The records of a page. When the schema's selectors match, they decide alone (action `matched`) and memory is
 * learned from a few records when there is none or it is stale. When the base selector matches nothing (or a
 * field matches in no record) and memory exists, records and fields are relocated by similarity (`reused`), or
 * nothing is guessed below the confidence threshold (`low_confidence`: no records when the base was relocated,
 * the relocated fields null when only fields were).
 */
export function extractRecords(root: DomDocument, compiled: CompiledExtraction, options: ExtractOptions): ExtractionOutcome {
  const now = options.now ?? Date.now();
  const bases = selectAllIn(compiled.base, root);
  const selected = bases.map((record) => compiled.fields.map((field) => select(field.selector, record, field.type === 'list')));
  if (!options.adaptive) return outcome(buildRecords(compiled, bases, selected, options.pageUrl), false, 'disabled', 0, null);
  const memory = usable(options.memory, compiled) ? options.memory : null;
  if (bases.length > 0) return matchedPage(root, compiled, bases, selected, memory, options.pageUrl, now);
  if (memory === null) return outcome([], false, 'no_memory', 0, null);
  return relocatedPage(root, compiled, memory, options.pageUrl, now);
}

/** Memory of this schema's shape (one entry per field) that remembers at least one field element. */
function usable(memory: SelectorMemory | null, compiled: CompiledExtraction): memory is SelectorMemory {
  return memory !== null && memory.fields.length === compiled.fields.length && memory.fields.some((f) => f !== null && f.p > 0);
}

function matchedPage(
  root: DomDocument,
  compiled: CompiledExtraction,
  bases: DomElement[],
  selected: Selected[],
  memory: SelectorMemory | null,
  pageUrl: string,
  now: number,
): ExtractionOutcome {
  if (memory !== null) {
    const dead = compiled.fields
      .map((_, i) => i)
      .filter((i) => (memory.fields[i]?.p ?? 0) >= RELOCATE_PRESENCE && selected.every((s) => s[i] === null));
    if (dead.length > 0) return deadFieldsPage(root, compiled, bases, selected, memory, dead, pageUrl, now);
  }
  const records = buildRecords(compiled, bases, selected, pageUrl);
  const stale = memory === null || memory.src !== 'selectors' || now - memory.at > MEMORY_REFRESH_MS || now < memory.at;
  const next = stale ? learnMemory(new PageFeatures(), bases, selected, compiled.fields.length, 'selectors', null, now) : null;
  return outcome(records, false, 'matched', 1, next);
}

/** The base selector matched but some fields match in no record: those are relocated inside the records. */
function deadFieldsPage(
  root: DomDocument,
  compiled: CompiledExtraction,
  bases: DomElement[],
  selected: Selected[],
  memory: SelectorMemory,
  dead: number[],
  pageUrl: string,
  now: number,
): ExtractionOutcome {
  const features = new PageFeatures();
  // Figures of every element in one pass: the records are the schema's and may be big.
  features.indexAll(root);
  const relocator = new Relocator(compiled, memory, features);
  const plans: FieldPlan[] = compiled.fields.map((field, i) => {
    if (!dead.includes(i)) return { selector: field.selector, trusted: true, search: false };
    return { selector: derivedFieldSelector(memory.derived, i), trusted: false, search: true };
  });
  const matches = bases.map((record) => relocator.matchRecord(record, plans));
  // Values that are a neighbour's or page chrome are dropped before the confidence is computed.
  const records = bases.map((el, r) => ({ el, match: matches[r] }));
  relocator.dropNeighbourValues(records, dead);
  relocator.dropConstantValues(records);
  relocator.dropOffPlace(records, dead);
  fillFromUsualPlaces(relocator, records, FIELD_THRESHOLD, FIELD_MARGIN, dead);
  let confidence = 0;
  for (const i of dead) {
    const sims = matches.filter((m) => m.elements[i] !== null).map((m) => m.sims[i]);
    if (sims.length === 0) continue;
    const rate = sims.length / bases.length;
    confidence += (mean(sims) * Math.min(1, rate / memory.fields[i]!.p)) / dead.length;
  }
  if (confidence < CONFIDENCE_THRESHOLD) {
    return outcome(buildRecords(compiled, bases, selected, pageUrl), false, 'low_confidence', confidence, null);
  }
  const elements = matches.map((m) => m.elements);
  const built = buildRecords(compiled, bases, elements, pageUrl, features);
  const searched = dead.some((i) => matches.some((m) => m.sources[i] === 'search' || m.sources[i] === 'same'));
  let next: SelectorMemory | null = null;
  if (searched) {
    const derived: DerivedSelectors = {
      base: null,
      fields: compiled.fields.map((field, i) =>
        dead.includes(i) ? deriveFieldSelector(bases, elements.map((e) => e[i]), field.type === 'list') : SCHEMA_SELECTOR,
      ),
    };
    next = learnMemory(features, bases, elements, compiled.fields.length, 'relocated', derived, now);
  }
  return outcome(built, true, 'reused', confidence, next);
}

/** The base selector matched nothing: records from the derived selectors if they still hold, else by search. */
function relocatedPage(root: DomDocument, compiled: CompiledExtraction, memory: SelectorMemory, pageUrl: string, now: number): ExtractionOutcome {
  const features = new PageFeatures();
  const relocator = new Relocator(compiled, memory, features);
  const derivedBase = memory.derived?.base ?? null;
  const derivedSelector = derivedBase === null ? null : tryCompile(derivedBase);
  if (derivedSelector !== null) {
    const records = selectAllIn(derivedSelector, root);
    if (records.length > 0) {
      const plans = compiled.fields.map((field, i) => ({ selector: derivedFieldSelector(memory.derived, i) ?? field.selector, trusted: false, search: true }));
      const matches = records.map((record) => relocator.matchRecord(record, plans));
      relocator.dropConstantValues(records.map((el, r) => ({ el, match: matches[r] })));
      const scores = records.map((record, r) => 0.3 * relocator.recordSim(record) + 0.7 * matches[r].fieldScore);
      const confidence = mean(scores);
      if (scores.every((s) => s >= RECORD_THRESHOLD) && confidence >= CONFIDENCE_THRESHOLD) {
        return outcome(buildRecords(compiled, records, matches.map((m) => m.elements), pageUrl, features), true, 'reused', confidence, null);
      }
    }
  }
  const plans = compiled.fields.map((field) => ({ selector: field.selector, trusted: false, search: true }));
  const relocation = relocator.relocateRecords(root, plans);
  if (relocation === null || relocation.records.length === 0 || relocation.confidence < CONFIDENCE_THRESHOLD) {
    return outcome([], false, 'low_confidence', relocation?.confidence ?? 0, null);
  }
  const records = relocation.records.map((r) => r.el);
  const matches: RecordMatch[] = relocation.records.map((r) => r.match);
  const elements = matches.map((m) => m.elements);
  const derived = deriveSelectors(root, compiled, records, matches, relocation.fieldSelectors);
  const next = learnMemory(features, records, elements, compiled.fields.length, 'relocated', derived, now);
  return outcome(buildRecords(compiled, records, elements, pageUrl, features), true, 'reused', relocation.confidence, next);
}

/**
 * Selectors for the next pages: one for exactly these records, and per field the schema's own (when it found the
 * field in every record that has it), the selector every record's field came from, or one derived afresh.
 */
function deriveSelectors(
  root: DomDocument,
  compiled: CompiledExtraction,
  records: DomElement[],
  matches: RecordMatch[],
  fieldSelectors: readonly (string | null)[],
): DerivedSelectors | null {
  const base = deriveRecordSelector(root, records);
  if (base === null) return null;
  const fields = compiled.fields.map((field, i) => {
    const sources = matches.map((m) => m.sources[i]).filter((s) => s !== null);
    if (sources.length > 0 && sources.every((s) => s === 'schema')) return SCHEMA_SELECTOR;
    // Every record took the first match of the same derived selector (or nothing acceptable): it is exact already.
    if (sources.length > 0 && fieldSelectors[i] !== null && sources.every((s) => s === 'selector')) return fieldSelectors[i];
    return deriveFieldSelector(records, matches.map((m) => m.elements[i]), field.type === 'list');
  });
  return { base, fields };
}

/** The derived selector of field i, compiled; null for none or the schema's own (plans then use the schema's). */
function derivedFieldSelector(derived: DerivedSelectors | null, i: number): CompiledSelector | null {
  const text = derived?.fields[i] ?? null;
  return text === null || text === SCHEMA_SELECTOR ? null : tryCompile(text);
}

function tryCompile(text: string): CompiledSelector | null {
  try {
    return compileSelector(text);
  } catch {
    return null;
  }
}

function select(selector: CompiledSelector, record: DomElement, list: boolean): DomElement[] | null {
  if (list) {
    const all = selectAllIn(selector, record);
    return all.length > 0 ? all : null;
  }
  const first = selectFirstIn(selector, record);
  return first === null ? null : [first];
}

function buildRecords(
  compiled: CompiledExtraction,
  records: readonly DomElement[],
  elements: readonly Selected[],
  pageUrl: string,
  features?: PageFeatures,
): ExtractedRecord[] {
  const text = features === undefined ? undefined : (el: DomElement) => features.text(el);
  return records.map((_, r) => {
    const record: ExtractedRecord = {};
    const values = new Map<string, FieldValue>();
    compiled.fields.forEach((field, i) => {
      const found = elements[r][i];
      const value = found === null ? null : fieldValue(field, found, pageUrl, text);
      values.set(field.name, value);
      set(record, field.name, value);
    });
    for (const computed of compiled.computed) set(record, computed.name, renderTemplate(computed.parts, values));
    return record;
  });
}

/** An own property whatever the name (no prototype setter is ever involved). */
function set(record: ExtractedRecord, name: string, value: FieldValue): void {
  if (name === '__proto__') Object.defineProperty(record, name, { value, enumerable: true, writable: true, configurable: true });
  else record[name] = value;
}

function outcome(records: ExtractedRecord[], used: boolean, action: AdaptiveAction, confidence: number, memory: SelectorMemory | null): ExtractionOutcome {
  const enabled = action !== 'disabled';
  return { records, adaptive: { enabled, used, action, confidence: Math.round(Math.min(1, Math.max(0, confidence)) * 1000) / 1000 }, memory };
}

function mean(xs: readonly number[]): number {
  return xs.length === 0 ? 0 : xs.reduce((a, b) => a + b, 0) / xs.length;
}
