import type { ExtractedRecord, ExtractionRequest } from '../../support/extraction-corpus.ts';
import { doc, ent, esc, icon } from './html.ts';
import { attribute, template, text, type SiteBuild } from './site.ts';

// A city's "this week" agenda. v1 is one <ul> mixing day headings and hCalendar events (<li class="vevent">);
// v2 groups the week into one <section> per day (an extra level) with <article> events, drops the microformat
// classes for new ones, puts the category first and the time under the title, and drops a "featured" pass
// tile into some days.

const PAGE_URL = 'https://events.example.test/lisbon/this-week';

interface Event {
  day: number;
  time: string;
  name: string;
  venue: string;
  area: string;
  category: string;
  price: string | null;
  soldOut: boolean;
  id: number;
}

const DAYS: Record<number, string> = { 12: 'Thursday 12 June', 13: 'Friday 13 June', 14: 'Saturday 14 June', 15: 'Sunday 15 June' };

const RAW: [number, string, string, string, string, string, string | null, boolean][] = [
  [12, '19:30', 'Fado Night in Alfama', 'Clube de Fado', 'Alfama', 'Concert', '\u20ac25', false],
  [12, '21:00', 'Jazz at the Hot Clube', 'Hot Clube de Portugal', 'Pr\u00edncipe Real', 'Concert', '\u20ac15', true],
  [12, '18:00', 'Tiles & Tales: Azulejo Workshop', 'Museu Nacional do Azulejo', 'Xabregas', 'Workshop', '\u20ac40', false],
  [13, '10:00', 'Feira da Ladra Flea Market', 'Campo de Santa Clara', 'S\u00e3o Vicente', 'Market', 'Free', false],
  [13, '20:00', 'Orquestra Gulbenkian: Mahler 5', 'Grande Audit\u00f3rio Gulbenkian', 'Avenidas Novas', 'Classical', '\u20ac18\u2013\u20ac45', false],
  [13, '22:30', 'Lux Fr\u00e1gil: Late Set', 'Lux Fr\u00e1gil', 'Santa Apol\u00f3nia', 'Club night', '\u20ac20', false],
  [13, '19:00', 'Sunset Photo Walk', 'Miradouro da Senhora do Monte', 'Gra\u00e7a', 'Tour', null, false],
  [14, '11:00', 'LX Factory Open Studios', 'LX Factory', 'Alc\u00e2ntara', 'Art', 'Free', false],
  [14, '15:00', 'Santo Ant\u00f3nio Street Party Warm-up', 'Largo de S\u00e3o Miguel', 'Alfama', 'Festival', 'Free', false],
  [14, '21:30', 'Cinema ao Ar Livre: Vertigo', 'Jardim da Estrela', 'Estrela', 'Film', '\u20ac6', false],
  [14, '20:00', 'Stand-up in English', 'Damas', 'Gra\u00e7a', 'Comedy', '\u20ac12', true],
  [15, '09:30', 'Belém Riverside Run (10 km)', 'Padr\u00e3o dos Descobrimentos', 'Bel\u00e9m', 'Sport', '\u20ac10', false],
  [15, '17:00', 'Vinyl Fair', 'Mercado de Campo de Ourique', 'Campo de Ourique', 'Market', null, false],
  [15, '19:00', 'Choral Evensong', 'S\u00e9 de Lisboa', 'Baixa', 'Classical', 'Free', false],
];

function events(): Event[] {
  return RAW.map(([day, time, name, venue, area, category, price, soldOut], i) => ({ day, time, name, venue, area, category, price, soldOut, id: 5512 + i * 13 }));
}

const path = (e: Event) => `/lisbon/e/${e.name.normalize('NFD').replace(/[\u0300-\u036f]/g, '').toLowerCase().replace(/[^a-z0-9]+/g, '-').replace(/^-|-$/g, '')}-${e.id}`;

