import type { ExtractedRecord, ExtractionRequest } from '../../support/extraction-corpus.ts';
import { attr, doc, esc, icon, thousands } from './html.ts';
import { attribute, template, text, type SiteBuild } from './site.ts';

// A hotel search results page whose classes are build hashes and whose data-testid attributes are stable. The
// request was written with the hashed classes copied from the browser's inspector; v2 is the next deploy: every
// hash rotated, an extra wrapper around the card body, the review score block moved above the address, and a
// "save 10% with membership" banner card between results.

const PAGE_URL = 'https://stay.example.test/searchresults.html?ss=Porto&checkin=2025-06-12&checkout=2025-06-15&group_adults=2';

interface Hotel {
  id: number;
  name: string;
  stars: number | null;
  area: string;
  distance: string;
  score: string | null;
  label: string | null;
  reviews: number | null;
  price: number;
  taxes: number;
  deal: string | null;
}

const RAW: [string, number | null, string, string, string | null, number | null, number, string | null][] = [
  ['Casa da Ribeira', 4, 'Ribeira, Porto', '0.4 km', '8.7', 1204, 312, 'Late Escape Deal'],
  ['Hotel Aliados Central', 3, 'Baixa, Porto', '0.2 km', '8.1', 3310, 246, null],
  ['The Yeatman', 5, 'Vila Nova de Gaia', '1.3 km', '9.3', 2087, 1290, null],
  ['Bolh\u00e3o Design Apartments', null, 'Bolh\u00e3o, Porto', '0.6 km', '9.0', 412, 378, 'Getaway Deal'],
  ['Pens\u00e3o Favorita', 3, 'Cedofeita, Porto', '0.9 km', '8.9', 1876, 289, null],
  ['Miragaia River Hostel', null, 'Miragaia, Porto', '1.1 km', null, null, 98, null],
  ['Torel Avantgarde', 5, 'Vit\u00f3ria, Porto', '0.7 km', '9.4', 1490, 905, null],
  ['Ibis Porto S\u00e3o Bento', 2, 'Baixa, Porto', '0.3 km', '7.6', 5021, 198, 'Late Escape Deal'],
  ['Casa do Conto', 4, 'Boavista, Porto', '1.8 km', '9.1', 733, 402, null],
  ['Foz Beach Suites', 4, 'Foz do Douro, Porto', '5.6 km', '8.4', 356, 455, null],
  ['Bo\u00e9mia Guest House', null, 'Bonfim, Porto', '1.2 km', null, null, 141, null],
  ['Hotel da Bolsa', 3, 'Ribeira, Porto', '0.5 km', '8.5', 2644, 267, 'Getaway Deal'],
  ['Gaia Wine Lofts', null, 'Vila Nova de Gaia', '1.6 km', '8.8', 221, 333, null],
  ['Grande Hotel de Paris', 3, 'Baixa, Porto', '0.3 km', '8.3', 4102, 231, null],
  ['Quinta da Serra Porto', 4, 'Campanh\u00e3, Porto', '2.9 km', '7.9', 98, 276, null],
];

const LABELS: [number, string][] = [[9, 'Wonderful'], [8.6, 'Fabulous'], [8, 'Very good'], [7, 'Good'], [0, 'Review score']];

function hotels(): Hotel[] {
  return RAW.map(([name, stars, area, distance, score, reviews, price, deal], i) => ({
    id: 4471 + i * 173,
    name, stars, area, distance, score, reviews, price, deal,
    label: score === null ? null : LABELS.find(([min]) => Number(score) >= min)![1],
    taxes: Math.round(price * 0.068),
  }));
}

const pathOf = (h: Hotel) => `/hotel/pt/${h.name.normalize('NFD').replace(/[\u0300-\u036f]/g, '').toLowerCase().replace(/[^a-z0-9]+/g, '-')}.html`;
const query = '?aid=304142&checkin=2025-06-12&checkout=2025-06-15&group_adults=2&no_rooms=1';

