import { parseHtml } from '@trawl/content';
import { Extraction } from '@trawl/contract';
import { describe, expect, it } from 'vitest';
import { compileExtraction, extractRecords, parseSelectorMemory, type ExtractionOutcome, type SelectorMemory } from '../src/index.ts';

// A member of the winning group whose fields were taken from their neighbours' places (a price of another kind
// nobody recognizes, the fields around it each taking the next one's element) is still a record: those values are
// dropped, but the record is scored on what it holds and kept, with its other fields.

const SCHEMA = Extraction.parse({
  type: 'json_css',
  schema: {
    name: 'events',
    base_selector: 'li.event',
    fields: [
      { name: 'name', selector: '.summary', type: 'text' },
      { name: 'when', selector: 'time.start', type: 'attribute', attribute: 'datetime' },
      { name: 'venue', selector: '.venue', type: 'text' },
      { name: 'area', selector: '.locality', type: 'text' },
      { name: 'category', selector: '.category', type: 'text' },
      { name: 'price', selector: '.price', type: 'text' },
    ],
  },
});

const EVENTS = [
  { name: 'Harbour Jazz Night', when: '2025-06-12T20:00', venue: 'Pier Seven Hall', area: 'Docklands', category: 'Music', price: '€18' },
  { name: 'Pottery for Beginners', when: '2025-06-12T18:00', venue: 'Clay Studio North', area: 'Old Town', category: 'Workshop', price: '€40' },
  { name: 'Sunday Flea Market', when: '2025-06-13T10:00', venue: 'Market Square', area: 'Riverside', category: 'Market', price: 'Free' },
  { name: 'Chamber Strings: Brahms', when: '2025-06-13T19:30', venue: 'Concert Hall East', area: 'Uptown', category: 'Classical', price: '€25' },
  { name: 'Street Food Friday', when: '2025-06-14T17:00', venue: 'Canal Yard', area: 'Eastside', category: 'Food', price: '€5' },
  { name: 'Film under the Stars', when: '2025-06-14T21:30', venue: 'Castle Lawn', area: 'Hilltop', category: 'Film', price: '€12' },
  { name: 'Book Swap Morning', when: '2025-06-15T09:00', venue: 'Library Garden', area: 'Old Town', category: 'Community', price: 'Free' },
  { name: 'Salsa Social', when: '2025-06-15T20:00', venue: 'Dance Loft', area: 'Docklands', category: 'Dance', price: '€8' },
];

const page = (body: string) => `<!doctype html><html><head><title>Events</title></head><body><header><a href="/">Events</a></header><main><h1>This week</h1>${body}</main><footer><p>Events Example</p></footer></body></html>`;

function v1(): string {
  return page(`<ul class="agenda">${EVENTS.map((e) => `<li class="event"><a class="summary" href="/e/${e.when}">${e.name}</a> <time class="start" datetime="${e.when}">${e.when.slice(11)}</time>
  <div class="location"><span class="venue">${e.venue}</span>, <span class="locality">${e.area}</span></div>
  <span class="category">${e.category}</span> <span class="price">${e.price}</span></li>`).join('\n')}</ul>`);
}

function v2(): string {
  return page(`<section class="week"><div class="evts">${EVENTS.map((e) => `<article class="evt"><p class="evt-cat">${e.category}</p>
  <h3 class="evt-name"><a href="/e/${e.when}">${e.name}</a></h3>
  <p class="evt-when"><time datetime="${e.when}">${e.when.slice(11)}</time></p>
  <p class="evt-where"><span class="evt-venue">${e.venue}</span> <span class="evt-sep">·</span> <span class="evt-area">${e.area}</span></p>
  <div class="evt-foot"><span class="evt-price">${e.price}</span></div></article>`).join('\n')}</div></section>`);
}

const compiled = compileExtraction(SCHEMA);
const extract = (html: string, memory: SelectorMemory | null): ExtractionOutcome =>
  extractRecords(parseHtml(html), compiled, { pageUrl: 'https://events.example/week', memory, adaptive: true });

describe('a record whose fields took their neighbours\' places', () => {
  it('is kept, without the displaced values', () => {
    const memory = parseSelectorMemory(JSON.parse(JSON.stringify(extract(v1(), null).memory)))!;
    const out = extract(v2(), memory);
    expect(out.adaptive.action).toBe('reused');
    expect(out.records.map((r) => r.name)).toEqual(EVENTS.map((e) => e.name));
    for (const [k, record] of out.records.entries()) {
      for (const [field, value] of Object.entries(record)) if (value !== null) expect(value).toBe(EVENTS[k][field as keyof (typeof EVENTS)[number]]);
    }
  });
});
