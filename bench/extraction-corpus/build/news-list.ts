import type { ExtractedRecord, ExtractionRequest } from '../../support/extraction-corpus.ts';
import { attr, cookieBanner, doc, ent, esc, links, slug } from './html.ts';
import { attribute, list, template, text, type SiteBuild } from './site.ts';

// A news site's section front. v1 is BEM markup from a CMS theme; v2 is a Tailwind rebuild: utility classes
// shared by every block, <article> stories, the kicker and time moved, the image after the summary, an
// advertisement slot and a newsletter block (an <article> with a heading and a paragraph) between the stories,
// and links written relative to the section.

const PAGE_URL = 'https://news.example.test/world';

interface Story {
  kicker: string;
  headline: string;
  summary: string;
  /** The summary as the CMS writes it (emphasis, entities). */
  summaryHtml: string;
  authors: string[];
  datetime: string;
  ago: string;
  path: string;
  image: string | null;
  comments: number | null;
}

const RAW: [string, string, string, string[], number | null, boolean][] = [
  ['Climate', 'Monsoon floods displace 40,000 in Assam as rivers crest', 'Officials said the Brahmaputra rose *above* the danger mark at six gauges overnight.', ['Priya Nair'], 214, true],
  ['Elections', 'Runoff looms after no candidate clears 50% in first round', 'Turnout fell to 61%, the lowest since the 1990s, according to the electoral commission.', ['Tom Fell', 'Ana Ruiz'], 88, true],
  ['Trade', 'Port strike enters second week, stranding 300 container ships', 'Dockworkers\u2019 unions rejected a revised offer late on Tuesday.', ['Ana Ruiz'], null, true],
  ['Health', 'WHO adds two antibiotics to its essential medicines list', 'The update also removes a malaria drug that has lost *most* of its efficacy.', [], 12, false],
  ['Europe', 'Rail tunnel under the Alps opens a year ahead of schedule', 'The 57 km route cuts the Zurich\u2013Milan journey to under three hours.', ['Lukas Brandt'], 47, true],
  ['Asia', 'Typhoon Mawar weakens as it nears Okinawa', 'Flights remain suspended and schools are closed for a second day.', ['Kenji Watanabe'], null, true],
  ['Science', 'Deep-sea survey finds 30 species new to science', 'Researchers used a remotely operated vehicle at depths of up to 4,800 m.', ['Maya Ortiz', 'Jon Eriksen'], 156, true],
  ['Economy', 'Central bank holds rates, signals cuts later in the year', 'Inflation eased to 2.4% in May, close to the bank\u2019s target.', ['Tom Fell'], 301, false],
  ['Africa', 'Solar mini-grids reach 5 million homes, report says', 'Most of the growth came from pay-as-you-go systems in East Africa.', ['Amara Okafor'], null, true],
  ['Americas', 'Drought forces new limits on Panama Canal transits', 'Daily slots will fall from 32 to 24 starting next month.', ['Luis Herrera'], 39, true],
  ['Middle East', 'Ceasefire talks resume in Cairo with new proposal', 'Mediators described the atmosphere as \u201cconstructive but fragile\u201d.', [], null, false],
  ['Technology', 'Undersea cable cut slows internet across West Africa', 'Repairs could take weeks as the specialised ship is in the Atlantic.', ['Amara Okafor'], 76, true],
  ['Climate', 'Glacier loss in the Andes doubled in a decade, study finds', 'The findings are based on satellite data from 2010 to 2020.', ['Luis Herrera', 'Maya Ortiz'], 63, true],
  ['Europe', 'Farmers block roads in protest at new fuel taxes', 'Tractor convoys slowed traffic on three motorways near Lyon.', ['Claire Dubois'], 128, true],
  ['Sport', 'Marathon record falls in Berlin by 11 seconds', 'The winner ran the second half in a *blistering* 1:00:41.', ['Jon Eriksen'], 540, true],
  ['Asia', 'Heatwave pushes power demand to record high in India', 'Several states ordered schools to close early for the summer.', ['Priya Nair'], null, false],
  ['Culture', 'Looted bronzes return to Benin City museum', 'The 21 objects were handed over at a ceremony attended by the Oba.', ['Amara Okafor'], 17, true],
  ['Oceans', 'High seas treaty reaches ratification threshold', 'The agreement will enter into force 120 days after the 60th ratification.', [], 22, true],
  ['Migration', 'Record number cross the Darién Gap in first half of year', 'Aid groups warn that shelters in Panama are beyond capacity.', ['Luis Herrera'], 95, true],
  ['Space', 'Lunar lander sends first images from the far side', 'The mission is the first to attempt a landing near the south pole crater.', ['Kenji Watanabe', 'Maya Ortiz'], 233, true],
];

