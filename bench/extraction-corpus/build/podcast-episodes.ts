import type { ExtractedRecord, ExtractionRequest } from '../../support/extraction-corpus.ts';
import { doc, esc, icon, slug } from './html.ts';
import { attribute, html, list, template, text, type SiteBuild } from './site.ts';

// A podcast's episode archive. v2 moves the episodes into an <ol> of <li>s with new ids (ep-142 becomes
// episode-142), wraps each in a media-object row (art | body), renames the classes, writes episode links
// relative to the show page and audio links scheme-relative, and inserts a sponsor message that shares the row
// class (eps__row eps__row--sponsor) and has a title, a play button and show notes, but no number, date or
// duration.

const PAGE_URL = 'https://pod.example.test/shows/the-long-take';

interface Episode {
  n: number;
  title: string;
  date: string;
  shown: string;
  duration: string;
  notes: string;
  guests: string[];
}

const RAW: [string, string, string, string, string[]][] = [
  ['The Slow Web', '2025-05-28', '1 h 12 min', '<p>Why some sites <strong>still</strong> load fast.</p><p>Performance budgets, and who pays for them.</p>', ['Maya Ortiz']],
  ['Small Data', '2025-05-21', '58 min', '<p>Do you need a data warehouse? <em>Probably not.</em></p>', []],
  ['Inside a Search Engine', '2025-05-14', '1 h 31 min', '<p>Crawling, ranking and the index nobody sees.</p><p>Plus: listener questions.</p>', ['Jon Eriksen', 'Amara Okafor']],
  ['Maintainers', '2025-05-07', '49 min', '<p>Open source burnout and what foundations can do about it.</p>', ['Priya Nair']],
  ['The Cost of a Click', '2025-04-30', '1 h 04 min', '<p>Ad tech explained in one hour.</p>', []],
  ['Typography on Screens', '2025-04-23', '52 min', '<p>Variable fonts, <em>optical sizing</em> and reading comfort.</p>', ['Claire Dubois']],
  ['Offline First', '2025-04-16', '1 h 08 min', '<p>Sync engines, conflicts and CRDTs without the maths.</p>', ['Kenji Watanabe']],
  ['Accessibility Audits', '2025-04-09', '46 min', '<p>What an audit finds, and what it <strong>misses</strong>.</p>', ['Luis Herrera', 'Sam Okoye']],
  ['Email Is Not Dead', '2025-04-02', '55 min', '<p>Deliverability, newsletters and the inbox wars.</p>', []],
  ['Rewrite or Refactor?', '2025-03-26', '1 h 17 min', '<p>Two engineers, two answers.</p><p>Recorded live.</p>', ['Diego Ruiz', 'Ana Costa']],
];

const MONTHS = ['January', 'February', 'March', 'April', 'May', 'June', 'July', 'August', 'September', 'October', 'November', 'December'];

function episodes(): Episode[] {
  return RAW.map(([title, date, duration, notes, guests], i) => {
    const [, m, d] = date.split('-').map(Number);
    return { n: 142 - i, title, date, shown: `${MONTHS[m - 1].slice(0, 3)} ${d}, 2025`, duration, notes, guests };
  });
}

const epPath = (e: Episode) => `the-long-take/${e.n}-${slug(e.title)}`;

function expected(e: Episode): ExtractedRecord {
  return {
    number: `Ep. ${e.n}`,
    title: e.title,
    url: `https://pod.example.test/shows/${epPath(e)}`,
    published: e.date,
    duration: e.duration,
    notes: e.notes,
    guests: e.guests.length ? e.guests : null,
    audio: `https://media.pod.example.test/tlt/${e.n}.mp3`,
    caption: `Ep. ${e.n}: ${e.title}`,
  };
}