function expected(e: Event): ExtractedRecord {
  const category = e.category.toLowerCase();
  return {
    name: e.name,
    url: `https://events.example.test${path(e)}`,
    start: `2025-06-${e.day}T${e.time}`,
    time: e.time,
    venue: e.venue,
    area: e.area,
    category,
    price: e.price,
    status: e.soldOut ? 'Sold out' : null,
    label: `{${category}} ${e.name}`,
    where: `${e.venue}, ${e.area}`,
  };
}

function eventV1(e: Event): string {
  return `    <li class="agenda__event vevent" id="event-${e.id}">
      <div class="agenda__time"><time class="dtstart" datetime="2025-06-${e.day}T${e.time}">${e.time}</time></div>
      <div class="agenda__details">
        <a class="url summary" href="${path(e)}">${ent(e.name)}</a>
        <div class="location vcard"><span class="fn org venue">${ent(e.venue)}</span>, <span class="adr"><span class="locality">${ent(e.area)}</span></span></div>
        <div class="agenda__tags"><span class="category">${e.category}</span>${e.price ? ` <span class="price${e.price === 'Free' ? ' price--free' : ''}">${ent(e.price)}</span>` : ''}${
          e.soldOut ? ' <span class="badge badge--soldout">Sold out</span>' : ''}</div>
      </div>
      <a class="agenda__ics" href="/lisbon/e/${e.id}.ics" title="Add to calendar">${icon('clock')}<span class="visually-hidden">Add to calendar</span></a>
    </li>`;
}

function eventV2(e: Event): string {
  return `<article class="evt" data-event="${e.id}">
<p class="evt-cat">${esc(e.category)}</p>
<h3 class="evt-name"><a href="${path(e)}">${esc(e.name)}</a></h3>
<p class="evt-when">${icon('clock', 'evt-ico')}<time datetime="2025-06-${e.day}T${e.time}">${e.time}</time></p>
<p class="evt-where">${icon('pin', 'evt-ico')}<span class="evt-venue">${esc(e.venue)}</span> <span class="evt-sep">\u00b7</span> <span class="evt-area">${esc(e.area)}</span></p>
<div class="evt-foot">${e.soldOut ? '<span class="evt-flag">Sold out</span>' : ''}${e.price ? `<span class="evt-price">${esc(e.price)}</span>` : ''}<a class="evt-ics" href="/lisbon/e/${e.id}.ics" aria-label="Add to calendar">+</a></div>
</article>`;
}

const FEATURED = `<article class="promo-tile"><p class="evt-cat">Featured</p><h3 class="evt-name"><a href="https://partners.example.test/lisboa-card">Lisboa Card \u2013 72 hours of free transport and museums</a></h3><p class="evt-when">Valid every day</p><div class="evt-foot"><span class="evt-price">\u20ac44</span><a class="evt-buy" href="https://partners.example.test/lisboa-card">Buy</a></div></article>`;

function v1(list: Event[]): string {
  const items: string[] = [];
  let day = 0;
  for (const e of list) {
    if (e.day !== day) {
      day = e.day;
      items.push(`    <li class="agenda__day-heading"><h2>${DAYS[day]}</h2></li>`);
    }
    items.push(eventV1(e));
  }
  return doc({
    lang: 'en',
    title: 'What\u2019s on in Lisbon this week \u2013 Agenda LX',
    body: `<header class="site-head"><a class="brand" href="/">Agenda LX</a><nav class="city-nav" aria-label="Cities"><a href="/lisbon">Lisbon</a> <a href="/porto">Porto</a> <a href="/faro">Faro</a></nav></header>
<nav class="tabs" aria-label="When"><a href="/lisbon/today">Today</a> <a class="tabs__active" href="/lisbon/this-week">This week</a> <a href="/lisbon/this-weekend">Weekend</a></nav>
<div class="page">
<main class="agenda-page">
  <h1>What&rsquo;s on in Lisbon this week</h1>
  <ul class="agenda">
${items.join('\n')}
  </ul>
</main>
<aside class="sidebar"><h2>Categories</h2><ul class="cat-list"><li><a href="/lisbon/concert">Concerts</a></li><li><a href="/lisbon/market">Markets</a></li><li><a href="/lisbon/film">Film</a></li></ul>
<div class="submit-box"><h2>Organising something?</h2><a href="/submit">Submit an event</a></div></aside>
</div>
<footer class="site-foot"><p>Agenda LX &middot; <a href="/about">About</a> &middot; <a href="/privacy">Privacy</a></p></footer>`,
  });
}

