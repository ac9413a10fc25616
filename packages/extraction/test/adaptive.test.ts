import { parseHtml } from '@trawl/content';
import { describe, expect, it } from 'vitest';
import { compileExtraction, extractRecords, MEMORY_REFRESH_MS, parseSelectorMemory, type ExtractionOutcome, type SelectorMemory } from '../src/index.ts';
import { JOB_SCHEMA, JOBS_URL, jobsV1 } from './sites.ts';
import { blogList, expected, MORE_PRODUCTS, PAGE_URL, PRODUCTS, SCHEMA, unrelatedPage, v1, v2, type Redesign } from './fixtures.ts';

const compiled = compileExtraction(SCHEMA);
const T0 = Date.UTC(2025, 0, 1);

function extract(html: string, memory: SelectorMemory | null, options: { adaptive?: boolean; now?: number } = {}): ExtractionOutcome {
  return extractRecords(parseHtml(html), compiled, { pageUrl: PAGE_URL, memory, adaptive: options.adaptive ?? true, now: options.now ?? T0 });
}

/** Memory as a store would hand it back: learned on v1, through JSON. */
function learned(): SelectorMemory {
  const out = extract(v1(), null);
  expect(out.adaptive.action).toBe('matched');
  expect(out.memory).not.toBeNull();
  return parseSelectorMemory(JSON.parse(JSON.stringify(out.memory)))!;
}

function relocated(design: Redesign): ExtractionOutcome {
  const out = extract(v2(design), learned());
  expect(out.adaptive).toMatchObject({ enabled: true, used: true, action: 'reused' });
  expect(out.adaptive.confidence).toBeGreaterThan(0.65);
  expect(out.adaptive.confidence).toBeLessThanOrEqual(1);
  return out;
}

describe('when the selectors match', () => {
  it('extracts by selector alone and learns memory from a few records', () => {
    const out = extract(v1(), null);
    expect(out.records).toEqual(expected(PRODUCTS));
    expect(out.adaptive).toEqual({ enabled: true, used: false, action: 'matched', confidence: 1 });
    expect(out.memory).toMatchObject({ v: 1, at: T0, src: 'selectors', derived: null });
  });

  it('does not rewrite memory that is fresh', () => {
    const memory = learned();
    const out = extract(v1(MORE_PRODUCTS), memory, { now: T0 + 60_000 });
    expect(out.records).toEqual(expected(MORE_PRODUCTS));
    expect(out.adaptive.action).toBe('matched');
    expect(out.memory).toBeNull();
  });

  it('refreshes memory once it is older than MEMORY_REFRESH_MS', () => {
    const out = extract(v1(MORE_PRODUCTS), learned(), { now: T0 + MEMORY_REFRESH_MS + 1 });
    expect(out.memory).toMatchObject({ src: 'selectors', at: T0 + MEMORY_REFRESH_MS + 1 });
  });

  it('re-learns from the selectors when the site goes back to the markup they match', () => {
    const after = extract(v2({ renamed: true }), learned()).memory!;
    expect(after.src).toBe('relocated');
    const back = extract(v1(MORE_PRODUCTS), after, { now: T0 + 1000 });
    expect(back.adaptive.action).toBe('matched');
    expect(back.memory).toMatchObject({ src: 'selectors', derived: null });
  });
});

describe('without adaptation', () => {
  it('adaptive false: selectors only, action disabled, nothing remembered', () => {
    const memory = learned();
    expect(extract(v1(), null, { adaptive: false })).toEqual({
      records: expected(PRODUCTS),
      adaptive: { enabled: false, used: false, action: 'disabled', confidence: 0 },
      memory: null,
    });
    expect(extract(v2({ renamed: true }), memory, { adaptive: false })).toEqual({
      records: [],
      adaptive: { enabled: false, used: false, action: 'disabled', confidence: 0 },
      memory: null,
    });
  });

  it('no memory yet and no match: no records, action no_memory', () => {
    expect(extract(v2({ renamed: true }), null)).toEqual({
      records: [],
      adaptive: { enabled: true, used: false, action: 'no_memory', confidence: 0 },
      memory: null,
    });
  });

  it('ignores memory of another shape (a different field count)', () => {
    const memory = { ...learned(), fields: learned().fields.slice(0, 2) };
    expect(extract(v2({ renamed: true }), memory).adaptive.action).toBe('no_memory');
  });
});

