import { Extraction } from '@trawl/contract';
import { describe, expect, it } from 'vitest';
import { compileExtraction } from '../src/index.ts';
import { redesign } from './helpers.ts';

// A redesign that turns a card's link inside out (the title heading was inside the link, now the link is inside
// the title heading: a > h3 → h2 > a) still relocates the title: a heading whose whole text sits in one inline
// child is compared with the remembered bare heading as the text leaf it was.

const URL = 'https://tools.example/catalog/saws';
export const SCHEMA = Extraction.parse({
  type: 'json_css',
  schema: {
    name: 'tools',
    base_selector: '#catalog .tool',
    fields: [
      { name: 'title', selector: '.tool__title', type: 'text' },
      { name: 'price', selector: '.tool__price', type: 'text' },
      { name: 'stock', selector: '.tool__stock', type: 'text' },
    ],
  },
});
const compiled = compileExtraction(SCHEMA);

const TOOLS = [
  { title: 'Japanese Pull Saw', price: '$42.00', stock: 'In stock' },
  { title: 'Coping Saw with Spare Blades', price: '$18.50', stock: 'Only 3 left' },
  { title: 'Folding Pruning Saw', price: '$27.90', stock: 'In stock' },
  { title: 'Hacksaw Frame, Adjustable', price: '$15.25', stock: 'Back soon' },
  { title: 'Dovetail Saw', price: '$64.00', stock: 'In stock' },
  { title: 'Flush Cut Saw', price: '$21.75', stock: 'Only 1 left' },
];

function page(list: string): string {
  return `<!doctype html><html><head><title>Saws</title></head><body><header><a href="/">Tools</a></header><main><h1>Saws</h1>${list}</main><footer><p>Tools Example</p></footer></body></html>`;
}

export function v1(): string {
  const items = TOOLS.map(
    (t, i) => `<div class="tool"><a class="tool__link" href="/t/${i}"><img class="tool__img" src="/i/${i}.jpg" alt="">
  <h3 class="tool__title">${t.title}</h3></a>
  <p class="tool__price">${t.price}</p><p class="tool__stock">${t.stock}</p></div>`,
  );
  return page(`<div id="catalog">${items.join('\n')}</div>`);
}

/** Generated class names; the image has its own link, the title heading (nested deeper, below the price) the other. */
export function v2(): string {
  const items = TOOLS.map(
    (t, i) => `<article class="a1"><a class="a2" href="/t/${i}"><img class="a3" src="/i/${i}.jpg" alt=""></a>
  <div class="a4"><p class="a6">${t.price}</p><header class="a8"><div class="a9"><div class="b2"><h2 class="a5"><a href="/t/${i}">${t.title}</a></h2><span class="b1">★ 4.5</span></div></div></header>
  <p class="a7">${t.stock}</p></div></article>`,
  );
  return page(`<section class="a0">${items.join('\n')}</section>`);
}

const { learned, extract } = redesign(compiled, URL, v1);

describe('a title heading that now holds its link', () => {
  it('is relocated as the text leaf it was', () => {
    const out = extract(v2());
    expect(out.adaptive.action).toBe('reused');
    expect(out.records).toEqual(TOOLS);
  });
});
