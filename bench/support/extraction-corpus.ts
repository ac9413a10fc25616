import { existsSync, readdirSync, readFileSync } from 'node:fs';
import { join } from 'node:path';

/**
 * The redesign corpus of issue 14 (bench/extraction-corpus/<site>/): per site a v1 page, its v2 redesign carrying
 * the same records, the extraction request written against v1 (schema.json), the request that is right for v2
 * (schema-v2.json: only to verify the corpus, never given to the engine) and the records each page must give.
 * bench/extraction-corpus/README.md describes the files; test/extraction/corpus.test.ts checks them against their
 * pages with the plain cheerio loop (extraction-cheerio-loop.ts), bench/extraction.bench.ts scores the engine.
 */
export const CORPUS_DIR = new URL('../extraction-corpus/', import.meta.url).pathname;

export type FieldType = 'text' | 'attribute' | 'html' | 'list';
export type Transform = 'strip' | 'lowercase' | 'uppercase' | 'absolute_url';

export interface ExtractionField {
  name: string;
  selector: string;
  type: FieldType;
  attribute?: string;
  transform?: Transform;
}

export interface ComputedField {
  name: string;
  operation: 'template';
  template: string;
}

/** The public request shape (`extraction` on POST /v1/crawl). */
export interface ExtractionRequest {
  type: 'json_css';
  schema: { name: string; base_selector: string; fields: ExtractionField[] };
  computed_fields?: ComputedField[];
  adaptive?: boolean;
}

export type FieldValue = string | string[] | null;
export type ExtractedRecord = Record<string, FieldValue>;

/** The kinds of change a v2 page makes; every one is exercised by at least two sites. */
export const CHANGE_CLASSES = [
  'class_renamed', // class names changed (hashed CSS modules, utility classes, re-obfuscated builds)
  'id_renamed', // id values changed
  'extra_wrapper', // an element added between the base element and the container, or inside the card
  'container_tag_changed', // the record element's tag changed (div to article, section or li)
  'fields_reordered', // the fields appear in another order inside the record
  'promo_inserted', // promo, ad or sponsored blocks that look somewhat like records, between the records
  'optional_missing', // optional fields absent from some records (null in the expected records)
  'relative_urls_changed', // URLs written in another form (absolute, path-absolute, relative, scheme-relative) that resolve the same
] as const;
export type ChangeClass = (typeof CHANGE_CLASSES)[number];

export interface SiteMeta {
  kind: string;
  /** The page's final URL: what absolute_url resolves against. */
  page_url: string;
  changes: ChangeClass[];
  /**
   * What the v1 request finds on v2: no element for base_selector, or the base elements but no element for the
   * fields whose selectors broke (the others still give the expected values).
   */
  v1_schema_on_v2: 'no_base_match' | 'fields_unmatched';
  /** What makes this site hard for relocation, in words. */
  hard_cases: string[];
}

export interface CorpusSite {
  id: string;
  dir: string;
  meta: SiteMeta;
  /** The v1 request (what a user wrote against v1; also what the engine gets for v2). */
  schema: ExtractionRequest;
  /** Selectors that are right for v2: corpus verification only. */
  schemaV2: ExtractionRequest;
  html: { v1: string; v2: string };
  expected: { v1: ExtractedRecord[]; v2: ExtractedRecord[] };
}

const readJson = <T>(path: string): T => JSON.parse(readFileSync(path, 'utf8')) as T;

/** Every site directory (one holding site.json), in name order. */
export function loadCorpus(dir = CORPUS_DIR): CorpusSite[] {
  return readdirSync(dir, { withFileTypes: true })
    .filter((d) => d.isDirectory() && existsSync(join(dir, d.name, 'site.json')))
    .map((d) => d.name)
    .sort()
    .map((id) => {
      const at = join(dir, id);
      return {
        id,
        dir: at,
        meta: readJson<SiteMeta>(join(at, 'site.json')),
        schema: readJson<ExtractionRequest>(join(at, 'schema.json')),
        schemaV2: readJson<ExtractionRequest>(join(at, 'schema-v2.json')),
        html: { v1: readFileSync(join(at, 'v1.html'), 'utf8'), v2: readFileSync(join(at, 'v2.html'), 'utf8') },
        expected: { v1: readJson<ExtractedRecord[]>(join(at, 'expected-v1.json')), v2: readJson<ExtractedRecord[]>(join(at, 'expected-v2.json')) },
      };
    });
}

/** The names of a record's values: the fields, then the computed fields, in request order. */
export function valueNames(request: ExtractionRequest): string[] {
  return [...request.schema.fields.map((f) => f.name), ...(request.computed_fields ?? []).map((c) => c.name)];
}