describe('relocation after a redesign', () => {
  it('survives classes and ids renamed', () => {
    expect(relocated({ renamed: true }).records).toEqual(expected(PRODUCTS));
  });

  it('survives an extra wrapper element (around each card and around the grid)', () => {
    expect(relocated({ renamed: true, wrapper: true }).records).toEqual(expected(PRODUCTS));
  });

  it.each(['section', 'article', 'li'] as const)('survives the card container turned from div to %s', (container) => {
    expect(relocated({ renamed: true, container }).records).toEqual(expected(PRODUCTS));
  });

  it('survives fields reordered inside the card', () => {
    expect(relocated({ renamed: true, reordered: true }).records).toEqual(expected(PRODUCTS));
  });

  it('a promo block between cards does not become a record', () => {
    const html = v2({ renamed: true, promos: true });
    expect(html).toContain('promo-box');
    expect(html).toContain('ad-slot');
    const out = relocated({ renamed: true, promos: true });
    expect(out.records).toEqual(expected(PRODUCTS));
    expect(JSON.stringify(out.records)).not.toMatch(/sale|Advertisement/i);
  });

  it('an optional field missing in some cards stays null, never a neighbour\'s value', () => {
    const out = relocated({ renamed: true, reordered: true });
    const missing = PRODUCTS.flatMap((p, i) => (p.rating === null ? [i] : []));
    expect(missing.length).toBeGreaterThan(0);
    for (const i of missing) expect(out.records[i].rating).toBeNull();
  });

  it('a card without its price does not take a badge of another kind for it', () => {
    const html = v2({ renamed: true }).replace('<span class="cost">$89.99</span>', '<span class="badge">Bestseller</span>');
    const out = extract(html, learned());
    expect(out.adaptive.action).toBe('reused');
    expect(out.records[0]).toMatchObject({ title: 'Trail Runner', price: null, label: null });
    expect(out.records.slice(1)).toEqual(expected(PRODUCTS).slice(1));
  });

  it('survives all of it at once', () => {
    expect(relocated({ renamed: true, wrapper: true, container: 'section', reordered: true, promos: true }).records).toEqual(expected(PRODUCTS));
  });

  it('returns memory whose derived selectors extract the next page of the redesign without a search', () => {
    const design: Redesign = { renamed: true, wrapper: true, container: 'article', reordered: true, promos: true };
    const first = relocated(design);
    expect(first.memory).toMatchObject({ src: 'relocated' });
    expect(first.memory!.derived).not.toBeNull();
    const memory = parseSelectorMemory(JSON.parse(JSON.stringify(first.memory)))!;
    const next = extract(v2(design, MORE_PRODUCTS), memory);
    expect(next.records).toEqual(expected(MORE_PRODUCTS));
    expect(next.adaptive).toMatchObject({ used: true, action: 'reused' });
    expect(next.memory).toBeNull();
  });

  it('relocates a field that stopped matching inside records the base selector still finds', () => {
    const html = v1().replaceAll('class="price"', 'class="amount"');
    const out = extract(html, learned());
    expect(out.records).toEqual(expected(PRODUCTS));
    expect(out.adaptive).toMatchObject({ used: true, action: 'reused' });
    expect(out.memory).toMatchObject({ src: 'relocated' });
    expect(out.memory!.derived).toMatchObject({ base: null });
    const next = extract(v1(MORE_PRODUCTS).replaceAll('class="price"', 'class="amount"'), parseSelectorMemory(out.memory));
    expect(next.records).toEqual(expected(MORE_PRODUCTS));
    expect(next.adaptive.action).toBe('reused');
    expect(next.memory).toBeNull();
  });
});

