import { parseHtml } from '@trawl/content';
import { Extraction } from '@trawl/contract';
import { describe, expect, it } from 'vitest';
import { compileExtraction, extractRecords, parseSelectorMemory, type ExtractionOutcome, type SelectorMemory } from '../src/index.ts';

// A label that is the same text in every card (a visually hidden "Compare" next to a checkbox, a "Report" link) is
// page chrome: after a redesign it must not be taken for an optional field whose text varied, or was absent, when
// memory learned it.

const URL = 'https://gear.example/tents';
const SCHEMA = Extraction.parse({
  type: 'json_css',
  schema: {
    name: 'tents',
    base_selector: 'div.item',
    fields: [
      { name: 'title', selector: 'h3.item-title a', type: 'text' },
      { name: 'price', selector: 'span.item-price', type: 'text' },
      { name: 'badge', selector: 'span.item-badge', type: 'text' },
    ],
  },
});
const compiled = compileExtraction(SCHEMA);

interface Tent {
  title: string;
  price: string;
  badge: string | null;
}

function tents(badges: (string | null)[]): Tent[] {
  const names = ['Ridge Two', 'Dune Dome', 'Fjord Tunnel', 'Alpine Solo', 'Meadow Four', 'Canyon Lite', 'Harbor Tarp', 'Glacier Pod'];
  return names.map((title, i) => ({ title, price: `$${129 + i * 40}.00`, badge: badges[i % badges.length] }));
}

function page(body: string): string {
  return `<!doctype html><html><head><title>Tents</title></head><body><header><a href="/">Home</a></header><main><h1>Tents</h1>${body}</main><footer><p>Gear Example</p></footer></body></html>`;
}

function v1(list: Tent[]): string {
  const cards = list.map(
    (t) => `<div class="item"><h3 class="item-title"><a href="/t/${t.title.length}">${t.title}</a></h3>
  <span class="item-price">${t.price}</span>${t.badge === null ? '' : `<span class="item-badge">${t.badge}</span>`}</div>`,
  );
  return page(`<div class="items">${cards.join('\n')}</div>`);
}

/** Renamed classes (the card's too, unless given), and in every card a checkbox with a visually hidden label. */
function v2(list: Tent[], card = 'tile'): string {
  const cards = list.map(
    (t) => `<div class="${card}"><label class="pick"><input type="checkbox" name="compare"><span class="visually-hidden">Compare</span></label>
  <h3 class="tile-name"><a href="/t/${t.title.length}">${t.title}</a></h3>
  <span class="tile-cost">${t.price}</span>${t.badge === null ? '' : `<span class="tile-flag">${t.badge}</span>`}</div>`,
  );
  return page(`<div class="tiles">${cards.join('\n')}</div>`);
}

function relocate(list: Tent[], card?: string): ExtractionOutcome {
  const learned = extractRecords(parseHtml(v1(list)), compiled, { pageUrl: URL, memory: null, adaptive: true });
  const memory: SelectorMemory = parseSelectorMemory(JSON.stringify(learned.memory))!;
  return extractRecords(parseHtml(v2(list, card)), compiled, { pageUrl: URL, memory, adaptive: true });
}

describe('a label repeated in every record', () => {
  it('is not an optional field whose text varied when learned', () => {
    const list = tents(['New', null, 'Last few left', null]);
    const out = relocate(list);
    expect(out.adaptive.action).toBe('reused');
    expect(out.records).toEqual(list.map((t) => ({ title: t.title, price: t.price, badge: t.badge })));
  });

  it('is not an optional field of one text shape that was sometimes absent', () => {
    const list = tents(['Sale', null, null, null]);
    const out = relocate(list);
    expect(out.adaptive.action).toBe('reused');
    expect(out.records).toEqual(list.map((t) => ({ title: t.title, price: t.price, badge: t.badge })));
  });

  it('is not taken for the field either when the base selector still matches', () => {
    const list = tents(['New', null, 'Last few left', null]);
    const out = relocate(list, 'item');
    expect(out.adaptive.action).toBe('reused');
    expect(out.records).toEqual(list.map((t) => ({ title: t.title, price: t.price, badge: t.badge })));
  });
});
