import { describe, expect, it } from 'vitest';
import { normalizeContent } from '../src/index.ts';
import { ARTICLE_PARAGRAPHS, page } from './fixtures.ts';

/**
 * One fixture per failure class of main-content selection seen on pages we do not have (README, "Main content"):
 * each is our own small HTML written for the test.
 */
const markdownOf = (body: string, url = 'https://news.example.com/2026/11/tide-pools', head = '<title>Tide pools</title>') =>
  normalizeContent({ body: Buffer.from(page(body, head)), contentType: 'text/html; charset=utf-8', url }).markdown;

const ARTICLE = `<h1>Life in the tide pools</h1>${ARTICLE_PARAGRAPHS.map((p) => `<p>${p}</p>`).join('')}`;
const ARTICLE_HEAD = '<title>Tide pools</title><meta property="og:type" content="article">';

function comment(author: string, text: string): string {
  return `<li class="c"><div class="meta"><b>${author}</b> <time datetime="2026-11-20">20 Nov 2026</time> <a href="#r">Reply</a></div><p>${text}</p></li>`;
}
const LONG_COMMENTS = [
  comment('gullwatcher', 'I went down to the rocks at Porthcurno last week and counted eleven anemones in a single pool, which is far more than I expected so late in the autumn season.'),
  comment('kelpfan', 'Please add a note about the weever fish that hide in warm shallow sand near some of these pools; a sting ruins a family day out and sends children to first aid.'),
  comment('rockhopper', 'The advice about turning stones back over is the most important part of the piece; I see people leave them upturned every weekend and the crabs underneath die.'),
  comment('shoreline', 'We used the tide table app mentioned here and it was off by twenty minutes for our bay, so check the harbour board as well before you walk out too far.'),
  comment('limpet', 'Lovely article. Our school group visited with a ranger who showed us how limpets return to the exact same scar on the rock after grazing at high tide.'),
].join('');

