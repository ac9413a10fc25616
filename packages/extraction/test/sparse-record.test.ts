import { parseHtml } from '@trawl/content';
import { Extraction } from '@trawl/contract';
import { describe, expect, it } from 'vitest';
import { compileExtraction, extractRecords, parseSelectorMemory, type ExtractionOutcome, type SelectorMemory } from '../src/index.ts';

// A relocated record that lacks several optional fields scores below the record threshold on what it holds, yet
// it is a record when it is marked as the kept records are (tag and classes of the element itself) and holds the
// fields it has where they hold them. A promo tile of the same group reusing the inner classes is still left out.

const URL = 'https://events.example/lisbon';
const SCHEMA = Extraction.parse({
  type: 'json_css',
  schema: {
    name: 'events',
    base_selector: 'ul.agenda > li.vevent',
    fields: [
      { name: 'name', selector: 'a.summary', type: 'text' },
      { name: 'start', selector: 'time.dtstart', type: 'attribute', attribute: 'datetime' },
      { name: 'venue', selector: '.venue', type: 'text' },
      { name: 'area', selector: '.locality', type: 'text' },
      { name: 'category', selector: '.category', type: 'text' },
      { name: 'price', selector: '.price', type: 'text' },
      { name: 'note', selector: '.note', type: 'text' },
    ],
  },
});
const compiled = compileExtraction(SCHEMA);

interface Event { name: string; start: string; venue: string; area: string | null; category: string | null; price: string | null; note: string | null }
const full = (k: number): Event => ({
  name: `Evening concert ${k}`,
  start: `2025-06-${10 + k}T19:00`,
  venue: `Hall ${String.fromCharCode(65 + k)}`,
  area: 'Alfama',
  category: k % 2 === 0 ? 'music' : 'theatre',
  price: `€${10 + k}`,
  note: k % 3 === 0 ? 'Last seats' : null,
});
const EVENTS: Event[] = [0, 1, 2, 3, 4, 5, 6, 7].map(full);
// Two sparse events: no area, category, price or note.
EVENTS[3] = { ...EVENTS[3], area: null, category: null, price: null, note: null };
EVENTS[6] = { ...EVENTS[6], area: null, category: null, price: null, note: null };

const opt = (v: string | null, f: (v: string) => string) => (v === null ? '' : f(v));

function page(body: string): string {
  return `<!doctype html><html><head><title>Agenda</title></head><body><header><a href="/">Events</a></header><main><h1>Agenda</h1>${body}</main><footer><p>Events Example</p></footer></body></html>`;
}

function v1(): string {
  const items = EVENTS.map(
    (e) => `<li class="vevent"><a class="summary" href="/e/${e.start}">${e.name}</a> <time class="dtstart" datetime="${e.start}">19:00</time>
  <div class="where"><span class="venue">${e.venue}</span>${opt(e.area, (a) => `, <span class="locality">${a}</span>`)}</div>
  ${opt(e.category, (c) => `<span class="category">${c}</span>`)}${opt(e.price, (p) => `<span class="price">${p}</span>`)}${opt(e.note, (n) => `<em class="note">${n}</em>`)}</li>`,
  );
  return page(`<ul class="agenda">${items.join('\n')}</ul>`);
}

/** Classes renamed, records become articles, and a promo tile reusing the inner classes sits among them. */
function v2(): string {
  const items = EVENTS.map(
    (e) => `<article class="evt"><p class="evt-cat">${e.category ?? ''}</p><h3 class="evt-name"><a href="/e/${e.start}">${e.name}</a></h3>
  <p class="evt-when"><time datetime="${e.start}">19:00</time></p>
  <p class="evt-where"><span class="evt-venue">${e.venue}</span>${opt(e.area, (a) => `, <span class="evt-area">${a}</span>`)}</p>
  <div class="evt-foot">${opt(e.price, (p) => `<span class="evt-price">${p}</span>`)}${opt(e.note, (n) => `<em class="evt-note">${n}</em>`)}<a class="evt-ics" href="/ics">+</a></div></article>`,
  );
  items.splice(4, 0, `<article class="promo-tile"><p class="evt-cat">Pass</p><h3 class="evt-name"><a href="/pass">City pass</a></h3><div class="evt-foot"><span class="evt-price">€49</span><a class="evt-ics" href="/ics">+</a></div></article>`);
  return page(`<div class="days">${items.join('\n')}</div>`);
}

function extract(html: string, memory: SelectorMemory | null): ExtractionOutcome {
  return extractRecords(parseHtml(html), compiled, { pageUrl: URL, memory, adaptive: true });
}

describe('a sparse record', () => {
  it('is kept when marked like the other records and holding its fields at their places; a promo tile is not', () => {
    const memory = parseSelectorMemory(JSON.stringify(extract(v1(), null).memory))!;
    const out = extract(v2(), memory);
    expect(out.adaptive.action).toBe('reused');
    const names = out.records.map((r) => r.name);
    expect(names).toEqual(EVENTS.map((e) => e.name));
    // Never a value of another record or of the promo.
    out.records.forEach((r, k) => {
      for (const key of Object.keys(EVENTS[k]) as (keyof Event)[]) expect([null, EVENTS[k][key]]).toContain(r[key]);
    });
  });
});
