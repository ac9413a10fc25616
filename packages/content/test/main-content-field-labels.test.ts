import { describe, expect, it } from 'vitest';
import { normalizeContent } from '../src/index.ts';
import { page } from './fixtures.ts';

/**
 * Failure class: a shop's collection page kept "Size" and "Type" under every product card. Each card holds a quick
 * variant picker: a `<label>` naming a `<select>`. The select goes with the other form controls, which left its
 * label naming nothing. A label naming a dropped field (`for` its id) or holding one goes with it. Labels of
 * checkboxes and radio buttons name the choice itself, and stay. Our own small HTML.
 */
const markdownOf = (body: string) =>
  normalizeContent({ body: Buffer.from(page(body, '<title>Coffee</title>')), contentType: 'text/html; charset=utf-8', url: 'https://roastery.example.com/collections/coffee' })
    .markdown;

const COFFEES = ['Harbour dark roast', 'Lighthouse espresso', 'Fog bank decaf', 'Breakwater medium roast', 'Skerry single origin', 'Tidewater cold brew'];

const card = (name: string, i: number) => `<li class="grid__item"><div class="card">
  <h3 class="card__heading"><a href="/products/${i}">${name}</a></h3><div class="price">$${17 + i}.99</div>
  <variant-selects class="no-js-hidden"><div class="product-form__input">
    <label class="form__label" for="Option-${i}-size">Size</label>
    <select id="Option-${i}-size" name="options[Size]"><option>12 oz bag</option><option>2 lb bag</option></select></div>
    <label class="form__label">Grind <select name="options[Grind]"><option>Whole bean</option><option>Ground</option></select></label>
  </variant-selects>
  <label><input type="checkbox" name="gift-${i}"> Gift wrapped in harbour chart paper</label></div></li>`;

describe('labels of fields the content drops', () => {
  it('go with their select, whether they name it or hold it; a checkbox’s label stays', () => {
    const md = markdownOf(`<main><h1>Coffee</h1><p>Roasted every Tuesday by the harbour and shipped the same week.</p><ul class="grid">${COFFEES.map(card).join('')}</ul></main>`);
    for (const name of COFFEES) expect(md).toContain(name);
    expect(md).toContain('Gift wrapped in harbour chart paper');
    expect(md).not.toMatch(/\bSize\b/);
    expect(md).not.toMatch(/\bGrind\b/);
  });

  it('keep a label whose id names no dropped field', () => {
    const md = markdownOf(
      `<main><h1>Coffee</h1><p>Roasted every Tuesday by the harbour and shipped the same week to every port on the coast.</p><label for="nowhere">Tasting notes: cocoa, cherry and sea salt</label></main>`,
    );
    expect(md).toContain('Tasting notes: cocoa, cherry and sea salt');
  });
});
