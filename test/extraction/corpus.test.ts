import { describe, expect, it } from 'vitest';
import { cheerioExtract, loadPage, type LoopOptions } from '../../bench/support/extraction-cheerio-loop.ts';
import { CHANGE_CLASSES, loadCorpus, valueNames, type CorpusSite, type ExtractedRecord, type ExtractionRequest } from '../../bench/support/extraction-corpus.ts';
import { LARGE_CARDS, LARGE_PAGE_URL, LARGE_SCHEMA, LARGE_SCHEMA_V2, largePage } from '../../bench/support/extraction-large-page.ts';

// The redesign corpus of issue 14 (bench/extraction-corpus) checked without the engine: the plain cheerio loop,
// which implements json_css's documented semantics, must give exactly the expected records from schema.json on v1
// and from schema-v2.json on v2, whichever parser reads the page (cheerio's parse5 or Trawl's htmlparser2),
// whether the elements readers disagree about count as blocks or not, and whether field selectors may look at the
// record's ancestors or not. So an expected value never depends on a choice the documented semantics leave open.

const sites = loadCorpus();

const VARIANTS: { label: string; options: LoopOptions }[] = [
  { label: 'parse5', options: { parser: 'parse5' } },
  { label: 'htmlparser2', options: { parser: 'htmlparser2' } },
  { label: 'parse5, ambiguous elements inline', options: { parser: 'parse5', ambiguousAsBlock: false } },
  { label: 'htmlparser2, ambiguous elements inline', options: { parser: 'htmlparser2', ambiguousAsBlock: false } },
  { label: 'parse5, records detached', options: { parser: 'parse5', isolateRecords: true } },
  { label: 'htmlparser2, records detached', options: { parser: 'htmlparser2', isolateRecords: true } },
];

/** The request without its selectors: what schema.json and schema-v2.json must share. */
function shape(request: ExtractionRequest): unknown {
  return {
    type: request.type,
    name: request.schema.name,
    fields: request.schema.fields.map(({ selector: _, ...rest }) => rest),
    computed_fields: request.computed_fields ?? [],
    adaptive: request.adaptive,
  };
}

