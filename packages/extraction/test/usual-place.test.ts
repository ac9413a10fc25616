import { Extraction } from '@trawl/contract';
import { describe, expect, it } from 'vitest';
import { compileExtraction } from '../src/index.ts';
import { redesign } from './helpers.ts';

// Look-alike leaves can tie within one record: a one-word district beside a one-word "Free" price chip is as like
// the remembered district as the district itself, so that record alone cannot tell them apart (null). The other
// records of the page hold the district at one place of their shared template: that vote breaks the tie.

const URL = 'https://events.example/city/this-week';
const SCHEMA = Extraction.parse({
  type: 'json_css',
  schema: {
    name: 'events',
    base_selector: 'ul.agenda > li.event',
    fields: [
      { name: 'name', selector: 'a.event__name', type: 'text' },
      { name: 'district', selector: '.event__district', type: 'text' },
      { name: 'price', selector: '.event__price', type: 'text' },
    ],
  },
});
const compiled = compileExtraction(SCHEMA);

const EVENTS = [
  { name: 'Fado by the River', district: 'Alfama', price: '€25' },
  { name: 'Flea Market Morning', district: 'Graça', price: 'Free' },
  { name: 'Late Jazz Session', district: 'Chiado', price: '€15' },
  { name: 'Open Air Cinema', district: 'Belém', price: 'Free' },
  { name: 'Poetry at the Kiosk', district: 'Estrela', price: '€8' },
  { name: 'Harbour Lights Walk', district: 'Marvila', price: '€12' },
];

function page(body: string): string {
  return `<!doctype html><html><head><title>Agenda</title></head><body><header><a href="/">Agenda</a></header><main><h1>This week</h1>${body}</main><footer><p>Events Example</p></footer></body></html>`;
}

function v1(): string {
  const items = EVENTS.map(
    (e, i) => `<li class="event"><a class="event__name" href="/e/${i}">${e.name}</a>
  <div class="event__where"><span class="event__district">${e.district}</span></div>
  <div class="event__tags"><span class="event__price">${e.price}</span></div></li>`,
  );
  return page(`<ul class="agenda">${items.join('\n')}</ul>`);
}

/** Generated class names; the district and price chips become same-tag leaves one level down. */
function v2(): string {
  const items = EVENTS.map(
    (e, i) => `<article class="k1"><h3 class="k2"><a href="/e/${i}">${e.name}</a></h3>
  <p class="k3"><span class="k4">${e.district}</span></p>
  <div class="k5"><span class="k6">${e.price}</span></div></article>`,
  );
  return page(`<section class="k0">${items.join('\n')}</section>`);
}

const { learned, extract } = redesign(compiled, URL, v1);

describe('a field whose leaf ties with a look-alike chip in some records', () => {
  it('is taken from the place the other records of the page hold it at', () => {
    const out = extract(v2());
    expect(out.adaptive.action).toBe('reused');
    expect(out.records.map((r) => r.name)).toEqual(EVENTS.map((e) => e.name));
    expect(out.records.map((r) => r.district)).toEqual(EVENTS.map((e) => e.district));
  });
});