function expected(h: Hotel): ExtractedRecord {
  return {
    name: h.name,
    url: `https://stay.example.test${pathOf(h)}${query}`,
    image: `https://cf.stay.example.test/xdata/images/hotel/square240/${h.id}.jpg`,
    stars: h.stars === null ? null : `${h.stars} out of 5`,
    area: h.area,
    distance: `${h.distance} from centre`,
    score: h.score,
    score_label: h.label,
    reviews: h.reviews === null ? null : `${thousands(h.reviews)} reviews`,
    price: `\u20ac ${thousands(h.price)}`,
    taxes: `+\u20ac ${h.taxes} taxes and charges`,
    deal: h.deal,
    headline: `${h.name} \u2013 \u20ac ${thousands(h.price)}`,
  };
}

function starsHtml(h: Hotel, outer: string, inner: string): string {
  if (h.stars === null) return '';
  return `<div class="${outer}" aria-label="${h.stars} out of 5" role="img" data-testid="rating-stars">${Array.from({ length: h.stars }, () => `<span class="${inner}">${icon('star', inner)}</span>`).join('')}</div>`;
}

function scoreHtml(h: Hotel, c: [string, string, string, string]): string {
  if (h.score === null) return '';
  return `<div data-testid="review-score" class="${c[0]}"><div class="${c[1]}" aria-hidden="true">${h.score}</div><div class="${c[2]}"><div class="${c[1]} ${c[3]}">${h.label}</div><div class="${c[3]}">${thousands(h.reviews!)} reviews</div></div></div>`;
}

function cardV1(h: Hotel): string {
  const href = `${pathOf(h)}${query}`.replace(/&/g, '&amp;');
  return `<div data-testid="property-card" class="c066246e13 d8aec464ca">
<div class="c5d4b9f2d0"><a href="${href}" data-testid="property-card-desktop-single-image" tabindex="-1"><img data-testid="image" class="f9671d49b1" src="https://cf.stay.example.test/xdata/images/hotel/square240/${h.id}.jpg" alt="${attr(h.name)}" width="200" height="200" loading="lazy"></a></div>
<div class="c1edfbabcb">
<div class="b87c397a13"><h3 class="a4225678b2"><a href="${href}" data-testid="title-link" class="a78ca197d0"><div data-testid="title" class="f6431b446c a15b38c233">${esc(h.name)}</div></a></h3>${starsHtml(h, 'b3f3c831be', 'fcd9eec8fb')}</div>
<div class="abf093bdfe"><span class="aee5343fdb"><span data-testid="address" class="aee5343fdb def9bc142a">${esc(h.area)}</span> <span data-testid="distance">${h.distance} from centre</span></span></div>
${scoreHtml(h, ['a3b8729ab1 d86cee9b25', 'ac4a7896c7', 'a3b8729ab1 e6208ee469', 'abf093bdfe f45d8e4c32'])}
<div data-testid="availability-rate-information" class="e4b7a69a57"><span class="f6431b446c" data-testid="price-and-discounted-price">\u20ac\u00a0${thousands(h.price)}</span><div data-testid="taxes-and-charges" class="abf093bdfe f45d8e4c32">+\u20ac\u00a0${h.taxes} taxes and charges</div></div>${
  h.deal ? `\n<span class="b30f8eb2d6" data-testid="deal-badge">${h.deal}</span>` : ''}
<a class="a83ed08757" href="${href}">See availability</a>
</div>
</div>`;
}

function cardV2(h: Hotel): string {
  const href = `https://stay.example.test${pathOf(h)}${query}`.replace(/&/g, '&amp;');
  return `<div data-testid="property-card" class="aa2ac8a2e1 b7e3c40e11">
<div class="f2a4c9e6b8"><a href="${href}" data-testid="property-card-desktop-single-image" tabindex="-1"><img data-testid="image" class="e3859ef1a4" src="https://cf.stay.example.test/xdata/images/hotel/square240/${h.id}.jpg" alt="" loading="lazy"></a></div>
<div class="d1d5c6ea5b"><div class="c0a62c5b3b">
<div class="dd9a4e3b01"><h3 class="cb5ec5b2da"><a href="${href}" data-testid="title-link" class="e9d5c3a71f"><div data-testid="title" class="b5b5d5a3cd">${esc(h.name)}</div></a></h3>${starsHtml(h, 'f7a4f3e8c1', 'e1f8c2d7b9')}</div>
${scoreHtml(h, ['ff82c1b2a4', 'bc946a29db', 'd0522b0cca', 'a99c0a4a7d'])}
<div class="c3f1e1a3e2"><span data-testid="address" class="b9c6d4a1f0">${esc(h.area)}</span><span class="e8f2b1d3c4"> \u00b7 </span><span data-testid="distance">${h.distance} from centre</span></div>${
  h.deal ? `\n<span class="f1e8b2a4d6" data-testid="deal-badge">${h.deal}</span>` : ''}
<div data-testid="availability-rate-information" class="a7c8d2e4f1"><span class="d6c9a3b7e5" data-testid="price-and-discounted-price">\u20ac\u00a0${thousands(h.price)}</span><div data-testid="taxes-and-charges" class="c2e5f8a1b4">+\u20ac\u00a0${h.taxes} taxes and charges</div></div>
<a class="b1f4e7a2c5" href="${href}">See availability</a>
</div></div>
</div>`;
}

