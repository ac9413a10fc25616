import { describe, expect, it } from 'vitest';
import { normalizeContent } from '../src/index.ts';
import { ARTICLE_PARAGRAPHS, page } from './fixtures.ts';

/**
 * Failure class: the author's bio box after (or before) the article ("Mara has written about the coast for twenty
 * years...") came back as part of it. The page's structured data describes the author as a schema.org Person; a
 * block opening with that description is the bio. Our own small HTML, written for the test.
 */
const BIO = 'Mara Quill writes about the coast for the Shoreline Weekly and has walked every cove between Falmouth and Penzance at low water at least twice.';

function head(type: string): string {
  const data = { '@context': 'https://schema.org', '@graph': [
    { '@type': type, headline: 'Life in the tide pools', author: { '@id': '#mara' } },
    { '@type': 'Person', '@id': '#mara', name: 'Mara Quill', description: BIO },
  ] };
  return `<title>Tide pools</title><script type="application/ld+json">${JSON.stringify(data)}</script>`;
}

const markdownOf = (body: string, type = 'BlogPosting') =>
  normalizeContent({ body: Buffer.from(page(body, head(type))), contentType: 'text/html; charset=utf-8', url: 'https://news.example.com/2026/tide-pools' }).markdown;

const ARTICLE = `<h1>Life in the tide pools</h1>${ARTICLE_PARAGRAPHS.map((p) => `<p>${p}</p>`).join('')}`;
const BOX = `<div class="about"><img src="/mara.jpg" alt="Mara Quill"><div><span><a href="/team/mara">Mara Quill</a></span><p>${BIO}</p></div></div>`;

describe('author bio beside an article', () => {
  it('drops the bio the structured data gives for the author, with its name and photo', () => {
    const md = markdownOf(`<main><div class="post">${ARTICLE}${BOX}</div></main>`);
    for (const p of ARTICLE_PARAGRAPHS) expect(md).toContain(p);
    expect(md).not.toContain('walked every cove');
    expect(md).not.toContain('/team/mara');
  });

  it('keeps a sentence of the article that merely names the author, and the bio on a page that is no article', () => {
    const md = markdownOf(`<main><div class="post">${ARTICLE}<p>Mara Quill writes about the coast every week; send her your tide pool photos.</p></div></main>`);
    expect(md).toContain('send her your tide pool photos');
    const profile = markdownOf(`<main><h1>Mara Quill</h1><p>${BIO}</p><p>${ARTICLE_PARAGRAPHS[0]}</p></main>`, 'ProfilePage');
    expect(profile).toContain('walked every cove');
  });
});
