import { describe, expect, it } from 'vitest';
import { normalizeContent } from '../src/index.ts';
import { ARTICLE_PARAGRAPHS, page } from './fixtures.ts';

/**
 * Failure class: a blog's archive (years, months, then every post's title as a link) in a sidebar that is a plain
 * <div> with names that say nothing. Thousands of words of long linked titles outweighed the article, and the
 * article came back inside the archive. Found by reading the dev pages with their landmarks turned into <div>s.
 * A tree of links (a list whose items hold lists of two or more items, mostly links, 100 words or more) is a menu
 * or an archive: it goes while it holds less than half of the page's estimated content. Our own small HTML.
 */
const markdownOf = (body: string, url = 'https://blog.example.com/2026/11/tide-pools') =>
  normalizeContent({ body: Buffer.from(page(body, '<title>Tide pools</title>')), contentType: 'text/html; charset=utf-8', url }).markdown;

const TITLES = ['Storm season arrives early on the north coast this year', 'Ferry timetable changes for the coming winter months', 'Harbour council agrees the dredging budget after a long night', 'A walk along the old pilgrim path to the island chapel', 'Counting seals from the cliff top with the volunteer rangers'];
const MONTHS = ['January', 'February', 'March', 'April', 'May', 'June'];

/** An archive by year and month, every post's title a link. */
const archive = (years: number[]) =>
  `<ul>${years
    .map((y) => `<li><a href="/${y}">${y}</a><ul>${MONTHS.map((m, mi) => `<li><a href="/${y}/${mi + 1}">${m}</a><ul>${TITLES.map((t, ti) => `<li><a href="/${y}/${mi + 1}/${ti}">${t} (${m} ${y})</a></li>`).join('')}</ul></li>`).join('')}</ul></li>`)
    .join('')}</ul>`;

const ARTICLE = `<div class="x1"><h1>Life in the tide pools</h1>${ARTICLE_PARAGRAPHS.map((p) => `<p>${p}</p>`).join('')}<p>${ARTICLE_PARAGRAPHS[0]}</p></div>`;

describe('a tree of links in a plain <div>', () => {
  it("drops a sidebar's archive that outweighs the article", () => {
    const md = markdownOf(`<div class="x0">${ARTICLE}<div class="x2"><h2>Archive</h2>${archive([2026, 2025, 2024])}</div></div>`);
    for (const p of ARTICLE_PARAGRAPHS) expect(md).toContain(p);
    expect(md).not.toContain('volunteer rangers (March 2025)');
  });

  it('keeps a sitemap, whose tree is the page', () => {
    const md = markdownOf(`<div class="x0"><h1>Sitemap</h1>${archive([2026, 2025])}</div>`, 'https://blog.example.com/sitemap');
    expect(md).toContain('volunteer rangers (March 2025)');
  });

  it('keeps a short list of resources with sub-items that closes the article', () => {
    const resources = '<h2>Resources</h2><ul><li><a href="/guide">The complete guide to the tide pools of the north coast</a></li><li><a href="/benefits">What a morning of rock pooling does for you</a><ul><li><a href="/adults">For adults</a></li><li><a href="/children">For children</a></li></ul></li><li><a href="/tables">This week\'s tide tables for every harbour on the coast</a></li><li><a href="/rangers">Join the volunteer rangers on their next shore walk</a></li></ul>';
    const md = markdownOf(`<div class="x0">${ARTICLE}${resources}</div>`);
    expect(md).toContain('[For children]');
  });
});