const BANNER = `<div data-testid="genius-banner" class="aa2ac8a2e1 e0f1a2b3c4"><div class="f2a4c9e6b8"><img src="https://cf.stay.example.test/static/img/genius-logo.png" alt="" width="80" height="80"></div><div class="d1d5c6ea5b"><div class="c0a62c5b3b"><h3 class="cb5ec5b2da"><div class="b5b5d5a3cd">Sign in, save money</div></h3><div class="c3f1e1a3e2">Save 10% or more at participating properties \u2013 just look for the blue Genius label.</div><a class="b1f4e7a2c5" href="/sign-in">Sign in or register</a></div></div></div>`;

const SORT = '<div class="sort"><button data-testid="sorters-dropdown-trigger">Sort by: Our top picks</button></div>';

function v1(list_: Hotel[]): string {
  return doc({
    title: 'Porto hotels \u2013 15 June 2025 | Stay',
    body: `<header class="bf33709ee1" role="banner"><nav class="d1c5b7a8e5" aria-label="Account"><a href="/">Stay</a> <a href="/currency">EUR</a> <a href="/sign-in">Sign in</a></nav><nav class="e2f6c0d9b4" aria-label="Products"><a href="/">Stays</a> <a href="/flights">Flights</a> <a href="/cars">Car rental</a></nav></header>
<div class="search-box"><form action="/searchresults.html"><input name="ss" value="Porto"><input name="checkin" value="2025-06-12"><input name="checkout" value="2025-06-15"><button>Search</button></form></div>
<div class="af5895d4b2">
<div class="d4924c9e74" id="filters"><h2>Filter by:</h2><div data-filters-group="class"><h3>Property rating</h3><label><input type="checkbox"> 3 stars</label><label><input type="checkbox"> 4 stars</label><label><input type="checkbox"> 5 stars</label></div><div data-filters-group="review_score"><h3>Review score</h3><label><input type="checkbox"> Wonderful: 9+</label><label><input type="checkbox"> Very good: 8+</label></div></div>
<div class="d4924c9e74" role="region" aria-label="Search results"><h1 class="f6431b446c">Porto: ${list_.length * 23} properties found</h1>${SORT}
<div class="dcf496a7b9 bb2d7e10f5">
${list_.map(cardV1).join('\n')}
</div>
<nav class="pagination" aria-label="Pagination"><a href="/searchresults.html?ss=Porto&amp;offset=25">Next page</a></nav>
</div>
</div>
<footer class="footer" role="contentinfo"><ul><li><a href="/about">About Stay</a></li><li><a href="/terms">Terms &amp; conditions</a></li><li><a href="/privacy">Privacy &amp; cookies</a></li></ul><p>Copyright &copy; 1996\u20132025 Stay\u2122</p></footer>`,
  });
}

