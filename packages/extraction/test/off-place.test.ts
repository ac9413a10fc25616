import { parseHtml } from '@trawl/content';
import { describe, expect, it } from 'vitest';
import { compileExtraction, extractRecords, parseSelectorMemory, type ExtractionOutcome, type SelectorMemory } from '../src/index.ts';
import { expected, PAGE_URL, PRODUCTS, SCHEMA, v1, v2 } from './fixtures.ts';

// Records of one list share a template, so a field sits at one place in it. An optional field absent from a
// record must not be taken from another place there (a stock count standing in for a missing rating).

const compiled = compileExtraction(SCHEMA);

function extract(html: string, memory: SelectorMemory | null): ExtractionOutcome {
  return extractRecords(parseHtml(html), compiled, { pageUrl: PAGE_URL, memory, adaptive: true });
}

function learned(): SelectorMemory {
  return parseSelectorMemory(JSON.parse(JSON.stringify(extract(v1(), null).memory)))!;
}

/** Every card also shows how many pairs are left, a bare number in a span of its own after the blurb. */
function withStock(html: string): string {
  let n = 0;
  return html.replace(/(<p class="(?:summary|blurb)">[^<]*<\/p>)/g, (p) => `${p}\n  <span class="stock">${(n++ % 4) + 2}</span>`);
}

describe('an optional field absent from a record', () => {
  it('is not taken from another place of that record', () => {
    const out = extract(withStock(v2({ renamed: true })), learned());
    expect(out.adaptive.action).toBe('reused');
    expect(out.records).toEqual(expected(PRODUCTS));
  });

  it('is not taken from another place either when the base selector still matches', () => {
    const html = withStock(v1()).replace(/<span class="rating">/g, '<span class="stars">');
    const out = extract(html, learned());
    expect(out.adaptive.action).toBe('reused');
    expect(out.records).toEqual(expected(PRODUCTS));
  });
});
