import { EXTRACTION_LIMITS } from '@trawl/contract';
import { selectorProblem } from './css-engine.ts';
import { FINGERPRINT_LIMITS, type Fingerprint } from './fingerprint.ts';

// Selector memory: what the schema's selectors matched, kept per team, registrable domain and schemaKey by the
// caller (never shown: it holds markup shape, derived selectors and class names, but no page text). Plain JSON,
// versioned, and bounded: serialized it never exceeds MEMORY_MAX_BYTES (fewer samples, then fewer details, then
// fewer fields are kept until it fits).

export const MEMORY_VERSION = 1;
/** Bound on one memory, serialized as JSON (UTF-8 bytes). */
export const MEMORY_MAX_BYTES = 32 * 1024;
/** Fingerprints kept per record and per field (distinct ones, from records spread over the page). */
export const SAMPLES_PER_TARGET = 3;
const MAX_SELECTOR_LENGTH = EXTRACTION_LIMITS.selector_length;

export interface FieldMemory {
  /** Fingerprints of the field's element in sampled records. */
  fp: Fingerprint[];
  /** Share of sampled records where the field matched (0..1): a field always present is worth relocating. */
  p: number;
  /** Index of an earlier field that matched the very same element (a title text and its href), or -1. */
  same: number;
}

/** How the next page can be extracted without a similarity search, learned from a relocation. */
export interface DerivedSelectors {
  /** Selects exactly the relocated records on the page it was derived from; null: the schema's base selector. */
  base: string | null;
  /** Per schema field: a selector inside the record, SCHEMA_SELECTOR for the schema's own, or null (search). */
  fields: (string | null)[];
}

export interface SelectorMemory {
  v: typeof MEMORY_VERSION;
  /** When learned or last updated, ms since the epoch. */
  at: number;
  /** 'selectors': learned where the schema's selectors matched; 'relocated': learned from a relocation. */
  src: 'selectors' | 'relocated';
  /** Fingerprints of record elements. */
  base: Fingerprint[];
  /** Per schema field (schema order); null when the field never matched while learning. */
  fields: (FieldMemory | null)[];
  derived: DerivedSelectors | null;
}

/** In DerivedSelectors.fields: the schema's own field selector works inside the relocated records (not valid CSS). */
export const SCHEMA_SELECTOR = '@schema';

/** The memory cut down until its JSON fits MEMORY_MAX_BYTES, or null if even a bare one does not. */
export function boundMemory(memory: SelectorMemory): SelectorMemory | null {
  let m = memory;
  const fits = (x: SelectorMemory) => byteLength(JSON.stringify(x)) <= MEMORY_MAX_BYTES;
  if (fits(m)) return m;
  for (const samples of [2, 1]) {
    m = { ...m, base: m.base.slice(0, samples), fields: m.fields.map((f) => (f === null ? null : { ...f, fp: f.fp.slice(0, samples) })) };
    if (fits(m)) return m;
  }
  if (m.derived !== null) {
    m = { ...m, derived: null };
    if (fits(m)) return m;
  }
  const slim = (fp: Fingerprint): Fingerprint => ({ ...fp, a: fp.a.slice(0, 3), c: fp.c.slice(0, 2), s: fp.s.slice(0, 2), v: fp.v.slice(0, 2), h: fp.h.slice(0, 4) });
  m = { ...m, base: m.base.map(slim), fields: m.fields.map((f) => (f === null ? null : { ...f, fp: f.fp.map(slim) })) };
  if (fits(m)) return m;
  // Last: forget the later fields (they stay extractable by selector, only not relocatable).
  const fields = [...m.fields];
  for (let i = fields.length - 1; i >= 0 && !fits({ ...m, fields }); i--) fields[i] = null;
  m = { ...m, fields };
  return fits(m) ? m : null;
}

function byteLength(s: string): number {
  return Buffer.byteLength(s, 'utf8');
}

/**
 * Memory read back from a store, validated: anything malformed, of another version or over the bound is null
 * (the caller then learns afresh). Never throws.
 */
