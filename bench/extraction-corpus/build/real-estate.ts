import type { ExtractedRecord, ExtractionRequest } from '../../support/extraction-corpus.ts';
import { attr, cookieBanner, doc, ent, esc, icon, thousands } from './html.ts';
import { attribute, list, template, text, type SiteBuild } from './site.ts';

// A rental listings page. v2 is a styled-components rebuild: hashed class pairs, an inner wrapper, <article>
// cards, the address above the title and the facts as a <dl>-less row, a "new development" promo card that
// carries a price, a title and an address, and photos on absolute URLs.

const PAGE_URL = 'https://homes.example.test/en/rent/paris-11e';

interface Flat {
  ref: string;
  title: string;
  rent: number;
  charges: boolean;
  street: string;
  postcode: string;
  beds: number | null;
  baths: number;
  area: number;
  features: string[];
  agent: string | null;
  photos: number;
}

const RAW: [string, number, boolean, string, number | null, number, number, string[], string | null][] = [
  ['Bright 2-bedroom flat near Oberkampf', 2150, true, '14 Rue Oberkampf', 2, 1, 54, ['Balcony', 'Lift'], 'Maison Lemaire'],
  ['Studio with mezzanine, Bastille', 1090, false, '3 Passage Thiéré', null, 1, 23, [], null],
  ['Renovated 3-room apartment, high ceilings', 2890, true, '88 Boulevard Voltaire', 2, 1, 71, ['Parquet', 'Fireplace', 'Cellar'], 'Agence du Marais'],
  ['Quiet one-bedroom on a courtyard', 1480, true, '21 Rue Saint-Maur', 1, 1, 38, ['Courtyard view'], null],
  ['Top-floor loft with terrace', 3450, false, '5 Cité Riverin', 1, 2, 82, ['Terrace', 'Lift', 'Air conditioning'], 'Lofts & Co'],
  ['Furnished studio near République', 1150, true, '47 Rue de Malte', null, 1, 25, ['Furnished'], 'Maison Lemaire'],
  ['Family flat with 3 bedrooms', 3200, true, '112 Avenue Parmentier', 3, 2, 96, ['Lift', 'Storage room'], 'Agence du Marais'],
  ['Charming 2-room in old building', 1690, false, '9 Rue de la Roquette', 1, 1, 42, ['Exposed beams'], null],
  ['Modern flat with parking space', 2390, true, '30 Rue Léon Frot', 2, 1, 61, ['Parking', 'Lift', 'Balcony'], 'Nexity Rentals'],
  ['Compact studio for students', 890, true, '66 Rue Jean-Pierre Timbaud', null, 1, 18, [], null],
  ['Artist workshop converted to duplex', 2750, false, '18 Passage de la Main d’Or', 1, 1, 77, ['Skylight', 'Duplex'], 'Lofts & Co'],
  ['Two bedrooms near Canal Saint-Martin', 2290, true, '41 Quai de Jemmapes', 2, 1, 58, ['Canal view'], 'Maison Lemaire'],
  ['Sunny 1-bedroom, 5th floor with lift', 1590, true, '7 Rue Servan', 1, 1, 40, ['Lift', 'South-facing'], null],
  ['Spacious 4-room with balcony', 3590, true, '150 Rue de Charonne', 3, 2, 104, ['Balcony', 'Lift', 'Cellar', 'Guardian'], 'Agence du Marais'],
  ['Garden-level flat with patio', 1990, false, '12 Villa Gaudelet', 1, 1, 49, ['Patio'], 'Nexity Rentals'],
  ['Haussmann flat, 2 bedrooms, renovated', 2990, true, '2 Boulevard Richard-Lenoir', 2, 1, 68, ['Moldings', 'Parquet'], null],
];

function flats(): Flat[] {
  return RAW.map(([title, rent, charges, street, beds, baths, area, features, agent], i) => ({
    ref: `PA11-${2231 + i * 7}`,
    title, rent, charges, street, beds, baths, area, features, agent,
    postcode: '75011',
    photos: 4 + ((i * 5) % 14),
  }));
}