function episodeV1(e: Episode): string {
  return `    <div class="episode" id="ep-${e.n}">
      <div class="episode__art"><img src="/art/tlt-${e.n}.jpg" alt="" width="120" height="120"></div>
      <div class="episode__info">
        <span class="episode__number">Ep.&nbsp;${e.n}</span>
        <h2 class="episode__title"><a href="https://pod.example.test/shows/${epPath(e)}">${esc(e.title)}</a></h2>
        <div class="episode__meta"><time datetime="${e.date}">${e.shown}</time> &middot; <span class="episode__duration">${e.duration.replace(/ /g, '&nbsp;')}</span></div>
        <div class="episode__notes">${e.notes}</div>${e.guests.length ? `
        <ul class="episode__guests">${e.guests.map((g) => `<li><a href="/people/${slug(g)}">${esc(g)}</a></li>`).join('')}</ul>` : ''}
        <div class="episode__actions">
          <button class="episode__play" data-audio="https://media.pod.example.test/tlt/${e.n}.mp3">${icon('play')} Play</button>
          <a class="episode__download" href="https://media.pod.example.test/tlt/${e.n}.mp3" download>${icon('download')} Download</a>
        </div>
      </div>
    </div>`;
}

function episodeV2(e: Episode): string {
  return `<li class="eps__row" id="episode-${e.n}">
<div class="media">
<div class="media__left"><img class="eps__art" src="/art/tlt-${e.n}.jpg" alt="" loading="lazy"></div>
<div class="media__body">
<p class="eps__kicker"><span class="eps__no">Ep.\u00a0${e.n}</span> <span class="eps__dot">\u2022</span> <span class="eps__len">${e.duration}</span></p>
<h3 class="eps__title"><a href="${epPath(e)}">${esc(e.title)}</a></h3>
<div class="eps__desc">${e.notes}</div>${e.guests.length ? `
<p class="eps__with">With ${e.guests.map((g) => `<a class="eps__guest" href="/people/${slug(g)}">${esc(g)}</a>`).join(' and ')}</p>` : ''}
<div class="eps__bar"><button class="eps__btn" data-src="//media.pod.example.test/tlt/${e.n}.mp3">${icon('play', 'eps__ico')}<span class="sr-only">Play</span></button><time class="eps__date" datetime="${e.date}">${e.shown}</time><a class="eps__btn eps__btn--dl" href="//media.pod.example.test/tlt/${e.n}.mp3" download>${icon('download', 'eps__ico')}<span class="sr-only">Download</span></a></div>
</div>
</div>
</li>`;
}

const SPONSOR = `<li class="eps__row eps__row--sponsor" id="sponsor-1">
<div class="media">
<div class="media__left"><img class="eps__art" src="https://ads.example.test/pod/quillbox.png" alt=""></div>
<div class="media__body">
<p class="eps__kicker"><span class="eps__label">Sponsor</span></p>
<h3 class="eps__title"><a href="https://ads.example.test/pod/quillbox?utm_source=tlt">Quillbox: notebooks for people who think in drafts</a></h3>
<div class="eps__desc"><p>Listeners get 15% off with code <strong>LONGTAKE</strong>.</p></div>
<div class="eps__bar"><button class="eps__btn" data-src="//media.pod.example.test/ads/quillbox-30s.mp3">${icon('play', 'eps__ico')}<span class="sr-only">Play</span></button><a class="eps__btn" href="https://ads.example.test/pod/quillbox">Learn more</a></div>
</div>
</div>
</li>`;

const SHOW_NOTES = '<p>Long conversations about how the web is built, and who it is built for.</p>';

function v1(list_: Episode[]): string {
  return doc({
    title: 'The Long Take \u2013 All episodes',
    head: '<link rel="alternate" type="application/rss+xml" title="The Long Take" href="/shows/the-long-take/feed.xml">',
    body: `<header class="site-header"><a class="brand" href="/">Podhouse</a><nav class="site-nav" aria-label="Main"><a href="/shows">Shows</a> <a href="/about">About</a> <a href="/advertise">Advertise</a></nav></header>
<main class="show">
  <section class="show__hero"><img src="/art/tlt.jpg" alt="The Long Take cover" width="240" height="240"><div><h1>The Long Take</h1>${SHOW_NOTES}<p class="show__subscribe"><a href="/shows/the-long-take/feed.xml">RSS</a></p></div></section>
  <div class="show__body">
    <section class="episode-list" aria-label="Episodes">
      <h2 class="episode-list__title">All episodes</h2>
${list_.map(episodeV1).join('\n')}
    </section>
    <aside class="show__aside"><h2>Hosts</h2><ul><li>Rosa Lind</li><li>Ben Carter</li></ul><h2>Support the show</h2><p><a href="/shows/the-long-take/members">Become a member</a></p></aside>
  </div>
  <nav class="pagination" aria-label="Pages"><a href="/shows/the-long-take?page=2">Older episodes</a></nav>
</main>
<footer class="site-footer"><p>&copy; 2025 Podhouse Media</p><a href="/privacy">Privacy</a></footer>`,
  });
}