function stories(): Story[] {
  return RAW.map(([kicker, headline, summaryMd, authors, comments, hasImage], i) => {
    const day = 12 - Math.floor(i / 6);
    const hour = 23 - ((i * 5) % 20);
    const datetime = `2025-06-${String(day).padStart(2, '0')}T${String(hour).padStart(2, '0')}:${String((i * 17) % 60).padStart(2, '0')}:00Z`;
    const path = `world/2025/06/${String(day).padStart(2, '0')}/${slug(headline)}`;
    return {
      kicker,
      headline,
      summary: summaryMd.replace(/\*/g, ''),
      summaryHtml: ent(summaryMd).replace(/\*([^*]+)\*/g, '<em>$1</em>'),
      authors,
      datetime,
      ago: i < 6 ? `${i + 1} hours ago` : `${day} June`,
      path,
      image: hasImage ? `img/2025/06/${slug(headline).slice(0, 24)}-${i + 1}.jpg` : null,
      comments,
    };
  });
}

function expected(s: Story): ExtractedRecord {
  const url = `https://news.example.test/${s.path}`;
  return {
    headline: s.headline,
    url,
    kicker: s.kicker.toUpperCase(),
    summary: s.summary,
    authors: s.authors.length > 0 ? s.authors : null,
    published: s.datetime,
    image: s.image ? `https://news.example.test/${s.image}` : null,
    comments: s.comments === null ? null : `${s.comments} comments`,
    link_md: `[${s.headline}](${url})`,
  };
}

const byline = (authors: string[], cls: string) =>
  authors.map((a) => `<a class="${cls}" href="/by/${slug(a)}">${esc(a)}</a>`).join(authors.length === 2 ? ' and ' : ', ');

function storyV1(s: Story, i: number): string {
  const lead = i === 0;
  return `      <div class="story${s.image ? ' story--with-image' : ''}${lead ? ' story--lead' : ''}">${
    s.image ? `\n        <a class="story__media" href="/${s.path}" tabindex="-1"><img class="story__image" src="/${s.image}" alt="" loading="${lead ? 'eager' : 'lazy'}"></a>` : ''}
        <div class="story__body">
          <span class="story__kicker">${esc(s.kicker)}</span>
          <h3 class="story__headline"><a href="/${s.path}">${ent(s.headline)}</a></h3>
          <p class="story__summary">${s.summaryHtml}</p>
          <div class="story__meta">${
            s.authors.length ? `\n            <span class="story__byline">By ${byline(s.authors, 'author')}</span> <span class="story__sep">&middot;</span>` : ''}
            <time class="story__time" datetime="${s.datetime}">${s.ago}</time>${
            s.comments !== null ? `\n            <a class="story__comments" href="/${s.path}#comments">${s.comments} comments</a>` : ''}
          </div>
        </div>
      </div>`;
}

function storyV2(s: Story): string {
  return `<article class="group relative flex flex-col gap-2 border-b border-zinc-200 pb-6">
<div class="flex items-center gap-2 text-xs font-semibold uppercase tracking-wide text-red-700"><span class="h-2 w-2 rounded-full bg-red-700"></span>${esc(s.kicker)}</div>
<h2 class="text-xl font-bold leading-tight"><a class="hover:underline" href="${attr(s.path)}">${esc(s.headline)}</a></h2>
<div class="flex gap-4"><p class="text-sm text-zinc-600">${s.summaryHtml}</p>${
  s.image ? `<img class="h-24 w-32 shrink-0 rounded object-cover" src="https://news.example.test/${s.image}" alt="" loading="lazy">` : ''}</div>
<div class="flex flex-wrap items-center gap-1 text-xs text-zinc-500"><time datetime="${s.datetime}">${s.ago}</time>${
  s.authors.length ? `<span aria-hidden="true">\u00b7</span><span>By ${byline(s.authors, 'font-medium text-zinc-700 hover:underline')}</span>` : ''}${
  s.comments !== null ? `<a class="ml-auto flex items-center gap-1" href="${attr(s.path)}#comments"><span>${s.comments}</span> <span>comments</span></a>` : ''}</div>
</article>`;
}