describe('main content failure classes', () => {
  it('drops a comment thread longer than the article it follows', () => {
    const md = markdownOf(`<main><article>${ARTICLE}</article><section><h2>5 Comments</h2><ol>${LONG_COMMENTS}</ol></section></main>`, undefined, ARTICLE_HEAD);
    for (const p of ARTICLE_PARAGRAPHS) expect(md).toContain(p);
    expect(md).not.toContain('gullwatcher');
    expect(md).not.toContain('weever fish');
  });

  it('knows a comment section in the page language, and schema.org comments, without class names', () => {
    const de = markdownOf(`<div>${ARTICLE}<div><h3>Kommentare (5)</h3><ul>${LONG_COMMENTS}</ul></div></div>`);
    expect(de).toContain(ARTICLE_PARAGRAPHS[2]);
    expect(de).not.toContain('limpets return');
    const microdata = LONG_COMMENTS.replaceAll('<li class="c">', '<li itemprop="comment" itemscope itemtype="https://schema.org/Comment">');
    const md = markdownOf(`<div>${ARTICLE}<ul>${microdata}</ul></div>`, undefined, ARTICLE_HEAD);
    expect(md).toContain(ARTICLE_PARAGRAPHS[0]);
    expect(md).not.toContain('rockhopper');
  });

  it("drops comments after an article whose page also carries an FAQ block: an FAQ's questions are no thread", () => {
    const faq = `<script type="application/ld+json">${JSON.stringify({ '@context': 'https://schema.org', '@type': 'FAQPage', mainEntity: [{ '@type': 'Question', name: 'When is low tide?', acceptedAnswer: { '@type': 'Answer', text: 'Twice a day.' } }] })}</script>`;
    const md = markdownOf(`<main><article>${ARTICLE}</article><section><h2>5 Comments</h2><ol>${LONG_COMMENTS}</ol></section></main>`, undefined, `${ARTICLE_HEAD}${faq}`);
    expect(md).toContain(ARTICLE_PARAGRAPHS[0]);
    expect(md).not.toContain('weever fish');
  });

  it("keeps an article's own header with its title and standfirst, and drops a header of links there", () => {
    const head = '<header class="post__header"><h1>Life in the tide pools</h1><p class="dek">What lives between the tides, and how to look without harming it, on a calm morning in late autumn.</p></header>';
    const md = markdownOf(`<main><article>${head}${ARTICLE_PARAGRAPHS.map((p) => `<p>${p}</p>`).join('')}<header class="tags"><a href="/t/a">Shore</a> <a href="/t/b">Rock pools</a> <a href="/t/c">Autumn</a></header></article></main>`, undefined, ARTICLE_HEAD);
    expect(md).toContain('how to look without harming it');
    expect(md).toContain(ARTICLE_PARAGRAPHS[0]);
    expect(md).not.toContain('Rock pools');
  });

  it("drops the article's footnote list and keeps its text with the footnote marks", () => {
    const notes = Array.from({ length: 3 }, (_, i) => `<li id="fn-${i}">Marine Biology Society. Intertidal survey methods, volume ${i + 1}. Plymouth: Harbour Press, 20${10 + i}, pages ${i * 10}-${i * 10 + 9}. <a href="#ref-${i}">↩</a></li>`).join('');
    const paragraphs = [...ARTICLE_PARAGRAPHS, ...ARTICLE_PARAGRAPHS.map((p) => p.replace('The', 'Again, the'))];
    const body = paragraphs.map((p, i) => `<p>${p}<sup id="ref-${i}"><a href="#fn-${i}">[${i + 1}]</a></sup></p>`).join('');
    const md = markdownOf(`<main><article><h1>Life in the tide pools</h1>${body}<div class="footnotes"><ol>${notes}</ol></div></article></main>`, undefined, ARTICLE_HEAD);
    expect(md).toContain(ARTICLE_PARAGRAPHS[0]);
    expect(md).toContain('#fn-0)');
    expect(md).not.toContain('Intertidal survey methods');
  });

  it("drops an encyclopedia page's reference list and external links and keeps its text", () => {
    // A wiki's citations: <div class="reflist"><ol class="references">, each with its "^" backlink.
    const refs = Array.from({ length: 6 }, (_, i) => `<li id="cite-${i}"><a href="#r-${i}">^</a> "Tide tables of the northern coast, part ${i + 1}". Harbour Archive. Archived from the original on 2010-0${(i % 9) + 1}-12.</li>`).join('');
    const paragraphs = [...ARTICLE_PARAGRAPHS, ...ARTICLE_PARAGRAPHS.map((p) => p.replace('The', 'Again, the'))];
    const body = paragraphs.map((p, i) => `<p>${p}<sup id="r-${i}"><a href="#cite-${i}">[${i + 1}]</a></sup></p>`).join('');
    for (const list of [`<div class="reflist"><ol class="references">${refs}</ol></div>`, `<ol class="citations">${refs}</ol>`]) {
      const links = '<h2>External links</h2><ul><li><a href="https://tides.example.org/">Official tide tables</a> of the coastguard</li><li><a href="https://pools.example.org/">Rock pool atlas</a></li></ul>';
      const md = markdownOf(`<main><h1>Tide pool</h1>${body}<h2>References</h2>${list}${links}</main>`);
      expect(md, list.slice(0, 30)).toContain(ARTICLE_PARAGRAPHS[0]);
      expect(md, list.slice(0, 30)).not.toContain('Harbour Archive');
      expect(md, list.slice(0, 30)).not.toContain('Rock pool atlas');
    }
    // A page that is a reference list keeps it.
    const bibliography = markdownOf(`<main><h1>Sources</h1><div class="references"><ol>${refs}</ol></div></main>`);
    expect(bibliography).toContain('Harbour Archive');
  });

  it('keeps the replies of a discussion: on a forum they are the content', () => {
    for (const url of ['https://forum.example.com/t/tide-pools/4012', 'https://shore.example.com/t/4012/tide-pools', 'https://shore.example.com/topic/4012-tide-pools']) {
      const md = markdownOf(`<div>${ARTICLE}<h2>5 Replies</h2><ul>${LONG_COMMENTS}</ul></div>`, url);
      expect(md, url).toContain('weever fish');
      expect(md, url).toContain('limpets return');
    }
  });

  it("keeps a thread's replies when its first post holds most of the words", () => {
    const opening = [...ARTICLE_PARAGRAPHS, ...ARTICLE_PARAGRAPHS.map((p) => p.replace('The', 'Again, the')), ...ARTICLE_PARAGRAPHS.map((p) => p.replace('The', 'And the'))];
    const post = (author: string, body: string) => `<li class="message"><div class="user"><b>${author}</b></div><article><blockquote class="messageText">${body}</blockquote></article></li>`;
    const replies = [
      'Counted eleven anemones at Porthcurno last week, far more than I expected this late in the autumn, and two of them were a colour I had never seen before.',
      'Watch for weever fish in the warm sand near the pools; a sting ends a family day out very quickly, and the nearest first aid hut shuts at five.',
      'Turn every stone back over, please: I find them upturned every weekend on the north beach, and the crabs and worms that lived underneath them die in the sun.',
    ];
    // Boxes alike beside the thread ("Similar threads", "Who is reading") are no replies.
    const box = (title: string) => `<div class="block"><h3>${title}</h3><ul><li><a href="/t/1">Rock pools at dawn</a></li><li><a href="/t/2">Best boots</a></li></ul></div>`;
    const md = markdownOf(
      `<div class="thread"><div class="block"><ol class="messages">${post('rockhopper', opening.map((p) => `${p}<br><br>`).join(''))}${replies.map((r, i) => post(`reader${i}`, r)).join('')}</ol></div>${box('Similar threads')}${box('Users viewing this thread')}</div>`,
      'https://forum.example.com/threads/tide-pools.4012/',
    );
    expect(md).toContain(ARTICLE_PARAGRAPHS[0]);
    for (const reply of replies) expect(md).toContain(reply);
    expect(md).not.toContain('Rock pools at dawn');
  });

  it('does not take a topic section or a /t/ product path for a thread', () => {
    for (const url of ['https://news.example.com/topic/oceans/', 'https://shop.example.com/t/tide-pool-net-blue/NX-2']) {
      const md = markdownOf(`<main><article>${ARTICLE}</article><section><h2>5 Comments</h2><ol>${LONG_COMMENTS}</ol></section></main>`, url, ARTICLE_HEAD);
      expect(md, url).toContain(ARTICLE_PARAGRAPHS[0]);
      expect(md, url).not.toContain('weever fish');
    }
  });

  it('returns the long article the page declares, not a short teaser in <main>', () => {
    const body = ARTICLE_PARAGRAPHS.join(' ');
    const jsonLd = `<script type="application/ld+json">${JSON.stringify({ '@context': 'https://schema.org', '@type': 'NewsArticle', headline: 'Tide pools', articleBody: `${body} ${body}` })}</script>`;
    const md = markdownOf(
      `<main><div class="teaser"><h2>Also today</h2><p>Harbour fees rise in spring, the council says, after a vote on Tuesday evening.</p></div></main>
       <div class="story"><h1>Life in the tide pools</h1>${[...ARTICLE_PARAGRAPHS, ...ARTICLE_PARAGRAPHS.map((p) => p.replace('The', 'Again, the'))].map((p) => `<p>${p}</p>`).join('')}</div>`,
      undefined,
      `<title>Tide pools</title>${jsonLd}`,
    );
    expect(md).toContain(ARTICLE_PARAGRAPHS[1]);
    expect(md).not.toContain('Harbour fees rise');
  });

  it('drops related, recommended and "more from" blocks after the article, in any language', () => {
    const teasers = (n: number) => `<ul>${Array.from({ length: n }, (_, i) => `<li><a href="/story/${i}">Storm season story number ${i}</a></li>`).join('')}</ul>`;
    for (const heading of ['Related articles', 'You may also like', 'More from Shoreline Weekly', 'Lire aussi', 'Das könnte Sie auch interessieren', '関連記事', 'From the blog', 'Featured insights', 'Related services', 'Related publications']) {
      const md = markdownOf(`<div class="wrap">${ARTICLE}<div class="box"><div class="box-title"><h3>${heading}</h3></div><div class="box-body">${teasers(6)}</div></div></div>`);
      expect(md, heading).toContain(ARTICLE_PARAGRAPHS[2]);
      expect(md, heading).not.toContain('Storm season story');
      expect(md, heading).not.toContain(heading);
    }
  });

  it('drops "Also read: [another story]" lines between the paragraphs, in any language, and keeps prose with links', () => {
    const teasers = [
      '<p>Also read: <a href="/s/1">Storm season opens early on the north coast</a></p>',
      '<p><strong>RELATED:</strong> <a href="/s/2">Storm season and the harbour wall repairs</a></p>',
      '<blockquote><p>» READ MORE: <a href="/s/3">Storm season diary, week three</a></p></blockquote>',
      '<p>Lire aussi : <a href="/s/4">Storm season en Bretagne</a></p>',
    ];
    const kept = '<p>Related work by the <a href="/survey">harbour survey team</a> counted the pools twice a day for a whole year.</p>';
    const body = ARTICLE_PARAGRAPHS.map((p, i) => `<p>${p}</p>${teasers[i] ?? ''}`).join('') + teasers[3] + kept;
    const md = markdownOf(`<main><article><h1>Life in the tide pools</h1>${body}</article></main>`, undefined, ARTICLE_HEAD);
    for (const p of ARTICLE_PARAGRAPHS) expect(md).toContain(p);
    expect(md).not.toContain('Storm season');
    expect(md).toContain('counted the pools twice a day');
  });

  it('emits a hidden duplicate of the article body once (display:none, hidden, aria-hidden)', () => {
    for (const hide of ['style="display: none"', 'hidden', 'aria-hidden="true"']) {
      const copy = `<div itemscope itemtype="https://schema.org/Article" ${hide}>${ARTICLE_PARAGRAPHS.map((p) => `<p>${p}</p>`).join('')}</div>`;
      const md = markdownOf(`<div class="story">${ARTICLE}${copy}</div>`);
      for (const p of ARTICLE_PARAGRAPHS) expect(md.split(p), hide).toHaveLength(2);
    }
  });

  it('keeps the same blurb on two items of a listing, and still emits a repeated paragraph once elsewhere', () => {
    const blurb = 'The harbour society meets on the first Monday of every month to plan the season of talks and walks.';
    const events = ['Spring tides walk', 'Knot tying evening', 'Seal count', 'Lighthouse talk']
      .map((title, i) => `<li><h3>${title}</h3><p>${i % 2 ? blurb : `${title} is led by a volunteer warden and starts from the north quay at ten sharp, whatever the weather does.`}</p></li>`)
      .join('');
    const listing = markdownOf(`<main><h1>Harbour events</h1><ul class="events">${events}</ul></main>`);
    expect(listing.split(blurb)).toHaveLength(3);
    const article = markdownOf(`<div class="story">${ARTICLE}<p>${blurb}</p><div><p>${blurb}</p></div></div>`);
    expect(article.split(blurb)).toHaveLength(2);
  });

  it('finds a repeat whose copy differs in case, spacing and accented capitals, and keeps same-length paragraphs that differ', () => {
    const text = 'Élodie Marchand counted the ANEMONES of the north pool by the café on the first spring tide of the year with her class.';
    const copy = `<div hidden><p>  ${text.toUpperCase().replace(/ /g, '\n  ')} </p></div>`;
    // Same length, other words: compared by their text, never by their length alone.
    const twin = 'Élodie Marchand counted the ANEMONES of the south pool by the café on the first spring tide of the year with her class.';
    const md = markdownOf(`<div class="story">${ARTICLE}<p>${text}</p><p>${twin}</p>${copy}</div>`);
    expect(md.split(text)).toHaveLength(2);
    expect(md.split(text.toUpperCase())).toHaveLength(1);
    expect(md).toContain(twin);
  });

  it('drops a ticker of headlines above the article and a list of topic links below it, inside its container', () => {
    const links = (words: string[]) => `<ul>${words.map((w) => `<li><a href="/t/${w}">${w}</a></li>`).join('')}</ul>`;
    const md = markdownOf(`<div class="story">${links(['Markets', 'Weather', 'Ferries', 'Fishing'])}${ARTICLE}${links(['Ecology', 'Cornwall', 'Wildlife', 'Beaches'])}</div>`);
    expect(md).toContain(ARTICLE_PARAGRAPHS[0]);
    for (const w of ['Markets', 'Ferries', 'Ecology', 'Beaches']) expect(md).not.toContain(w);
  });

  it('drops a grid of teaser cards after the article, headed or not', () => {
    const card = (i: number) => `<div class="card"><a href="/s/${i}"><h4>Harbour story ${i}</h4><span>Two minute read</span></a></div>`;
    const md = markdownOf(`<div class="story">${ARTICLE}<div class="grid">${[1, 2, 3, 4].map(card).join('')}</div></div>`);
    expect(md).toContain(ARTICLE_PARAGRAPHS[1]);
    expect(md).not.toContain('Harbour story');
  });

  it('keeps a list of links that is part of the article', () => {
    const md = markdownOf(`<div class="story">${ARTICLE}<p>Further tide tables for the region:</p><ul><li><a href="/a">Falmouth</a></li><li><a href="/b">Penzance</a></li><li><a href="/c">St Ives</a></li></ul><p>${ARTICLE_PARAGRAPHS[0].replace('Tide pools', 'Rock pools')}</p></div>`);
    expect(md).toContain('Falmouth');
  });

  it("does not let the site's footer pass as content, however much text it holds", () => {
    const testimonials = Array.from({ length: 8 }, (_, i) => `<p>Customer ${i} says the harbour tours were the best part of the holiday and the skipper knew every seal by name, which the children loved.</p>`).join('');
    const md = markdownOf(`<div class="product"><h1>Harbour tour</h1><p>A two hour boat tour of the inner harbour and the seal colony, leaving from the north quay at ten and two.</p></div><footer class="site">${testimonials}</footer>`);
    expect(md).toContain('two hour boat tour');
    expect(md).not.toContain('Customer 3 says');
  });

  it("drops a specification table's tooltips and keeps its rows", () => {
    const tip = (text: string, how: string) => (how === 'tag' ? `<tool-tip class="tool-tip"><span>More information</span><div class="tool-tip__content">${text}</div></tool-tip>` : `<span role="tooltip">${text}</span>`);
    const rows = [
      ['Impedance', '37 ohm', 'Impedance measures how much a pair of headphones resists the current an amplifier sends, so higher values need more power.', 'tag'],
      ['Sensitivity', '94 dB', 'Sensitivity measures how loud a pair of headphones plays at a given signal strength, so higher values play louder.', 'role'],
    ].map(([name, value, text, how]) => `<tr><td>${name} ${tip(text, how)}</td><td>${value}</td></tr>`).join('');
    const md = markdownOf(`<main><h1>Sundial over-ear headphones</h1><p>Open-back planar headphones with a wide, natural stage for long listening sessions at home.</p><table>${rows}</table></main>`, 'https://shop.example.com/sundial');
    expect(md).toContain('37 ohm');
    expect(md).toContain('94 dB');
    expect(md).not.toContain('resists the current');
    expect(md).not.toContain('plays at a given signal');
  });

  it('on a product page keeps the description and specifications and drops recommendation strips and legal notes', () => {
    const cards = (label: string) => `<ul>${Array.from({ length: 5 }, (_, i) => `<li><a href="/p/${label}${i}">${label} model ${i}</a> <span>£${20 + i}.00</span></li>`).join('')}</ul>`;
    const md = markdownOf(
      `<main><div class="pdp"><h1>Tide clock, oak</h1><p>An oak tide clock with a brass bezel that shows the hours to high and low water for any coast with two tides a day.</p>
       <table><tr><th>Diameter</th><td>25 cm</td></tr><tr><th>Battery</th><td>AA, included</td></tr></table></div>
       <section><h2>Customers also bought</h2>${cards('Barometer')}</section>
       <section><h2>Recently viewed</h2>${cards('Ship bell')}</section>
       <section><h2>Related searches</h2>${cards('Brass clock')}</section>
       <section><h2>Related categories</h2>${cards('Weather station')}</section>
       <section><h2>YOUR RECENTLY VIEWED ITEMS</h2>${cards('Sextant')}</section>
       <div class="legal-copy"><p>Prices include VAT where applicable. Offer subject to availability; see terms of sale.</p></div>
       <div class="site-notice"><p>Orders placed after noon on Friday ship on Monday.</p></div></main>`,
      'https://shop.example.com/tide-clock-oak',
    );
    expect(md).toContain('brass bezel');
    expect(md).toContain('25 cm');
    for (const strip of ['Barometer model', 'Ship bell model', 'Brass clock model', 'Weather station model', 'Sextant model', 'terms of sale', 'ship on Monday']) expect(md).not.toContain(strip);
  });
});
