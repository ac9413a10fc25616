import { describe, expect, it } from 'vitest';
import { normalizeContent } from '../src/index.ts';
import { ARTICLE_PARAGRAPHS, html, page, structuredHead } from './fixtures.ts';

describe('robustness', () => {
  it('handles 5,000 levels of nesting without overflowing the stack, keeping the text', () => {
    const depth = 5000;
    const body = page(`${'<div>'.repeat(depth)}<p>${ARTICLE_PARAGRAPHS[0]} <a href="/deep">deep link</a></p>${'</div>'.repeat(depth)}`);
    const result = normalizeContent(html(body));
    expect(result.markdown).toContain('Tide pools form where the sea retreats');
    expect(result.links).toContain('https://news.example.com/deep');
    expect(result.markdown).toContain('[deep link](https://news.example.com/deep)');
    expect(result.html).toContain('Tide pools form');
  });

  it('handles 5,000 levels of unclosed inline and list nesting', () => {
    const body = page(`${'<span><b><ul><li>'.repeat(1250)}bottom text`);
    expect(normalizeContent(html(body)).markdown).toContain('bottom text');
  });

  it('does not throw on malformed markup', () => {
    const broken = [
      '<html><body><p>Unclosed <b>bold <i>italic</p></div></span><table><tr><td>cell<td>cell</table></tr>',
      '<<<>>><p class="a"b"c">x</p><a href=">broken</a><img src=x onerror=alert(1)//',
      '</body></html><p>after the end</p><!-- unterminated comment',
      '<table><table><table><tr><p>misplaced</p></tr>',
      '<svg><script>alert(1)</script><foreignObject><p>inside</p></foreignObject></svg><math><mi>x</mi></math>',
      '',
    ];
    for (const markup of broken) expect(() => normalizeContent(html(markup))).not.toThrow();
    expect(normalizeContent(html(broken[2])).markdown).toContain('after the end');
  });

  it('does not throw on bytes that are not valid in the declared charset', () => {
    const garbage = Buffer.from([0x3c, 0x70, 0x3e, 0xff, 0xfe, 0x80, 0x81, 0xc3, 0x28, 0x00, 0x3c, 0x2f, 0x70, 0x3e]);
    for (const contentType of ['text/html; charset=utf-8', 'text/html; charset=shift_jis', 'text/html; charset=x-unknown', 'text/plain; charset=utf-16']) {
      expect(() => normalizeContent({ body: garbage, contentType, url: 'https://example.com/' })).not.toThrow();
    }
  });

  it('handles a large page with many links and blocks', () => {
    const items = Array.from({ length: 20_000 }, (_, i) => `<li><a href="/item/${i}">Item ${i}</a> costs ${i} coins</li>`).join('');
    const result = normalizeContent(html(page(`<main><h1>Catalogue</h1><ul>${items}</ul></main>`)));
    expect(result.links).toHaveLength(20_000);
    expect(result.markdown).toContain('Item 19999');
  });

  it('reads class and id values of 300,000 characters without a backtracking blow-up', () => {
    const long = `x-${'a'.repeat(300_000)}!header`;
    const body = page(`<main><div class="${long} ${long.replace('!', '-')}" id="${long}"><h2>${'tide '.repeat(3)}</h2><p>${ARTICLE_PARAGRAPHS[0]}</p></div></main>`);
    expect(normalizeContent(html(body)).markdown).toContain('Tide pools form where the sea retreats');
  });

  it('reads a button of 50,000 children, headings and questions in buttons, and a thread of 20,000 posts', () => {
    // A button's children are searched for a section title a few at a time, never spread into a call's arguments.
    const wide = `<button aria-expanded="false">${'<i>x</i>'.repeat(50_000)}<h3>Tide times?</h3></button>`;
    const toggles = Array.from({ length: 5_000 }, (_, i) => `<h3><button aria-expanded="false">Question ${i}?</button></h3><p>${ARTICLE_PARAGRAPHS[i % 3]}</p>`).join('');
    const md = normalizeContent(html(page(`<main>${wide}${toggles}</main>`))).markdown ?? '';
    expect(md).toContain('Question 4999?');
    const posts = Array.from({ length: 20_000 }, (_, i) => `<li class="message"><p>${ARTICLE_PARAGRAPHS[i % 3]} Reply ${i}.</p></li>`).join('');
    const thread = normalizeContent({ body: Buffer.from(page(`<ol>${posts}</ol>`)), contentType: 'text/html', url: 'https://forum.example.com/threads/tides.1/' });
    expect(thread.markdown).toContain('Reply 19999.');
  });

  it('reads 10,000 ad labels, a label block of 50,000 empty children, 2,000 sign-up forms and a grid of 20,000 cards', () => {
    // Interface labels are read at most 200 nodes deep; a sign-up box is looked for up to 50 words around its form.
    const labels = Array.from({ length: 10_000 }, (_, i) => `<p>${ARTICLE_PARAGRAPHS[i % 3]} Line ${i}.</p><p>Advertisement</p>`).join('');
    const wide = `<div>Advertisement${'<i></i>'.repeat(50_000)}</div>`;
    const forms = Array.from({ length: 2_000 }, () => `${'<div>'.repeat(100)}<form><input type="email"></form>${'</div>'.repeat(100)}`).join('');
    const md = normalizeContent(html(page(`<main><article><h1>Tides</h1>${labels}${wide}${forms}</article></main>`))).markdown ?? '';
    expect(md).toContain('Line 9999.');
    // The wide block is past the bound and stays: a label is never read that far.
    expect(md.match(/Advertisement/g)).toHaveLength(1);
    const cards = Array.from({ length: 20_000 }, (_, i) => `<div class="card"><a href="/p/${i}">Tide table ${i}</a><p>Harbour chart and almanac ${i}</p></div>`).join('');
    const grid = normalizeContent(html(page(`<main><h1>Charts</h1><div class="grid">${cards}</div><div class="guide">${ARTICLE_PARAGRAPHS.join(' ').repeat(3)}</div></main>`))).markdown ?? '';
    expect(grid).toContain('Tide table 19999');
  });

  it('reads a thread of 20,000 posts each quoting the one before', () => {
    // Quotes are compared by hashed six-word runs: one pass over the thread's words.
    const posts = Array.from({ length: 20_000 }, (_, i) => `<li class="post"><blockquote><cite>sailor${i} wrote:</cite> ${ARTICLE_PARAGRAPHS[i % 3]} Reply ${i - 1}.</blockquote><p>${ARTICLE_PARAGRAPHS[i % 3]} Reply ${i}.</p></li>`).join('');
    const thread = normalizeContent({ body: Buffer.from(page(`<ol>${posts}</ol>`)), contentType: 'text/html', url: 'https://forum.example.com/threads/tides.1/' });
    expect(thread.markdown).toContain('Reply 19999.');
    expect(thread.markdown).not.toContain('wrote:');
  });

  it("reads 8 structured product descriptions of 190,000 unclosed tags each, and 20,000 cards that all match one", () => {
    // Tags are stripped from a description without backtracking (text.ts withoutTags): a quadratic pattern took
    // half a minute on each of these.
    const product = (description: string) => ({ '@context': 'https://schema.org', '@type': 'Product', name: 'Tide clock', description });
    const scripts = Array.from({ length: 8 }, (_, k) => `<script type="application/ld+json">${JSON.stringify(product('<'.repeat(190_000 + k)))}</script>`).join('');
    const unclosed = normalizeContent(html(page(`<main><h1>Tide clock</h1><p>${ARTICLE_PARAGRAPHS[0]}</p></main>`, `<title>Tide clock</title>${scripts}`)));
    expect(unclosed.markdown).toContain('Tide pools form where the sea retreats');
    // Every card holds the description's words: each is compared once, and the last (smallest) one is kept.
    const cards = Array.from({ length: 20_000 }, (_, i) => `<div class="card"><p>Card ${i}. ${ARTICLE_PARAGRAPHS[0]}</p></div>`).join('');
    const grid = normalizeContent(html(page(`<main><h1>Tide clock</h1>${cards}</main>`, structuredHead('Tide clock', product(ARTICLE_PARAGRAPHS[0])))));
    expect(grid.markdown).toContain('Card 19999.');
  });

  it('reads 20,000 cookie notes side by side and 2,000 nested 100 deep, each judged once', () => {
    // A note's siblings are found from one table built once; each mention climbs to its note and stops there.
    const note = (i: number) => `<div>We use cookies to remember harbour berth ${i}. <a href="/privacy">Privacy</a></div>`;
    const side = normalizeContent(html(page(`<div><h1>Tides</h1><p>${ARTICLE_PARAGRAPHS.join(' ')}</p></div><div>${Array.from({ length: 20_000 }, (_, i) => note(i)).join('')}</div>`))).markdown;
    expect(side).toContain('Tide pools form where the sea retreats');
    const deep = Array.from({ length: 2_000 }, (_, i) => `${'<div>'.repeat(100)}${note(i)}${'</div>'.repeat(100)}`).join('');
    const nested = normalizeContent(html(page(`<div><h1>Tides</h1><p>${ARTICLE_PARAGRAPHS.join(' ')}</p></div>${deep}`))).markdown;
    expect(nested).toContain('Tide pools form where the sea retreats');
    expect(nested).not.toContain('berth 1999');
  });

  it('copes with a relative or invalid final URL', () => {
    const result = normalizeContent({ body: Buffer.from(page('<main><p><a href="/x">x</a> text</p></main>')), contentType: 'text/html', url: 'not a url' });
    expect(result.links).toEqual([]);
    expect(result.markdown).toContain('text');
  });
});