function expected(f: Flat): ExtractedRecord {
  const price = `\u20ac${thousands(f.rent)} / month`;
  const beds = f.beds === null ? null : `${f.beds} bd`;
  const area = `${f.area} m2`;
  return {
    title: f.title,
    url: `https://homes.example.test/en/rent/paris-11e/${f.ref.toLowerCase()}`,
    price,
    charges: f.charges ? 'charges included' : null,
    address: `${f.street} ${f.postcode} Paris`,
    beds,
    baths: `${f.baths} ba`,
    area,
    features: f.features.length ? f.features : null,
    agent: f.agent,
    photo: `https://homes.example.test/photos/${f.ref}/1.webp`,
    listing_id: f.ref,
    summary: beds === null ? null : `${beds}, ${area} \u2013 ${price}`,
  };
}

function cardV1(f: Flat): string {
  return `<div class="listing-card" data-listing-id="${f.ref}">
  <div class="listing-card__gallery">
    <img class="listing-card__photo" src="data:image/svg+xml,%3Csvg xmlns='http://www.w3.org/2000/svg' viewBox='0 0 4 3'%3E%3C/svg%3E" data-lazy-src="/photos/${f.ref}/1.webp" alt="${attr(f.title)}">
    <span class="listing-card__photo-count">${icon('camera')} ${f.photos}</span>
    <button class="listing-card__fav" data-listing-id="${f.ref}" aria-label="Save">${icon('heart')}</button>
  </div>
  <div class="listing-card__content">
    <div class="listing-card__price">&euro;${thousands(f.rent)}<small> / month</small></div>${f.charges ? '\n    <div class="listing-card__charges">charges included</div>' : ''}
    <h3 class="listing-card__title"><a href="/en/rent/paris-11e/${f.ref.toLowerCase()}">${ent(f.title)}</a></h3>
    <address class="listing-card__address">${ent(f.street)}<br>${f.postcode} Paris</address>
    <ul class="listing-card__facts">${f.beds !== null ? `\n      <li class="fact fact--beds">${icon('bed')} ${f.beds} bd</li>` : ''}
      <li class="fact fact--baths">${icon('bath')} ${f.baths} ba</li>
      <li class="fact fact--area">${icon('area')} ${f.area}&nbsp;m<sup>2</sup></li>
    </ul>${f.features.length ? `\n    <ul class="listing-card__features">${f.features.map((x) => `<li>${esc(x)}</li>`).join('')}</ul>` : ''}${
    f.agent ? `\n    <p class="listing-card__agent">Listed by <strong>${ent(f.agent)}</strong></p>` : ''}
  </div>
</div>`;
}

function cardV2(f: Flat): string {
  return `<article class="sc-gKsewC hYzRbN"><div class="sc-iBPRYJ dLhTqY">
<div class="sc-fubCfw kRfVxa"><img class="sc-pFZIQ eTvdXw" src="data:image/svg+xml,%3Csvg xmlns='http://www.w3.org/2000/svg' viewBox='0 0 4 3'%3E%3C/svg%3E" data-lazy-src="https://homes.example.test/photos/${f.ref}/1.webp" alt=""><span class="sc-jrAGrp bFzLmQ">1/${f.photos}</span></div>
<div class="sc-kEjbxe cOqTwM">
<address class="sc-iqHYGH fWbRvS">${esc(f.street)}<br>
${f.postcode} Paris</address>
<h2 class="sc-crrsfI dKjWqP"><a href="/en/rent/paris-11e/${f.ref.toLowerCase()}">${esc(f.title)}</a></h2>
<div class="sc-dQppl gMkGHF">${f.beds !== null ? `<span class="sc-hBEYos kTjXwP">${f.beds} bd</span>` : ''}<span class="sc-hBEYos kTjXwP">${f.baths} ba</span><span class="sc-hBEYos kTjXwP">${f.area} m<sup>2</sup></span></div>
<div class="sc-cTkwdZ kHyGQv"><p class="sc-fodVxV hQqSbR"><strong>\u20ac${thousands(f.rent)}</strong> / month</p>${f.charges ? '<span class="sc-fFeiMQ jZcPbT">charges included</span>' : ''}</div>${
  f.features.length ? `\n<ul class="sc-bkkeKt fMpYvZ">${f.features.map((x) => `<li>${esc(x)}</li>`).join('')}</ul>` : ''}${
  f.agent ? `\n<p class="sc-ikJyIC cjQbEs">Listed by <strong>${esc(f.agent)}</strong></p>` : ''}
</div>
<button class="sc-jJoQJp bWvDpS" data-listing-id="${f.ref}" aria-label="Save">${icon('heart', 'sc-gWXbKe')}</button>
</div></article>`;
}