describe('when relocation is not sure, it does not guess', () => {
  it('an unrelated page gives no records and low_confidence', () => {
    const out = extract(unrelatedPage(), learned());
    expect(out.records).toEqual([]);
    expect(out.adaptive).toMatchObject({ enabled: true, used: false, action: 'low_confidence' });
    expect(out.adaptive.confidence).toBeLessThan(0.65);
    expect(out.memory).toBeNull();
  });

  it('a list of something else on the same site (posts with no price) is not taken for the products', () => {
    const out = extract(blogList(), learned());
    expect(out.records).toEqual([]);
    expect(out.adaptive.action).toBe('low_confidence');
  });

  it('a field absent from a whole page keeps its null instead of taking a neighbour\'s element', () => {
    const noRatings = PRODUCTS.map((p) => ({ ...p, rating: null }));
    const out = extract(v1(noRatings), learned());
    expect(out.records).toEqual(expected(noRatings));
    expect(out.adaptive).toMatchObject({ used: false, action: 'low_confidence' });
    expect(out.memory).toBeNull();
  });

  it('cards that kept too little of the remembered structure give nothing', () => {
    const bare = v2({ renamed: true }).replace(/<span class="(cost|stars)">[^<]*<\/span>/g, '').replace(/<p class="summary">[^<]*<\/p>/g, '').replace(/<img[^>]*>/g, '');
    const out = extract(bare, learned());
    expect(out.records).toEqual([]);
    expect(out.adaptive.action).toBe('low_confidence');
  });
});

describe('learning', () => {
  it('a page where no field matched teaches nothing', () => {
    const html = v1().replace(/class="(title|price|rating|photo|blurb)"/g, 'class="x"');
    const out = extract(html, null);
    expect(out.adaptive.action).toBe('matched');
    expect(out.records).toHaveLength(PRODUCTS.length);
    expect(out.memory).toBeNull();
  });

  it('records which fields shared one element and how often each was present', () => {
    const memory = learned();
    // Presence over every record the selectors matched: two of the six products have no rating.
    expect(memory.fields.map((f) => f?.p)).toEqual([1, 1, 1, 0.67, 1, 1]);
    expect(memory.fields.every((f) => f !== null && f.same === -1)).toBe(true);
    // The job board's role text and link both come from `td.role a`: the link follows the role.
    const jobs = extractRecords(parseHtml(jobsV1()), compileExtraction(JOB_SCHEMA), { pageUrl: JOBS_URL, memory: null, adaptive: true });
    expect(jobs.memory!.fields.map((f) => f?.same)).toEqual([-1, 0, -1, -1]);
  });
});

describe('diagnostics safety', () => {
  it('the adaptive summary holds only the four public-safe values', () => {
    const memory = learned();
    const pages = [v1(), v2({ renamed: true, promos: true }), unrelatedPage(), blogList()];
    for (const html of pages) {
      for (const m of [null, memory]) {
        const { adaptive } = extract(html, m);
        expect(Object.keys(adaptive).sort()).toEqual(['action', 'confidence', 'enabled', 'used']);
        expect(['matched', 'reused', 'low_confidence', 'no_memory', 'disabled']).toContain(adaptive.action);
        expect(adaptive.confidence).toBeGreaterThanOrEqual(0);
        expect(adaptive.confidence).toBeLessThanOrEqual(1);
        expect(typeof adaptive.enabled).toBe('boolean');
        expect(typeof adaptive.used).toBe('boolean');
      }
    }
  });

  it('memory holds markup shape, never page text', () => {
    const memory = JSON.stringify(learned());
    for (const p of PRODUCTS) {
      expect(memory).not.toContain(p.name);
      expect(memory).not.toContain(p.price);
      expect(memory).not.toContain(p.slug);
      expect(memory).not.toContain(p.blurb.split(' ')[0]);
    }
  });
});