function v2(list_: Episode[]): string {
  const items = list_.map(episodeV2);
  items.splice(3, 0, SPONSOR);
  return doc({
    title: 'The Long Take | Podhouse',
    body: `<header class="hd"><div class="hd__in"><a class="hd__brand" href="/">Podhouse</a><nav class="hd__nav" aria-label="Main"><ul><li><a href="/shows">Shows</a></li><li><a href="/about">About</a></li><li><a href="/advertise">Advertise</a></li></ul></nav></div></header>
<main class="pg">
<header class="pg__head"><img src="/art/tlt.jpg" alt="" width="160" height="160"><div><h1 class="pg__title">The Long Take</h1>${SHOW_NOTES}</div></header>
<section class="eps" aria-labelledby="eps-h"><h2 id="eps-h" class="eps__heading">Episodes</h2>
<ol class="eps__list" reversed>
${items.join('\n')}
</ol>
<a class="eps__more" href="the-long-take?page=2">Load older episodes</a>
</section>
</main>
<footer class="ft"><p>\u00a9 2025 Podhouse Media \u00b7 <a href="/privacy">Privacy</a></p></footer>`,
  });
}

type Sel = { number: string; title: string; published: string; duration: string; notes: string; guests: string; audio: string };
const fields = (s: Sel) => [
  text('number', s.number),
  text('title', s.title),
  attribute('url', `${s.title} a`, 'href', 'absolute_url'),
  attribute('published', s.published, 'datetime'),
  text('duration', s.duration),
  html('notes', s.notes),
  list('guests', s.guests),
  attribute('audio', s.audio, 'href', 'absolute_url'),
];
const computed = [template('caption', '{number}: {title}')];

export function build(): SiteBuild {
  const list_ = episodes();
  const schema: ExtractionRequest = {
    type: 'json_css',
    schema: {
      name: 'episodes',
      base_selector: '.episode-list > div.episode',
      fields: fields({
        number: '.episode__number', title: '.episode__title', published: '.episode__meta time', duration: '.episode__duration',
        notes: '.episode__notes', guests: '.episode__guests a', audio: 'a.episode__download',
      }),
    },
    computed_fields: computed,
  };
  const schemaV2: ExtractionRequest = {
    type: 'json_css',
    schema: {
      name: 'episodes',
      base_selector: 'ol.eps__list > li.eps__row:not(.eps__row--sponsor)',
      fields: fields({
        number: '.eps__no', title: '.eps__title', published: 'time.eps__date', duration: '.eps__len', notes: '.eps__desc',
        guests: 'a.eps__guest', audio: 'a.eps__btn--dl',
      }),
    },
    computed_fields: computed,
  };
  return {
    id: 'podcast-episodes',
    meta: {
      kind: 'podcast episodes',
      page_url: PAGE_URL,
      changes: ['class_renamed', 'id_renamed', 'extra_wrapper', 'container_tag_changed', 'fields_reordered', 'promo_inserted', 'optional_missing', 'relative_urls_changed'],
      v1_schema_on_v2: 'no_base_match',
      hard_cases: [
        'the sponsor message shares the row class (eps__row eps__row--sponsor), the media wrapper, a title link, notes and a play button',
        'notes is an html field (one or two <p>s with <strong>/<em>)',
        'number and duration (nbsp inside) move together into a kicker line above the title; the date moves into the player bar',
        'audio is the download link: absolute in v1, scheme-relative in v2 (with a play button before it carrying the same URL in data-src)',
        'episode links become relative to a page URL without a trailing slash ("the-long-take/142-…")',
      ],
    },
    schema,
    schemaV2,
    v1: v1(list_),
    v2: v2(list_),
    expectedV1: list_.map(expected),
    expectedV2: list_.map(expected),
  };
}
