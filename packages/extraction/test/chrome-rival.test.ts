import { parseHtml } from '@trawl/content';
import { Extraction } from '@trawl/contract';
import { describe, expect, it } from 'vitest';
import { compileExtraction, extractRecords, parseSelectorMemory, type ExtractionOutcome, type SelectorMemory } from '../src/index.ts';

// Page chrome (the same text at the same place of most records: a "Report" link) never makes a relocated field
// ambiguous: it is no rival within the margin, so the field keeps its element.

const SCHEMA = Extraction.parse({
  type: 'json_css',
  schema: {
    name: 'reviews',
    base_selector: 'div.review',
    fields: [
      { name: 'author', selector: '.author', type: 'text' },
      { name: 'title', selector: 'a.review-title', type: 'text' },
      { name: 'date', selector: '.review-date', type: 'text' },
    ],
  },
});

const REVIEWS = [
  { author: 'Helen M.', title: 'Pours well, lid rattles', date: 'Reviewed on 3 March 2025' },
  { author: 'Dev', title: 'Best kettle so far', date: 'Reviewed on 28 February 2025' },
  { author: 'J. Alvarez', title: 'Stopped heating, sadly', date: 'Reviewed on 26 February 2025' },
  { author: 'Mark T', title: 'Good, but small', date: 'Reviewed on 14 February 2025' },
  { author: 'Aiko', title: 'Perfect for tea too', date: 'Reviewed on 9 February 2025' },
  { author: 'Sam P.', title: 'Quiet and quick', date: 'Reviewed on 2 February 2025' },
];

const page = (body: string) => `<!doctype html><html><head><title>Reviews</title></head><body><header><a href="/">Shop</a></header><main><h1>Reviews</h1>${body}</main><footer><p>Shop Example</p></footer></body></html>`;

function v1(): string {
  return page(`<div class="reviews">${REVIEWS.map((r, i) => `<div class="review"><span class="author">${r.author}</span><h4><a class="review-title" href="/r/${i}">${r.title}</a></h4><span class="review-date">${r.date}</span></div>`).join('\n')}</div>`);
}

/** The redesign: a "Report this review" link at the foot of every review, a link like the title's. */
function v2(): string {
  return page(`<ul class="Rv_list">${REVIEWS.map((r, i) => `<li class="Rv_item"><p class="Rv_who">${r.author}</p><div class="Rv_head"><a href="/r/${i}">${r.title}</a></div><p class="Rv_date">${r.date}</p><div class="Rv_foot"><a class="Rv_report" href="/report/${i}">Report this review</a></div></li>`).join('\n')}</ul>`);
}

const compiled = compileExtraction(SCHEMA);
const extract = (html: string, memory: SelectorMemory | null): ExtractionOutcome =>
  extractRecords(parseHtml(html), compiled, { pageUrl: 'https://shop.example/reviews', memory, adaptive: true });

describe('page chrome beside a relocated field', () => {
  it('is no rival: the field keeps its element', () => {
    const memory = parseSelectorMemory(JSON.parse(JSON.stringify(extract(v1(), null).memory)))!;
    const out = extract(v2(), memory);
    expect(out.adaptive.action).toBe('reused');
    expect(out.records).toEqual(REVIEWS);
  });
});
