import { parseHtml } from '@trawl/content';
import { Extraction } from '@trawl/contract';
import { describe, expect, it } from 'vitest';
import { compileExtraction, extractRecords, parseSelectorMemory, type ExtractionOutcome, type SelectorMemory } from '../src/index.ts';

// A relocated text field whose element is a wrapper that also holds another field's element (the price block of
// a redesign with the charges note inside it) gives its own part only, when memory knows the shape of that part
// and not of the wrapper's whole text: never the two values glued together.

const SCHEMA = Extraction.parse({
  type: 'json_css',
  schema: {
    name: 'homes',
    base_selector: '.listing',
    fields: [
      { name: 'address', selector: '.address', type: 'text' },
      { name: 'price', selector: '.price', type: 'text' },
      { name: 'charges', selector: '.charges', type: 'text' },
      { name: 'beds', selector: '.beds', type: 'text' },
    ],
  },
});

const HOMES = [
  { address: '12 Harbour Street', price: '$2,150 / month', charges: 'fees $120 extra', beds: '3 beds' },
  { address: '7 Mill Lane', price: '$1,480 / month', charges: 'fees $95 extra', beds: '4 beds' },
  { address: '88 Orchard Road', price: '$3,200 / month', charges: 'fees $210 extra', beds: '2 beds' },
  { address: '3 Quarry Hill', price: '$2,390 / month', charges: 'fees $60 extra', beds: '5 beds' },
  { address: '41 Beacon Way', price: '$1,590 / month', charges: 'fees $150 extra', beds: '3 beds' },
  { address: '19 Tide Court', price: '$2,990 / month', charges: 'fees $85 extra', beds: '1 bed' },
];

const page = (body: string) => `<!doctype html><html><head><title>Homes</title></head><body><header><a href="/">Homes</a></header><main><h1>For sale</h1>${body}</main><footer><p>Homes Example</p></footer></body></html>`;

function v1(): string {
  return page(`<div class="listings">${HOMES.map((h) => `<div class="listing"><h3 class="address">${h.address}</h3><div class="price">${h.price.split(' / ')[0]}<small> / month</small></div><div class="charges">${h.charges}</div><span class="beds">${h.beds}</span></div>`).join('\n')}</div>`);
}

/** The redesign: the price and the charges note are two elements inside one price block. */
function v2(): string {
  return page(`<ul class="Results_list">${HOMES.map((h) => `<li class="Card_root"><h2 class="Card_addr">${h.address}</h2><div class="Card_money"><p class="Card_price"><b>${h.price.split(' / ')[0]}</b> / month</p><span class="Card_fees">${h.charges}</span></div><span class="Card_beds">${h.beds}</span></li>`).join('\n')}</ul>`);
}

const compiled = compileExtraction(SCHEMA);
const extract = (html: string, memory: SelectorMemory | null): ExtractionOutcome =>
  extractRecords(parseHtml(html), compiled, { pageUrl: 'https://homes.example/sale', memory, adaptive: true });

describe('a relocated field whose element wraps another field', () => {
  it('never gives the two values glued together', () => {
    const memory = parseSelectorMemory(JSON.parse(JSON.stringify(extract(v1(), null).memory)))!;
    const out = extract(v2(), memory);
    expect(out.adaptive.action).toBe('reused');
    for (const [k, record] of out.records.entries()) {
      expect(record.charges).toBe(HOMES[k].charges);
      expect(record.price).toBe(HOMES[k].price);
    }
  });
});