export function parseSelectorMemory(stored: unknown): SelectorMemory | null {
  try {
    const value = typeof stored === 'string' ? (JSON.parse(stored) as unknown) : stored;
    if (!isObject(value) || value.v !== MEMORY_VERSION) return null;
    if (byteLength(JSON.stringify(value)) > MEMORY_MAX_BYTES) return null;
    const { at, src, base, fields, derived } = value;
    if (typeof at !== 'number' || !Number.isFinite(at) || at < 0) return null;
    if (src !== 'selectors' && src !== 'relocated') return null;
    const baseFps = fingerprints(base);
    if (baseFps === null || baseFps.length === 0) return null;
    if (!Array.isArray(fields) || fields.length === 0 || fields.length > EXTRACTION_LIMITS.fields) return null;
    const fieldMemories: (FieldMemory | null)[] = [];
    for (let i = 0; i < fields.length; i++) {
      const f: unknown = fields[i];
      if (f === null) {
        fieldMemories.push(null);
        continue;
      }
      if (!isObject(f)) return null;
      const fps = fingerprints(f.fp);
      if (fps === null || fps.length === 0) return null;
      if (typeof f.p !== 'number' || !(f.p >= 0 && f.p <= 1)) return null;
      if (!Number.isInteger(f.same) || (f.same as number) < -1 || (f.same as number) >= i) return null;
      fieldMemories.push({ fp: fps, p: f.p, same: f.same as number });
    }
    let derivedSelectors: DerivedSelectors | null = null;
    if (derived !== null) {
      if (!isObject(derived) || !(derived.base === null || isSelector(derived.base))) return null;
      if (!Array.isArray(derived.fields) || derived.fields.length !== fields.length) return null;
      const list: (string | null)[] = [];
      for (const s of derived.fields as unknown[]) {
        if (s !== null && s !== SCHEMA_SELECTOR && !isSelector(s)) return null;
        list.push(s as string | null);
      }
      derivedSelectors = { base: derived.base, fields: list };
    }
    return { v: MEMORY_VERSION, at, src, base: baseFps, fields: fieldMemories, derived: derivedSelectors };
  } catch {
    return null;
  }
}

function isObject(v: unknown): v is Record<string, unknown> {
  return typeof v === 'object' && v !== null && !Array.isArray(v);
}

function isSelector(v: unknown): v is string {
  return typeof v === 'string' && v.length > 0 && v.length <= MAX_SELECTOR_LENGTH && selectorProblem(v) === null;
}

function fingerprints(v: unknown): Fingerprint[] | null {
  if (!Array.isArray(v) || v.length > SAMPLES_PER_TARGET) return null;
  const out: Fingerprint[] = [];
  for (const item of v) {
    const fp = fingerprint(item);
    if (fp === null) return null;
    out.push(fp);
  }
  return out;
}

const L = FINGERPRINT_LIMITS;

function fingerprint(v: unknown): Fingerprint | null {
  if (!isObject(v)) return null;
  const t = v.t;
  if (typeof t !== 'string' || t.length === 0 || t.length > L.token) return null;
  const a = strings(v.a, L.attributes, L.token);
  const c = strings(v.c, L.classes, L.token);
  const s = strings(v.s, L.stable, L.token + 1 + L.stableValue);
  // Absent in memory written before naming values were kept: none.
  const named = strings(v.v ?? [], L.named, 2 * L.token + 1);
  const p = strings(v.p, L.ancestors, L.token);
  const h = strings(v.h, L.childTags, L.token);
  if (a === null || c === null || s === null || named === null || p === null || h === null) return null;
  if (typeof v.x !== 'string' || v.x.length > L.shape) return null;
  const numbers: Record<'l' | 'w' | 'd' | 'i' | 'e' | 'n' | 'k' | 'z', number> = { l: 0, w: 0, d: 0, i: 0, e: 0, n: 0, k: 0, z: 0 };
  for (const key of ['l', 'w', 'd', 'i', 'e', 'n', 'k', 'z'] as const) {
    const n = v[key];
    if (!Number.isInteger(n) || (n as number) < 0 || (n as number) > 16) return null;
    numbers[key] = n as number;
  }
  return { t, a, c, s, v: named, x: v.x, p, h, ...numbers };
}

function strings(v: unknown, max: number, maxLength: number): string[] | null {
  if (!Array.isArray(v) || v.length > max) return null;
  for (const s of v) if (typeof s !== 'string' || s.length > maxLength) return null;
  return [...(v as string[])];
}