describe('extraction corpus', () => {
  it('has at least 12 sites of different kinds, exercising every change class in at least two sites', () => {
    expect(sites.length).toBeGreaterThanOrEqual(12);
    expect(new Set(sites.map((s) => s.meta.kind)).size).toBe(sites.length);
    for (const change of CHANGE_CLASSES) {
      const using = sites.filter((s) => s.meta.changes.includes(change)).map((s) => s.id);
      expect(using.length, `${change}: ${using.join(', ')}`).toBeGreaterThanOrEqual(2);
    }
    const modes = new Set(sites.map((s) => s.meta.v1_schema_on_v2));
    expect(modes).toEqual(new Set(['no_base_match', 'fields_unmatched']));
  });

  describe.each(sites.map((s) => [s.id, s] as [string, CorpusSite]))('%s', (_, site) => {
    const names = valueNames(site.schema);

    it('describes itself and keeps one request shape for both versions', () => {
      expect(site.meta.page_url).toMatch(/^https:\/\/[a-z0-9.-]+\.example\.test\//);
      expect(site.meta.changes.length).toBeGreaterThanOrEqual(3);
      for (const c of site.meta.changes) expect(CHANGE_CLASSES).toContain(c);
      expect(site.meta.hard_cases.length).toBeGreaterThan(0);
      expect(shape(site.schemaV2)).toEqual(shape(site.schema));
      expect(site.schema.adaptive).not.toBe(false);
      expect(new Set(names).size).toBe(names.length);
    });

    it('expects 8 to 30 records with every value named, no empty strings, only values the semantics fix', () => {
      const listFields = new Set(site.schema.schema.fields.filter((f) => f.type === 'list').map((f) => f.name));
      const htmlFields = new Set(site.schema.schema.fields.filter((f) => f.type === 'html').map((f) => f.name));
      const urlFields = new Set(site.schema.schema.fields.filter((f) => f.transform === 'absolute_url').map((f) => f.name));
      for (const records of [site.expected.v1, site.expected.v2]) {
        expect(records.length).toBeGreaterThanOrEqual(8);
        expect(records.length).toBeLessThanOrEqual(30);
        for (const record of records) {
          expect(Object.keys(record)).toEqual(names);
          for (const [name, value] of Object.entries(record)) {
            if (value === null) continue;
            if (listFields.has(name)) {
              expect(Array.isArray(value), name).toBe(true);
              expect((value as string[]).length, name).toBeGreaterThan(0);
              for (const item of value as string[]) expect(item, name).not.toBe('');
              continue;
            }
            expect(typeof value, name).toBe('string');
            const s = value as string;
            expect(s, name).not.toBe('');
            if (htmlFields.has(name)) {
              // Markup Trawl's sanitizer and any serializer write the same way: bare allowed tags, plain text.
              expect(s, `${name} is sanitizer-invariant`).toMatch(/^(?:[^<>&"\u00a0\s]|[ ](?! )|<\/?(?:p|strong|em|b|i|ul|ol|li|br)>)+$/);
              expect(s.trim(), name).toBe(s);
            }
            if (urlFields.has(name)) {
              expect(s, name).toMatch(/^https?:\/\/[^\s#]+$/);
              expect(new URL(s).href, name).toBe(s);
            }
          }
        }
      }
      // Templates reference fields that give a string or null, never a list.
      for (const computed of site.schema.computed_fields ?? []) {
        for (const [, ref] of computed.template.replace(/\{\{|\}\}/g, '').matchAll(/\{([^}]*)\}/g)) {
          const field = site.schema.schema.fields.find((f) => f.name === ref);
          expect(field, `${computed.name} references ${ref}`).toBeDefined();
          expect(field!.type, `${computed.name} references ${ref}`).not.toBe('list');
        }
      }
    });

    it.each(VARIANTS.map((v) => [v.label, v.options] as [string, LoopOptions]))('v1 with schema.json gives expected-v1 (%s)', (_, options) => {
      expect(cheerioExtract(site.html.v1, site.schema, site.meta.page_url, options)).toEqual(site.expected.v1);
    });

    it.each(VARIANTS.map((v) => [v.label, v.options] as [string, LoopOptions]))('v2 with schema-v2.json gives expected-v2 (%s)', (_, options) => {
      expect(cheerioExtract(site.html.v2, site.schemaV2, site.meta.page_url, options)).toEqual(site.expected.v2);
    });

    it('breaks the v1 selectors on v2 the way site.json says, without ever matching a wrong element', () => {
      const onV2 = cheerioExtract(site.html.v2, site.schema, site.meta.page_url);
      if (site.meta.v1_schema_on_v2 === 'no_base_match') {
        expect(onV2).toEqual([]);
        return;
      }
      // The base elements are still found; each field either still gives every expected value or matches nothing.
      expect(onV2.length).toBe(site.expected.v2.length);
      const broken = site.schema.schema.fields.filter((f) => onV2.every((r) => r[f.name] === null));
      expect(broken.length).toBeGreaterThan(0);
      for (const field of site.schema.schema.fields) {
        if (broken.includes(field)) continue;
        expect(onV2.map((r) => r[field.name]), field.name).toEqual(site.expected.v2.map((r) => r[field.name]));
      }
    });

    it('keeps optional fields optional: some expected values are null, and each field is present somewhere', () => {
      const all: ExtractedRecord[] = [...site.expected.v1, ...site.expected.v2];
      expect(all.some((r) => Object.values(r).includes(null))).toBe(true);
      for (const field of site.schema.schema.fields) expect(site.expected.v1.some((r) => r[field.name] !== null), field.name).toBe(true);
    });

    it('has real-page furniture around the records in both versions', () => {
      for (const html of [site.html.v1, site.html.v2]) {
        const $ = loadPage(html);
        expect($('header').length + $('[role=banner]').length, 'header').toBeGreaterThan(0);
        expect($('nav').length + $('[role=navigation]').length, 'nav').toBeGreaterThan(0);
        expect($('footer').length + $('[role=contentinfo]').length, 'footer').toBeGreaterThan(0);
        expect($('body *').length, 'elements').toBeGreaterThan(150);
      }
    });
  });

  describe('large page (CPU figures)', () => {
    const v1 = largePage('v1');
    const v2 = largePage('v2');

    it('has about 5,000 elements in both versions', () => {
      for (const page of [v1, v2]) {
        const elements = loadPage(page.html)('*').length;
        expect(elements).toBeGreaterThanOrEqual(4500);
        expect(elements).toBeLessThanOrEqual(6000);
      }
    });

    it.each(VARIANTS.slice(0, 2).map((v) => [v.label, v.options] as [string, LoopOptions]))('gives its expected records with the right selectors, none with the v1 ones on v2 (%s)', (_, options) => {
      expect(v1.expected.length).toBe(LARGE_CARDS);
      expect(v2.expected).toEqual(v1.expected);
      expect(cheerioExtract(v1.html, LARGE_SCHEMA, LARGE_PAGE_URL, options)).toEqual(v1.expected);
      expect(cheerioExtract(v2.html, LARGE_SCHEMA_V2, LARGE_PAGE_URL, options)).toEqual(v2.expected);
      expect(cheerioExtract(v2.html, LARGE_SCHEMA, LARGE_PAGE_URL, options)).toEqual([]);
    });
  });
});
