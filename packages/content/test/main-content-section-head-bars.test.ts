import { describe, expect, it } from 'vitest';
import { normalizeContent } from '../src/index.ts';
import { ARTICLE_PARAGRAPHS, page } from './fixtures.ts';

/**
 * Failure class: a section's title sits in a head bar with a few controls ("36 Comments · Oldest · Newest", "More
 * stories · See all"), and the comments or cards follow the bar, not the title. Where class names say "comments" the
 * whole thread went by its name; on a site whose classes are generated hashes (CSS modules, styled components) only
 * the title was dropped and the thread, longer than the article, came back with it. Found by scoring the dev pages
 * with every class and id replaced by a hash (README, "Main content"). Our own small HTML; no class names a word.
 */
const markdownOf = (body: string, head = '<title>Tide pools</title><meta property="og:type" content="article">') =>
  normalizeContent({ body: Buffer.from(page(body, head)), contentType: 'text/html; charset=utf-8', url: 'https://news.example.com/2026/11/tide-pools' }).markdown;

const ARTICLE = `<div class="x3f9a1"><h1>Life in the tide pools</h1>${ARTICLE_PARAGRAPHS.map((p) => `<p>${p}</p>`).join('')}</div>`;

const COMMENTS = [
  ['Suzanne', 'I went down to the rocks at Porthcurno last week and counted eleven anemones in a single pool, which is far more than I expected so late in the autumn season.'],
  ['Tyan', 'Please add a note about the weever fish that hide in warm shallow sand near some of these pools; a sting ruins a family day out and sends children to first aid.'],
  ['MK', 'The advice about turning stones back over is the most important part of the piece; I see people leave them upturned every weekend and the crabs underneath die.'],
  ['Jo', 'We used the tide table app mentioned here and it was off by twenty minutes for our bay, so check the harbour board as well before you walk out too far.'],
];

/** A comment the way a comment plugin draws it: author, a relative date, the text and its votes, in hashed divs. */
const comment = ([author, text]: string[], i: number) =>
  `<div class="xa1b2c3"><div class="xd4e5f6"><div class="x77aa01">${author}</div><div class="x77aa02">1 year ago</div></div><div class="x77aa03"><p>${text}</p></div><div class="x77aa04"><div>${i + 3}</div><div>0</div></div></div>`;

describe('a section whose title sits in a head bar, with class names that name nothing', () => {
  it('drops a comment thread that follows its "36 Comments · Oldest · Newest" bar', () => {
    const bar = '<div class="x0c0c01"><div class="x0c0c02"><span class="x0c0c03">36</span> Comments</div><div class="x0c0c04"><span>Oldest</span><span>Newest</span><span>Most Voted</span></div></div>';
    const md = markdownOf(`<div class="x9e9e01">${ARTICLE}<div class="x9e9e02">${bar}<div class="x9e9e03">${COMMENTS.map(comment).join('')}</div></div></div>`);
    for (const p of ARTICLE_PARAGRAPHS) expect(md).toContain(p);
    expect(md).not.toContain('weever fish');
    expect(md).not.toContain('Suzanne');
    expect(md).not.toContain('Most Voted');
  });

  it('drops the cards after a "More stories · See all" bar', () => {
    const cards = ['Storm season arrives early on the north coast', 'Ferry timetable changes for the winter months', 'Harbour council agrees the dredging budget'];
    const bar = '<div class="x5b5b01"><h2>More stories</h2><a href="/stories">See all</a></div>';
    const grid = `<div class="x5b5b02">${cards.map((c, i) => `<div class="x5b5b03"><a href="/s${i}"><img src="/s${i}.jpg" alt=""></a><h3><a href="/s${i}">${c}</a></h3><p>2 min read</p></div>`).join('')}</div>`;
    const md = markdownOf(`<div class="x9e9e01">${ARTICLE}<div class="x9e9e04">${bar}${grid}</div></div>`);
    for (const p of ARTICLE_PARAGRAPHS) expect(md).toContain(p);
    for (const c of cards) expect(md).not.toContain(c);
  });

  it("keeps what follows a page's own title (h1) and its standfirst, even when the title reads like a section's", () => {
    const repos = ['harbour-tides: tide tables for every harbour, updated hourly', 'kelp-map: the kelp forests of the north coast', 'gull-count: the yearly gull census and its scripts', 'ferry-board: live departures for the island ferries'];
    const head = '<div class="x1d1d00"><p>Stars are counted over the last day, and a repository can ask to be left out of this page.</p></div><div class="x1d1d01"><div class="x1d1d02"><h1>Trending</h1><p>See what the harbour community is most excited about today.</p></div></div>';
    const list = `<div class="x1d1d03"><div class="x1d1d04">${repos.map((r, i) => `<article class="x1d1d05"><h2><a href="/r${i}">${r.split(':')[0]}</a></h2><p>${r.split(': ')[1]}</p><span>${120 - i * 7} stars today</span></article>`).join('')}</div></div>`;
    const md = markdownOf(`${head}${list}`, '<title>Trending repositories</title>');
    for (const r of repos) expect(md).toContain(r.split(': ')[1]);
  });
});
