import { describe, expect, it } from 'vitest';
import { normalizeContent } from '../src/index.ts';
import { page } from './fixtures.ts';

/**
 * Failure class: the same short text twice in a row inside one card or block (a product card's title as a link over
 * its image and again as its heading, a heading rendered once for small screens and once for large ones). A reader
 * sees it once. Our own small HTML, written for the test.
 */
const markdownOf = (body: string) =>
  normalizeContent({ body: Buffer.from(page(body, '<title>Tide clocks</title>')), contentType: 'text/html; charset=utf-8', url: 'https://shop.example.com/collections/tide-clocks' }).markdown;

const NAMES = ['Oak tide clock', 'Walnut tide clock', 'Brass ship bell', 'Slate barometer', 'Cherry wall clock'];

function card(name: string, i: number): string {
  return `<li class="item"><div class="media"><a href="/p/${i}" class="media-link">${name}</a><div class="img"><img src="/i/${i}.jpg" alt=""></div></div>
    <div class="info"><h3 class="small-screens"><a href="/p/${i}">${name}</a></h3><h3 class="large-screens"><a href="/p/${i}">${name}</a></h3>
    <span class="price">£${40 + i}.00</span><p class="note">Free UK shipping</p></div></li>`;
}

const split = (md: string, text: string) => md.split(text).length - 1;

describe('a short text repeated in a row', () => {
  it('emits a card title once when the card repeats it as an image link and as headings', () => {
    const md = markdownOf(`<main><h1>Tide clocks</h1><p>Clocks, bells and barometers for a house by the sea.</p><ul class="grid">${NAMES.map(card).join('')}</ul></main>`);
    for (const name of NAMES) expect(split(md, name), name).toBe(1);
    expect(md).toContain('£42.00');
  });

  it("keeps the same label on every card of a grid: it is each card's own", () => {
    const md = markdownOf(`<main><h1>Tide clocks</h1><ul class="grid">${NAMES.map(card).join('')}</ul></main>`);
    expect(split(md, 'Free UK shipping')).toBe(NAMES.length);
  });

  it('keeps repeated lines of code and table cells', () => {
    const md = markdownOf(`<main><h1>Notes</h1><pre><code>retry now\nretry now\n</code></pre><table><tr><th>Day</th><th>Tide</th></tr><tr><td>Low water</td><td>06:10</td></tr><tr><td>Low water</td><td>18:32</td></tr></table></main>`);
    expect(split(md, 'retry now')).toBe(2);
    expect(split(md, 'Low water')).toBe(2);
  });
});
