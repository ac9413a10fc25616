import { Extraction } from '@trawl/contract';
import { describe, expect, it } from 'vitest';
import { compileExtraction } from '../src/index.ts';
import { redesign } from './helpers.ts';

// An attribute-valued field whose element was restyled beyond plain structural similarity (a score badge turned
// into an accessible widget: a role, an aria-label, its text split into spans) is still relocated when that
// element is the only one of the record carrying the field's attribute: the attribute says what the value is.

const URL = 'https://books.example/shelf/crime';
export const SCHEMA = Extraction.parse({
  type: 'json_css',
  schema: {
    name: 'books',
    base_selector: '#shelf .book',
    fields: [
      { name: 'title', selector: '.book__title', type: 'text' },
      { name: 'author', selector: '.book__author', type: 'text' },
      { name: 'score', selector: '.book__score', type: 'attribute', attribute: 'data-score' },
      { name: 'isbn', selector: 'button.borrow', type: 'attribute', attribute: 'data-isbn' },
    ],
  },
});
const compiled = compileExtraction(SCHEMA);

const BOOKS = [
  { title: 'The Quiet Harbour', author: 'Ines Calloway', score: '4.6', isbn: '9780000000011' },
  { title: 'A Lantern in Fog', author: 'Marek Oduya', score: '3.9', isbn: '9780000000028' },
  { title: 'Nine Cold Rooms', author: 'Petra Lindqvist', score: '4.1', isbn: '9780000000035' },
  { title: 'Salt and Ashes', author: 'Hugo Brennan', score: '2.8', isbn: '9780000000042' },
  { title: 'The Ferryman Lies', author: 'Ada Moreau', score: '4.9', isbn: '9780000000059' },
  { title: 'Under Grey Slate', author: 'Tomas Verhoek', score: '3.3', isbn: '9780000000066' },
];

function page(list: string): string {
  return `<!doctype html><html><head><title>Crime</title></head><body><header><a href="/">Books</a></header><main><h1>Crime</h1>${list}</main><footer><p>Books Example</p></footer></body></html>`;
}

export function v1(): string {
  const items = BOOKS.map(
    (b) => `<div class="book"><h3 class="book__title">${b.title}</h3><p class="book__author">${b.author}</p>
  <div class="book__score" data-score="${b.score}" title="${b.score} of 5">★★★★ <span class="book__votes">(12)</span></div>
  <button class="borrow" data-isbn="${b.isbn}">Borrow</button></div>`,
  );
  return page(`<div id="shelf">${items.join('\n')}</div>`);
}

/** Generated class names; the score badge becomes an image-like widget with its stars and votes in spans. */
export function v2(): string {
  const items = BOOKS.map(
    (b) => `<article class="c1x"><div class="c2y"><h3 class="c3z">${b.title}</h3><p class="c4w">${b.author}</p>
  <div class="c7t" data-score="${b.score}" role="img" aria-label="${b.score} of 5 stars"><span aria-hidden="true">★★★★</span><span class="c8s">(12)</span></div></div>
  <button class="c9r" data-isbn="${b.isbn}">Borrow</button></article>`,
  );
  return page(`<section id="shelf-v2">${items.join('\n')}</section>`);
}

const { learned, extract } = redesign(compiled, URL, v1);

describe('an attribute field held by one element of the record', () => {
  it('is relocated to that element though its structure changed', () => {
    const out = extract(v2());
    expect(out.adaptive.action).toBe('reused');
    expect(out.records).toEqual(BOOKS);
  });
});