const AD = `<aside class="my-6 flex flex-col items-center gap-1 bg-zinc-50 py-4" aria-label="Advertisement"><span class="text-[10px] uppercase tracking-wide text-zinc-400">Advertisement</span><div class="h-[250px] w-[300px]" id="div-gpt-ad-mid-1" data-slot="/2231/world/mid"></div></aside>`;
const NEWSLETTER = `<article class="group relative flex flex-col gap-2 rounded-lg bg-amber-50 p-6">
<div class="flex items-center gap-2 text-xs font-semibold uppercase tracking-wide text-amber-800">Newsletter</div>
<h2 class="text-xl font-bold leading-tight">Get the Morning Briefing</h2>
<div class="flex gap-4"><p class="text-sm text-zinc-600">The five stories you need to know, in your inbox before 7 a.m.</p></div>
<form class="flex gap-2" action="/newsletters/morning"><input class="flex-1 rounded border px-2" type="email" name="email" placeholder="you@example.com"><button class="rounded bg-zinc-900 px-3 text-white">Sign up</button></form>
</article>`;

const SECTIONS: [string, string][] = [['World', '/world'], ['Politics', '/politics'], ['Business', '/business'], ['Climate', '/climate'], ['Science', '/science'], ['Sport', '/sport'], ['Culture', '/culture'], ['Opinion', '/opinion']];

function mostRead(list: Story[]): string {
  return list.slice(0, 5).map((s, i) => `<li><span class="rank">${i + 1}</span> <a href="/${s.path}">${ent(s.headline)}</a></li>`).join('');
}

function v1(list: Story[]): string {
  return doc({
    title: 'World news | The Daily Ledger',
    head: '<meta property="og:type" content="website"><script type="application/ld+json">{"@context":"https://schema.org","@type":"CollectionPage","name":"World"}</script>',
    bodyAttrs: 'class="section section-world"',
    body: `<div class="top-bar"><span class="top-bar__date">Thursday 12 June 2025</span> <a href="/subscribe" class="top-bar__cta">Subscribe</a></div>
<header class="masthead">
  <a class="masthead__logo" href="/">The Daily Ledger</a>
  <nav class="primary-nav" aria-label="Sections">
    ${links(SECTIONS, { ul: 'primary-nav__list', li: 'primary-nav__item' })}
  </nav>
</header>
<div class="ad-leaderboard" id="div-gpt-ad-top"><span class="ad-label">Advertisement</span></div>
<main class="section-front" id="content">
  <h1 class="section-front__title">World</h1>
  <div class="section-front__layout">
    <div class="story-list" id="latest">
${list.map(storyV1).join('\n')}
    </div>
    <aside class="sidebar">
      <section class="most-read"><h2 class="most-read__title">Most read</h2><ol>${mostRead(list)}</ol></section>
      <section class="newsletter-box"><h2>Morning Briefing</h2><p>The five stories you need to know.</p><a class="button" href="/newsletters/morning">Sign up</a></section>
    </aside>
  </div>
  <div class="pager"><a class="pager__more" href="/world?page=2">More world news</a></div>
</main>
<footer class="site-footer">
  <nav class="site-footer__nav" aria-label="Footer">${links([['About us', '/about'], ['Contact', '/contact'], ['Corrections', '/corrections'], ['Terms', '/terms'], ['Privacy', '/privacy']])}</nav>
  <p class="site-footer__copyright">&copy; 2025 The Daily Ledger</p>
</footer>
${cookieBanner('consent-banner')}`,
  });
}