const PROMO = `<article class="sc-gKsewC hYzRbN sc-promo"><div class="sc-iBPRYJ dLhTqY">
<div class="sc-fubCfw kRfVxa"><img class="sc-pFZIQ eTvdXw" src="https://homes.example.test/promo/les-ateliers.webp" alt=""><span class="sc-eCImPb gVqJsR">New development</span></div>
<div class="sc-kEjbxe cOqTwM">
<address class="sc-iqHYGH fWbRvS">Rue de la Folie-Regnault<br>75011 Paris</address>
<h2 class="sc-crrsfI dKjWqP"><a href="https://promo.example.test/les-ateliers">Les Ateliers \u2013 new flats, delivery 2026</a></h2>
<p class="sc-fodVxV hQqSbR">From <strong>\u20ac450,000</strong></p>
</div>
</div></article>`;

function v1(list_: Flat[]): string {
  return doc({
    title: 'Flats to rent in Paris 11e | Homely',
    body: `<header class="header"><a class="header__logo" href="/en/">Homely</a>
  <nav class="header__nav" aria-label="Main"><ul><li><a href="/en/buy">Buy</a></li><li><a class="is-active" href="/en/rent">Rent</a></li><li><a href="/en/sell">Sell</a></li><li><a href="/en/estimate">Estimate</a></li></ul></nav>
  <a class="header__login" href="/en/login">Log in</a>
</header>
<main class="search">
  <div class="search__bar"><form action="/en/rent"><input name="where" value="Paris 11e"><select name="type"><option>Flat</option><option>House</option></select><button>Search</button></form></div>
  <h1 class="search__title">Flats to rent in Paris 11e <span>(${list_.length} listings)</span></h1>
  <div class="search__layout">
    <section class="search__results" id="results">
${list_.map(cardV1).join('\n')}
    </section>
    <aside class="search__map"><div class="map" data-lat="48.859" data-lng="2.379" aria-label="Map"></div><div class="alert-box"><h2>Be the first to know</h2><p>Get an alert for new listings.</p><button>Create alert</button></div></aside>
  </div>
</main>
<footer class="footer"><div class="footer__cols"><div><h4>Homely</h4><ul><li><a href="/en/about">About</a></li><li><a href="/en/jobs">Jobs</a></li></ul></div><div><h4>Help</h4><ul><li><a href="/en/help">Help centre</a></li><li><a href="/en/contact">Contact</a></li></ul></div></div><p>&copy; 2025 Homely SAS</p></footer>
${cookieBanner('cookies')}`,
  });
}