function v2(list: Event[]): string {
  const days = [...new Set(list.map((e) => e.day))];
  const sections = days.map((d, i) => {
    const own = list.filter((e) => e.day === d).map(eventV2);
    if (i === 1 || i === 3) own.splice(1, 0, FEATURED);
    return `<section class="day" aria-labelledby="d${d}"><h2 class="day-title" id="d${d}">${DAYS[d]}</h2>
<div class="day-events">
${own.join('\n')}
</div></section>`;
  });
  return doc({
    title: 'This week in Lisbon | Agenda LX',
    body: `<header class="topbar"><div class="topbar-in"><a class="logo" href="/">Agenda<b>LX</b></a><nav aria-label="Main"><a href="/lisbon">Lisbon</a><a href="/porto">Porto</a><a href="/faro">Faro</a></nav><a class="topbar-submit" href="/submit">+ Submit</a></div></header>
<main class="wk">
<div class="wk-head"><h1>This week in Lisbon</h1><div class="wk-filters" role="toolbar"><button aria-pressed="true">All</button><button>Free</button><button>Music</button></div></div>
${sections.join('\n')}
</main>
<footer class="foot"><nav aria-label="Footer"><a href="/about">About</a> <a href="/privacy">Privacy</a></nav></footer>`,
  });
}

type Sel = { name: string; start: string; venue: string; area: string; category: string; price: string; status: string };
const fields = (s: Sel) => [
  text('name', s.name),
  attribute('url', s.name, 'href', 'absolute_url'),
  attribute('start', s.start, 'datetime'),
  text('time', s.start),
  text('venue', s.venue),
  text('area', s.area),
  text('category', s.category, 'lowercase'),
  text('price', s.price),
  text('status', s.status),
];
const computed = [template('label', '{{{category}}} {name}'), template('where', '{venue}, {area}')];

export function build(): SiteBuild {
  const list = events();
  const schema: ExtractionRequest = {
    type: 'json_css',
    schema: {
      name: 'events',
      base_selector: 'ul.agenda > li.vevent',
      fields: fields({ name: 'a.summary', start: 'time.dtstart', venue: '.venue', area: '.locality', category: '.category', price: '.price', status: '.badge--soldout' }),
    },
    computed_fields: computed,
  };
  const schemaV2: ExtractionRequest = {
    type: 'json_css',
    schema: {
      name: 'events',
      base_selector: 'section.day article.evt',
      fields: fields({ name: 'h3.evt-name a', start: 'time', venue: '.evt-venue', area: '.evt-area', category: '.evt-cat', price: '.evt-price', status: '.evt-flag' }),
    },
    computed_fields: computed,
  };
  return {
    id: 'event-calendar',
    meta: {
      kind: 'event calendar',
      page_url: PAGE_URL,
      changes: ['class_renamed', 'extra_wrapper', 'container_tag_changed', 'fields_reordered', 'promo_inserted', 'optional_missing'],
      v1_schema_on_v2: 'no_base_match',
      hard_cases: [
        'v1 records are <li>s of a list that also holds day-heading <li>s; v2 spreads them over four <section>s (records are no longer siblings across days)',
        'the featured pass tile reuses the event inner classes (evt-cat, evt-name, evt-when, evt-price) inside an <article class="promo-tile">',
        'time and start read the same <time> (text and datetime); v2 puts an inline SVG before it',
        'label uses literal braces ({{ and }}) around a transformed value; where joins two fields',
      ],
    },
    schema,
    schemaV2,
    v1: v1(list),
    v2: v2(list),
    expectedV1: list.map(expected),
    expectedV2: list.map(expected),
  };
}