function v2(list: Story[]): string {
  const blocks: string[] = [];
  list.forEach((s, i) => {
    if (i === 4) blocks.push(AD);
    if (i === 9) blocks.push(NEWSLETTER);
    if (i === 15) blocks.push(AD.replace('mid-1', 'mid-2'));
    blocks.push(storyV2(s));
  });
  return doc({
    title: 'World \u2014 The Daily Ledger',
    bodyAttrs: 'class="bg-white text-zinc-900 antialiased"',
    body: `<header class="sticky top-0 z-40 border-b border-zinc-200 bg-white">
<div class="mx-auto flex max-w-6xl items-center justify-between px-4 py-3"><a class="font-serif text-2xl font-bold" href="/">The Daily Ledger</a><a class="rounded bg-red-700 px-3 py-1 text-sm text-white" href="/subscribe">Subscribe</a></div>
<nav class="mx-auto max-w-6xl px-4" aria-label="Sections"><ul class="flex gap-4 overflow-x-auto text-sm font-medium">${SECTIONS.map(([l, h]) => `<li><a class="hover:underline" href="${h}">${l}</a></li>`).join('')}</ul></nav>
</header>
<main class="mx-auto max-w-6xl px-4 py-6">
<h1 class="mb-6 font-serif text-4xl font-bold">World</h1>
<div class="grid grid-cols-1 gap-8 lg:grid-cols-3">
<div class="flex flex-col gap-6 lg:col-span-2">
${blocks.join('\n')}
</div>
<aside class="flex flex-col gap-6"><section class="rounded border border-zinc-200 p-4"><h2 class="mb-2 font-bold">Most read</h2><ol class="flex list-decimal flex-col gap-2 pl-4 text-sm">${mostRead(list)}</ol></section></aside>
</div>
<div class="mt-8 flex justify-center"><a class="rounded border px-4 py-2" href="world?page=2">More world news</a></div>
</main>
<footer class="mt-12 border-t border-zinc-200 bg-zinc-50"><div class="mx-auto flex max-w-6xl flex-wrap gap-4 px-4 py-6 text-sm"><a href="/about">About us</a><a href="/contact">Contact</a><a href="/corrections">Corrections</a><a href="/terms">Terms</a><a href="/privacy">Privacy</a><p class="w-full text-zinc-500">\u00a9 2025 The Daily Ledger</p></div></footer>`,
  });
}

type Sel = { headline: string; url: string; kicker: string; summary: string; authors: string; published: string; image: string; comments: string };
const fields = (s: Sel) => [
  text('headline', s.headline),
  attribute('url', s.url, 'href', 'absolute_url'),
  text('kicker', s.kicker, 'uppercase'),
  text('summary', s.summary),
  list('authors', s.authors),
  attribute('published', s.published, 'datetime'),
  attribute('image', s.image, 'src', 'absolute_url'),
  text('comments', s.comments),
];
const computed = [template('link_md', '[{headline}]({url})')];

export function build(): SiteBuild {
  const list_ = stories();
  const schema: ExtractionRequest = {
    type: 'json_css',
    schema: {
      name: 'world stories',
      base_selector: '#latest > .story',
      fields: fields({
        headline: 'h3.story__headline', url: 'h3.story__headline a', kicker: '.story__kicker', summary: 'p.story__summary',
        authors: '.story__byline a.author', published: 'time.story__time', image: 'img.story__image', comments: 'a.story__comments',
      }),
    },
    computed_fields: computed,
  };
  const schemaV2: ExtractionRequest = {
    type: 'json_css',
    schema: {
      name: 'world stories',
      base_selector: 'main div.lg\\:col-span-2 > article:has(time)',
      fields: fields({
        headline: 'h2', url: 'h2 a', kicker: 'div.uppercase', summary: 'p.text-sm', authors: 'a.font-medium',
        published: 'time', image: 'img', comments: 'a.ml-auto',
      }),
    },
    computed_fields: computed,
  };
  const records = list_.map(expected);
  return {
    id: 'news-list',
    meta: {
      kind: 'news list',
      page_url: PAGE_URL,
      changes: ['class_renamed', 'container_tag_changed', 'fields_reordered', 'promo_inserted', 'optional_missing', 'relative_urls_changed'],
      v1_schema_on_v2: 'no_base_match',
      hard_cases: [
        'v2 classes are Tailwind utilities: the same class lists on every story and on the newsletter block, nothing names a field',
        'a newsletter <article> with the same kicker/h2/p structure as a story (but no <time>) sits between stories, and advertisement <aside>s',
        'v2 links are relative to /world without a trailing slash ("world/2025/…" resolves to /world/2025/…)',
        'authors is a list of 0 to 2 links; stories without a byline give null; the comments count is split into two spans in v2',
        'link_md is a template over a transformed field (url after absolute_url)',
      ],
    },
    schema,
    schemaV2,
    v1: v1(list_),
    v2: v2(list_),
    expectedV1: records,
    expectedV2: records,
  };
}
