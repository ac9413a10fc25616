import { describe, expect, it } from 'vitest';
import { normalizeContent } from '../src/index.ts';
import { ARTICLE_PARAGRAPHS, page } from './fixtures.ts';

/**
 * Failure class: a carousel or grid of teaser cards after the article ("more stories", the blog's latest posts),
 * each card a linked title, an excerpt of a few dozen words and a date. The excerpts read as prose, so the article
 * seemed to end after them and the cards came back with it. Our own small HTML, written for the test.
 */
const markdownOf = (body: string) =>
  normalizeContent({
    body: Buffer.from(page(body, '<title>Tide pools</title><meta property="og:type" content="article">')),
    contentType: 'text/html; charset=utf-8',
    url: 'https://shop.example.com/blogs/journal/tide-pools',
  }).markdown;

const ARTICLE = `<h1>Life in the tide pools</h1>${[
  ...ARTICLE_PARAGRAPHS,
  ...ARTICLE_PARAGRAPHS.map((p) => p.replace('The', 'Even so, the').replace('Visitors', 'Families')),
]
  .map((p) => `<p>${p}</p>`)
  .join('')}`;

const TEASERS = [
  ['Choosing a desk lamp for a small studio', 'Warm light, a heavy base and an arm that reaches the far corner of the desk matter more than the brand, and a dimmer saves your eyes late at night.'],
  ['A year in the workshop, looking back', 'We moved twice, planted an oak for every hundred orders and learned that customers care about the smell of fresh timber more than we ever guessed.'],
  ['How we dry walnut before it becomes a shelf', 'Boards rest for two summers under a tin roof, stacked with thin sticks between them, until the moisture meter reads below ten per cent in the core.'],
  ['Five stretches for people who sit all day', 'Roll the shoulders, open the chest against a door frame, and stand up every half hour; none of it needs a mat or a change of clothes.'],
];

function card(title: string, excerpt: string, i: number): string {
  return `<div class="slide"><div class="post-card"><figure><a href="/blogs/journal/post-${i}"><img src="/img/${i}.jpg" alt="${title}"></a></figure>
    <h3><a href="/blogs/journal/post-${i}">${title}</a></h3><div class="excerpt">${excerpt}</div><div class="date">Feb ${i + 3}, 2026</div></div></div>`;
}

describe('teaser cards after an article', () => {
  it('drops a carousel of teaser cards with excerpts that follows the article', () => {
    const md = markdownOf(
      `<main><section><div class="text">${ARTICLE}</div></section>
       <section><div class="head"><h2>Journal</h2><button>Previous</button><button>Next</button></div>
       <div class="track">${TEASERS.map(([t, e], i) => card(t, e, i)).join('')}</div></section></main>`,
    );
    for (const p of ARTICLE_PARAGRAPHS) expect(md).toContain(p);
    expect(md).not.toContain('desk lamp');
    expect(md).not.toContain('moisture meter');
  });

  it('keeps a closing list of resources, each a sentence with a link in it', () => {
    const resources = TEASERS.map(([t, e], i) => `<li>See <a href="/guides/${i}">${t}</a> for more: ${e}</li>`).join('');
    const md = markdownOf(`<main><div class="post">${ARTICLE}<h2>Further reading</h2><ul>${resources}</ul></div></main>`);
    expect(md).toContain(ARTICLE_PARAGRAPHS[1]);
    expect(md).toContain('moisture meter');
  });

  it('keeps a page of teaser cards when they are the page: a blog index with a short intro', () => {
    const many = [...TEASERS, ...TEASERS].map(([t, e], i) => card(`${t} ${i}`, e, i)).join('');
    const md = markdownOf(`<main><p>${ARTICLE_PARAGRAPHS[0]}</p><div class="grid">${many}</div></main>`);
    expect(md).toContain('desk lamp');
    expect(md).toContain('moisture meter');
  });
});