function v2(list_: Hotel[]): string {
  const cards = list_.map(cardV2);
  cards.splice(3, 0, BANNER);
  return doc({
    title: 'Porto hotels \u2013 15 June 2025 | Stay',
    body: `<header class="c7a2b9e1f3" role="banner"><nav class="a1b2e3c4d5" aria-label="Account"><a href="/">Stay</a> <a href="/currency">EUR</a> <a href="/sign-in">Sign in</a></nav><nav class="f5e4d3c2b1" aria-label="Products"><a href="/">Stays</a> <a href="/flights">Flights</a> <a href="/cars">Car rental</a></nav></header>
<div class="search-box"><form action="/searchresults.html"><input name="ss" value="Porto"><button>Search</button></form></div>
<div class="b2c3d4e5f6">
<aside class="a9b8c7d6e5" id="filters"><h2>Filter by:</h2><div data-filters-group="class"><h3>Property rating</h3><label><input type="checkbox"> 3 stars</label><label><input type="checkbox"> 4 stars</label></div></aside>
<div class="a9b8c7d6e5" role="region" aria-label="Search results"><h1 class="b5b5d5a3cd">Porto: ${list_.length * 23} properties found</h1>${SORT}
<div class="c6d7e8f9a0">
${cards.join('\n')}
</div>
<nav class="pagination" aria-label="Pagination"><a href="/searchresults.html?ss=Porto&amp;offset=25">Next page</a></nav>
</div>
</div>
<footer class="footer" role="contentinfo"><ul><li><a href="/about">About Stay</a></li><li><a href="/terms">Terms &amp; conditions</a></li></ul><p>Copyright \u00a9 1996\u20132025 Stay\u2122</p></footer>`,
  });
}

type Sel = { name: string; url: string; image: string; stars: string; area: string; distance: string; score: string; label: string; reviews: string; price: string; taxes: string; deal: string };
const fields = (s: Sel) => [
  text('name', s.name),
  attribute('url', s.url, 'href', 'absolute_url'),
  attribute('image', s.image, 'src', 'absolute_url'),
  attribute('stars', s.stars, 'aria-label'),
  text('area', s.area),
  text('distance', s.distance),
  text('score', s.score),
  text('score_label', s.label),
  text('reviews', s.reviews),
  text('price', s.price),
  text('taxes', s.taxes),
  text('deal', s.deal),
];
const computed = [template('headline', '{name} \u2013 {price}')];

export function build(): SiteBuild {
  const list_ = hotels();
  const schema: ExtractionRequest = {
    type: 'json_css',
    schema: {
      name: 'properties',
      base_selector: 'div.dcf496a7b9 > div.c066246e13',
      fields: fields({
        name: 'div.f6431b446c.a15b38c233', url: 'a.a78ca197d0', image: 'img.f9671d49b1', stars: 'div.b3f3c831be', area: 'span.def9bc142a',
        distance: 'span.aee5343fdb > span:last-child', score: 'div.ac4a7896c7[aria-hidden]', label: 'div.e6208ee469 > div.ac4a7896c7',
        reviews: 'div.e6208ee469 > div.f45d8e4c32:last-child', price: 'span.f6431b446c', taxes: 'div.e4b7a69a57 div.f45d8e4c32', deal: 'span.b30f8eb2d6',
      }),
    },
    computed_fields: computed,
  };
  const schemaV2: ExtractionRequest = {
    type: 'json_css',
    schema: {
      name: 'properties',
      base_selector: 'div.c6d7e8f9a0 > div[data-testid="property-card"]',
      fields: fields({
        name: '[data-testid="title"]', url: 'a[data-testid="title-link"]', image: 'img[data-testid="image"]', stars: '[data-testid="rating-stars"]',
        area: '[data-testid="address"]', distance: '[data-testid="distance"]', score: 'div.bc946a29db[aria-hidden]', label: 'div.d0522b0cca > div.bc946a29db',
        reviews: 'div.d0522b0cca > div.a99c0a4a7d:last-child', price: '[data-testid="price-and-discounted-price"]', taxes: '[data-testid="taxes-and-charges"]',
        deal: '[data-testid="deal-badge"]',
      }),
    },
    computed_fields: computed,
  };
  return {
    id: 'hotel-search',
    meta: {
      kind: 'hotel search results',
      page_url: PAGE_URL,
      changes: ['class_renamed', 'extra_wrapper', 'fields_reordered', 'promo_inserted', 'optional_missing', 'relative_urls_changed'],
      v1_schema_on_v2: 'no_base_match',
      hard_cases: [
        'all classes are build hashes that rotate; data-testid values (property-card, title, address, review-score…) are the stable attribute values',
        'the membership banner card shares the card\'s outer hash class and inner layout classes, with an <h3> title and a link, but no data-testid="property-card"',
        'score, score label and reviews are three sibling <div>s of the review-score block, all optional (new properties have none); stars is an aria-label',
        'price and taxes use nbsp after the euro sign; the v1 price selector (span.f6431b446c) relies on a hash that is also on the title div',
        'links change from path-absolute to absolute with a long query (&amp; in the markup)',
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
