import { parseHtml } from '@trawl/content';
import { Extraction } from '@trawl/contract';
import { describe, expect, it } from 'vitest';
import { compileExtraction, extractRecords, parseSelectorMemory, type ExtractionOutcome, type SelectorMemory } from '../src/index.ts';

// How often a field is present is learned over every record the selectors matched, not only the few fingerprinted
// ones: when those few all had an optional field (a rating block), the records of the redesign without it are
// still records (their absence is what memory expects of a quarter of them), not dropped as promo blocks.

const SCHEMA = Extraction.parse({
  type: 'json_css',
  schema: {
    name: 'products',
    base_selector: '.product',
    fields: [
      { name: 'name', selector: '.product-name', type: 'text' },
      { name: 'url', selector: 'a.product-link', type: 'attribute', attribute: 'href' },
      { name: 'price', selector: '.product-price', type: 'text' },
      { name: 'rating', selector: '.product-rating', type: 'attribute', attribute: 'data-rating' },
      { name: 'reviews', selector: '.product-reviews', type: 'text' },
    ],
  },
});

// Twelve products; the five fingerprinted when learning (first, last and three between: 0, 3, 6, 8, 11) all have
// a rating, four of the others do not.
const NAMES = ['Linen Shirt', 'Wool Coat', 'Denim Jacket', 'Cotton Tee', 'Silk Scarf', 'Canvas Tote', 'Leather Belt', 'Rain Boots', 'Knit Beanie', 'Cargo Pants', 'Suede Loafers', 'Fleece Vest'];
const UNRATED = new Set([1, 4, 7, 10]);
const PRODUCTS = NAMES.map((name, i) => ({
  name,
  url: `/p/${i}`,
  price: `$${19 + i * 7}.00`,
  rating: UNRATED.has(i) ? null : (3 + (i % 5) * 0.4).toFixed(1),
  reviews: UNRATED.has(i) ? null : `(${12 + i * 9})`,
}));

const page = (body: string) => `<!doctype html><html><head><title>Shop</title></head><body><header><a href="/">Shop</a></header><main><h1>All</h1>${body}</main><footer><p>Shop Example</p></footer></body></html>`;

function v1(): string {
  return page(`<div class="products">${PRODUCTS.map((p) => `<div class="product"><a class="product-link" href="${p.url}"><img class="product-image" src="${p.url}.jpg" alt=""></a><h3 class="product-name">${p.name}</h3><span class="product-price">${p.price}</span>${
    p.rating === null ? '' : `<div class="product-rating" data-rating="${p.rating}"><span class="stars">★★★★☆</span> <span class="product-reviews">${p.reviews}</span></div>`}<button class="add" >Add</button></div>`).join('\n')}</div>`);
}

function v2(): string {
  return page(`<section class="Grid_x1"><ul class="Grid_list">${PRODUCTS.map((p) => `<li class="Tile_a9"><a class="Tile_media" href="${p.url}"><img class="Tile_img" src="${p.url}.jpg" alt=""></a><div class="Tile_body"><p class="Tile_price">${p.price}</p><h2 class="Tile_title">${p.name}</h2>${
    p.rating === null ? '' : `<div class="Stars_r" data-rating="${p.rating}"><span aria-hidden="true">★★★★☆</span><span class="Stars_n">${p.reviews}</span></div>`}</div><button class="Btn" >Add</button></li>`).join('\n')}</ul></section>`);
}

const compiled = compileExtraction(SCHEMA);
const extract = (html: string, memory: SelectorMemory | null): ExtractionOutcome =>
  extractRecords(parseHtml(html), compiled, { pageUrl: 'https://shop.example/all', memory, adaptive: true });

describe('an optional field every fingerprinted record had', () => {
  it('is learned as optional: records of the redesign without it are relocated too', () => {
    const memory = parseSelectorMemory(JSON.parse(JSON.stringify(extract(v1(), null).memory)))!;
    const out = extract(v2(), memory);
    expect(out.adaptive.action).toBe('reused');
    expect(out.records).toEqual(PRODUCTS);
  });
});