function v2(list_: Flat[]): string {
  const cards: string[] = [];
  list_.forEach((f, i) => {
    if (i === 5) cards.push(PROMO);
    cards.push(cardV2(f));
  });
  return doc({
    title: 'Flats to rent in Paris 11e | Homely',
    head: '<style data-styled="active" data-styled-version="5.3.11">.hYzRbN{display:flex;}.dLhTqY{gap:12px;}</style>',
    body: `<div id="root"><header class="sc-bdfBwQ jXzLkP"><a class="sc-gsTCUz bhdLno" href="/en/">Homely</a><nav class="sc-dlfnbm eYNhWp" aria-label="Main"><a href="/en/buy">Buy</a><a aria-current="page" href="/en/rent">Rent</a><a href="/en/sell">Sell</a><a href="/en/estimate">Estimate</a></nav></header>
<main class="sc-hKgILt fGtBrM">
<div class="sc-eCssSg bVbRvt"><h1 class="sc-jSgupP cYNxXo">Flats to rent in Paris 11e</h1><p class="sc-gKsewC-count">${list_.length} listings</p></div>
<div class="sc-iCfMLu dIzWbF">
${cards.join('\n')}
</div>
<nav class="sc-pager" aria-label="Pages"><a href="/en/rent/paris-11e?page=2">Next</a></nav>
</main>
<footer class="sc-furwcr eLhTHj"><a href="/en/about">About</a> <a href="/en/help">Help centre</a> <a href="/en/contact">Contact</a><p>\u00a9 2025 Homely SAS</p></footer></div>`,
  });
}

type Sel = { title: string; price: string; charges: string; address: string; beds: string; baths: string; area: string; features: string; agent: string; photo: string; id: string };
const fields = (s: Sel) => [
  text('title', s.title),
  attribute('url', `${s.title} a`, 'href', 'absolute_url'),
  text('price', s.price),
  text('charges', s.charges),
  text('address', s.address),
  text('beds', s.beds),
  text('baths', s.baths),
  text('area', s.area),
  list('features', s.features),
  text('agent', s.agent),
  attribute('photo', s.photo, 'data-lazy-src', 'absolute_url'),
  attribute('listing_id', s.id, 'data-listing-id'),
];
const computed = [template('summary', '{beds}, {area} \u2013 {price}')];

export function build(): SiteBuild {
  const list_ = flats();
  const schema: ExtractionRequest = {
    type: 'json_css',
    schema: {
      name: 'rentals',
      base_selector: '#results > .listing-card',
      fields: fields({
        title: '.listing-card__title', price: '.listing-card__price', charges: '.listing-card__charges', address: 'address',
        beds: '.fact--beds', baths: '.fact--baths', area: '.fact--area', features: '.listing-card__features li',
        agent: '.listing-card__agent strong', photo: 'img.listing-card__photo', id: 'button.listing-card__fav',
      }),
    },
    computed_fields: computed,
  };
  const schemaV2: ExtractionRequest = {
    type: 'json_css',
    schema: {
      name: 'rentals',
      base_selector: 'article.hYzRbN:not(.sc-promo)',
      fields: fields({
        title: 'h2.dKjWqP', price: 'p.hQqSbR', charges: '.jZcPbT', address: 'address', beds: 'span.kTjXwP:nth-last-child(3)',
        baths: 'span.kTjXwP:nth-last-child(2)', area: 'span.kTjXwP:last-child', features: 'ul.fMpYvZ li', agent: 'p.cjQbEs strong',
        photo: 'img.eTvdXw', id: 'button[data-listing-id]',
      }),
    },
    computed_fields: computed,
  };
  return {
    id: 'real-estate',
    meta: {
      kind: 'real-estate listings',
      page_url: PAGE_URL,
      changes: ['class_renamed', 'extra_wrapper', 'container_tag_changed', 'fields_reordered', 'promo_inserted', 'optional_missing', 'relative_urls_changed'],
      v1_schema_on_v2: 'no_base_match',
      hard_cases: [
        'the "new development" promo shares the card classes (sc-gKsewC hYzRbN plus sc-promo) and has a price, an address and a title link',
        'v2 facts are three spans with one class; beds is missing for studios, so position alone shifts',
        'price text is "€2,150 / month" built from <small> in v1 and from <strong> plus a text node in v2; the optional charges note moves next to it',
        'address has a <br> between street and postcode (plus a newline in v2); area is "54 m2" from m<sup>2</sup>',
        'summary template gives null for studios (beds null)',
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
