import { parseHtml } from '@trawl/content';
import { describe, expect, it } from 'vitest';
import { compileExtraction, extractRecords, parseSelectorMemory, type ExtractionOutcome, type SelectorMemory } from '../src/index.ts';
import { blogList, expected, PAGE_URL, PRODUCTS, SCHEMA, v1, v2 } from './fixtures.ts';

// A redesign that changes one field beyond recognition loses that field only: it stays null in every record and
// the other fields are still relocated, instead of the whole page giving nothing (low_confidence).

const compiled = compileExtraction(SCHEMA);

function extract(html: string, memory: SelectorMemory | null): ExtractionOutcome {
  return extractRecords(parseHtml(html), compiled, { pageUrl: PAGE_URL, memory, adaptive: true });
}

function learned(): SelectorMemory {
  return parseSelectorMemory(JSON.parse(JSON.stringify(extract(v1(), null).memory)))!;
}

describe('a field lost in a redesign', () => {
  it('stays null while the other fields are still relocated', () => {
    // The price leaves its inline element for a block with a trailing currency code: nothing left to recognize it by.
    const html = v2({ renamed: true }).replace(/<span class="cost">\$([0-9.]+)<\/span>/g, '<div class="amount-box"><div class="amount-line">$1 USD incl. VAT</div></div>');
    const out = extract(html, learned());
    expect(out.adaptive.action).toBe('reused');
    expect(out.records).toEqual(expected(PRODUCTS).map((r) => ({ ...r, price: null, label: null })));
  });

  it('does not make a list of something else on the same site pass: several remembered fields missing give nothing', () => {
    expect(extract(blogList(), learned()).records).toEqual([]);
  });
});
