import type { ExtractedRecord, ExtractionRequest } from '../../support/extraction-corpus.ts';
import { doc, ent, esc } from './html.ts';
import { attribute, template, text, type SiteBuild } from './site.ts';

// A used-car classifieds site that still lists results in a <table>, with a request written the way people
// write them for tables: td:nth-child(n). v2 renames the table id and the row classes, adds a "compare" checkbox
// column in front, moves the price column before the year, inserts sponsored rows (one cell spanning the row),
// and writes the links path-absolute instead of relative.

const PAGE_URL = 'https://autos.example.test/used/hatchbacks/?page=2';

interface Car {
  id: number;
  make: string;
  model: string;
  trim: string | null;
  seller: string | null;
  year: number;
  km: number;
  price: number;
  vat: boolean;
  place: string;
}

const RAW: [string, string, string | null, number, number, number, string][] = [
  ['Peugeot', '208', '1.2 PureTech 100 Allure', 2019, 48200, 14900, 'Lyon (69)'],
  ['Renault', 'Clio V', 'TCe 90 Intens', 2021, 23150, 16490, 'Villeurbanne (69)'],
  ['Volkswagen', 'Polo', '1.0 TSI 95 Life', 2020, 61000, 15200, 'Grenoble (38)'],
  ['Toyota', 'Yaris', 'Hybrid 116h Design', 2022, 18700, 21900, 'Saint-\u00c9tienne (42)'],
  ['Citro\u00ebn', 'C3', null, 2018, 84500, 9990, 'Bourg-en-Bresse (01)'],
  ['Ford', 'Fiesta', '1.0 EcoBoost 100 ST-Line', 2019, 55300, 13450, 'Annecy (74)'],
  ['Opel', 'Corsa', 'e-Corsa 136 Elegance', 2021, 31800, 18900, 'Lyon (69)'],
  ['Dacia', 'Sandero', 'Stepway TCe 90', 2023, 9800, 15990, 'Vienne (38)'],
  ['Seat', 'Ibiza', '1.0 TSI 110 FR', 2020, 42600, 14700, 'Chamb\u00e9ry (73)'],
  ['Skoda', 'Fabia', null, 2017, 102300, 8490, 'M\u00e2con (71)'],
  ['Hyundai', 'i20', '1.0 T-GDi 100 Creative', 2021, 27400, 15950, 'Valence (26)'],
  ['Kia', 'Rio', '1.2 DPi 84 Active', 2020, 39900, 12990, 'Lyon (69)'],
  ['Mini', 'Cooper', '136 ch Edition Camden', 2019, 51200, 19900, 'Annecy (74)'],
  ['Fiat', '500', '1.0 Hybrid Dolcevita', 2022, 12100, 14490, 'Villefranche-sur-Sa\u00f4ne (69)'],
  ['Nissan', 'Micra', 'IG-T 92 N-Design', 2019, 47800, 11900, 'Roanne (42)'],
  ['Mazda', '2', 'Skyactiv-G 90 Selection', 2020, 36500, 14200, 'Grenoble (38)'],
  ['Suzuki', 'Swift', '1.2 Dualjet Hybrid Pack', 2021, 29300, 13990, 'Oyonnax (01)'],
  ['Audi', 'A1 Sportback', '30 TFSI 110 S line', 2020, 44700, 22900, 'Lyon (69)'],
  ['Honda', 'Jazz', 'e:HEV 109 Advance', 2022, 15600, 23490, 'Chamb\u00e9ry (73)'],
  ['Peugeot', 'e-208', '136 ch GT', 2021, 34100, 19990, 'Villeurbanne (69)'],
  ['Renault', 'Zoe', 'R110 Zen', 2019, 58700, 11490, 'Bourgoin-Jallieu (38)'],
  ['Volkswagen', 'up!', null, 2018, 67400, 7990, 'Vienne (38)'],
  ['Toyota', 'Aygo X', '1.0 VVT-i 72 Air', 2023, 6200, 16490, 'Lyon (69)'],
  ['Opel', 'Adam', '1.4 Twinport 87 Jam', 2017, 91800, 6990, 'Saint-Priest (69)'],
  ['BMW', 'i3', '120 Ah Atelier', 2019, 49900, 18490, 'Annecy (74)'],
];

function cars(): Car[] {
  return RAW.map(([make, model, trim, year, km, price, place], i) => ({
    id: 88123 + i * 41,
    make, model, trim, year, km, price, place,
    seller: i % 4 === 1 ? null : i % 3 === 0 ? 'Dealer' : 'Private',
    vat: i % 5 === 0,
  }));
}

/** French grouping: a non-breaking space every three digits. */
const grouped = (n: number) => String(n).replace(/\B(?=(\d{3})+(?!\d))/g, '\u00a0');

function expected(c: Car): ExtractedRecord {
  const title = `${c.make} ${c.model}`;
  return {
    title,
    url: `https://autos.example.test/used/annonce/${c.id}.html`,
    trim: c.trim,
    seller: c.seller,
    year: String(c.year),
    mileage: `${grouped(c.km).replace(/\u00a0/g, ' ')} km`,
    price: `${grouped(c.price).replace(/\u00a0/g, ' ')} \u20ac`,
    vat: c.vat ? 'VAT deductible' : null,
    location: c.place,
    photo: `https://img.autos.example.test/t/${c.id}.jpg`,
    summary: `${c.year} ${title}, ${grouped(c.price).replace(/\u00a0/g, ' ')} \u20ac`,
  };
}

const titleCell = (c: Car, href: string) =>
  `<a href="${href}">${ent(`${c.make} ${c.model}`)}</a>${c.trim ? `<br><small>${esc(c.trim)}</small>` : ''}${c.seller ? ` <span class="${c.seller === 'Dealer' ? 'pro' : 'part'}">${c.seller}</span>` : ''}`;
const priceCell = (c: Car) => `<b>${ent(`${grouped(c.price)}\u00a0\u20ac`)}</b>${c.vat ? '<br><span class="vat">VAT deductible</span>' : ''}`;

function rowV1(c: Car, i: number): string {
  return `<tr class="listing ${i % 2 ? 'even' : 'odd'}" id="l${c.id}">
<td class="thumb"><a href="../annonce/${c.id}.html"><img src="//img.autos.example.test/t/${c.id}.jpg" width="120" height="90" alt=""></a></td>
<td class="title">${titleCell(c, `../annonce/${c.id}.html`)}</td>
<td class="year">${c.year}</td>
<td class="km">${ent(grouped(c.km))}&nbsp;km</td>
<td class="price">${priceCell(c)}</td>
<td class="loc">${ent(c.place)}</td>
</tr>`;
}

function rowV2(c: Car): string {
  return `<tr class="r-item" data-id="${c.id}">
<td class="c-cmp"><label><input type="checkbox" name="compare" value="${c.id}"><span class="sr-only">Compare</span></label></td>
<td class="c-img"><a href="/used/annonce/${c.id}.html"><img src="https://img.autos.example.test/t/${c.id}.jpg" loading="lazy" width="160" height="120" alt="${esc(`${c.make} ${c.model}`)}"></a></td>
<td class="c-veh">${titleCell(c, `/used/annonce/${c.id}.html`)}</td>
<td class="c-eur">${priceCell(c)}</td>
<td class="c-yr">${c.year}</td>
<td class="c-km">${grouped(c.km)}\u00a0km</td>
<td class="c-loc">${esc(c.place)}</td>
</tr>`;
}

const sponsoredRow = (n: number) => `<tr class="r-sponsored"><td colspan="7"><a href="https://ads.example.test/click?c=auto-${n}"><img src="https://ads.example.test/b/${n}.png" width="160" height="60" alt=""> <b>Finance your next car from 2.9% APR</b> <small>Representative example: 10\u00a0000 \u20ac over 48 months</small></a> <span class="r-sponsored__label">Sponsored</span></td></tr>`;

const HEAD_V1 = '<thead><tr><th></th><th>Vehicle</th><th>Year</th><th>Mileage</th><th>Price</th><th>Location</th></tr></thead>';
const HEAD_V2 = '<thead><tr><th><span class="sr-only">Compare</span></th><th></th><th>Vehicle</th><th>Price</th><th>Year</th><th>Mileage</th><th>Location</th></tr></thead>';

function v1(list: Car[]): string {
  return doc({
    lang: 'fr',
    title: 'Used hatchbacks for sale - page 2 - AutoCote',
    body: `<table width="100%" class="layout" cellpadding="0" cellspacing="0"><tbody><tr><td>
<header id="top"><a href="/"><img src="/i/logo.gif" alt="AutoCote" width="180" height="40"></a> <span class="tagline">Used cars, private and dealer</span></header>
<nav id="menu"><a href="/used/">Used cars</a> | <a href="/new/">New cars</a> | <a href="/sell/">Sell your car</a> | <a href="/quote/">Car valuation</a></nav>
</td></tr></tbody></table>
<div id="wrapper">
<div id="left"><h3>Refine</h3><form action="/used/hatchbacks/" method="get"><p>Max price<br><select name="pmax"><option>10 000 \u20ac</option><option>20 000 \u20ac</option></select></p><p>Fuel<br><label><input type="checkbox" name="f" value="e"> Electric</label><br><label><input type="checkbox" name="f" value="h"> Hybrid</label></p><input type="submit" value="Search"></form></div>
<div id="content">
<h1>Used hatchbacks <span class="count">(312 ads)</span></h1>
<p class="sort">Sort: <a href="?page=2&amp;sort=price">price</a> | <a href="?page=2&amp;sort=date">date</a></p>
<table id="results" class="results" cellspacing="0">
${HEAD_V1}
<tbody>
${list.map(rowV1).join('\n')}
</tbody>
</table>
<p class="pages">Pages: <a href="?page=1">1</a> <b>2</b> <a href="?page=3">3</a> <a href="?page=4">4</a></p>
</div>
</div>
<footer id="footer"><a href="/legal.html">Legal notice</a> - <a href="/contact.html">Contact</a> - <a href="/cgu.html">Terms of use</a><br>&copy; AutoCote 2004-2025</footer>`,
  });
}

function v2(list: Car[]): string {
  const rows: string[] = [];
  list.forEach((c, i) => {
    if (i > 0 && i % 8 === 0) rows.push(sponsoredRow(i / 8));
    rows.push(rowV2(c));
  });
  return doc({
    lang: 'fr',
    title: 'Used hatchbacks | AutoCote',
    body: `<header class="hdr"><a class="hdr__logo" href="/">AutoCote</a><nav class="hdr__nav" aria-label="Main"><a href="/used/">Used cars</a><a href="/new/">New cars</a><a href="/sell/">Sell your car</a><a href="/quote/">Valuation</a></nav><a class="hdr__account" href="/account/">My account</a></header>
<div class="page">
<aside class="filters"><h2>Refine</h2><form action="/used/hatchbacks/"><label>Max price <select name="pmax"><option>10 000 \u20ac</option><option>20 000 \u20ac</option></select></label><fieldset><legend>Fuel</legend><label><input type="checkbox" name="f" value="e"> Electric</label><label><input type="checkbox" name="f" value="h"> Hybrid</label></fieldset><button>Apply</button></form></aside>
<main class="results-main">
<h1>Used hatchbacks <span>312 ads</span></h1>
<div class="toolbar"><a href="/used/hatchbacks/?page=2&amp;sort=price">Sort by price</a></div>
<table id="search-results" class="tbl-results">
${HEAD_V2}
<tbody>
${rows.join('\n')}
</tbody>
</table>
<nav class="pager" aria-label="Pages"><a href="/used/hatchbacks/?page=1">\u2039 Previous</a> <a href="/used/hatchbacks/?page=3">Next \u203a</a></nav>
</main>
</div>
<footer class="ftr"><a href="/legal.html">Legal notice</a> <a href="/contact.html">Contact</a> <a href="/cgu.html">Terms of use</a><p>\u00a9 AutoCote 2004-2025</p></footer>`,
  });
}

type Sel = { title: string; trim: string; seller: string; year: string; km: string; price: string; vat: string; loc: string; photo: string };
const fields = (s: Sel) => [
  text('title', s.title),
  attribute('url', s.title, 'href', 'absolute_url'),
  text('trim', s.trim),
  text('seller', s.seller),
  text('year', s.year),
  text('mileage', s.km),
  text('price', s.price),
  text('vat', s.vat),
  text('location', s.loc),
  attribute('photo', s.photo, 'src', 'absolute_url'),
];
const computed = [template('summary', '{year} {title}, {price}')];

export function build(): SiteBuild {
  const list = cars();
  const schema: ExtractionRequest = {
    type: 'json_css',
    schema: {
      name: 'listings',
      base_selector: 'table#results > tbody > tr.listing',
      fields: fields({
        title: 'td:nth-child(2) > a', trim: 'td:nth-child(2) > small', seller: 'td:nth-child(2) > span', year: 'td:nth-child(3)',
        km: 'td:nth-child(4)', price: 'td:nth-child(5) > b', vat: 'td:nth-child(5) .vat', loc: 'td:nth-child(6)', photo: 'td:nth-child(1) img',
      }),
    },
    computed_fields: computed,
  };
  const schemaV2: ExtractionRequest = {
    type: 'json_css',
    schema: {
      name: 'listings',
      base_selector: 'table#search-results > tbody > tr.r-item',
      fields: fields({
        title: 'td:nth-child(3) > a', trim: 'td:nth-child(3) > small', seller: 'td:nth-child(3) > span', year: 'td:nth-child(5)',
        km: 'td:nth-child(6)', price: 'td:nth-child(4) > b', vat: 'td:nth-child(4) .vat', loc: 'td:nth-child(7)', photo: 'td:nth-child(2) img',
      }),
    },
    computed_fields: computed,
  };
  const records = list.map(expected);
  return {
    id: 'table-listing',
    meta: {
      kind: 'table-based listing',
      page_url: PAGE_URL,
      changes: ['class_renamed', 'id_renamed', 'fields_reordered', 'promo_inserted', 'optional_missing', 'relative_urls_changed'],
      v1_schema_on_v2: 'no_base_match',
      hard_cases: [
        'fields are table cells told apart only by position (td:nth-child) and content shape; v2 shifts every column by one and swaps price and year',
        'year and mileage cells hold bare numbers ("2019", "48 200 km" with nbsp grouping) that look alike; price digits are grouped with nbsp too',
        'sponsored rows are <tr>s in the same <tbody> with one colspan cell holding an image, bold text and a link',
        'seller is the <span> after the optional trim <small>; trim, seller and vat are each missing in some rows',
        'the layout of v1 is itself a table (header in a layout table), so "a table row" is not enough to find the records',
      ],
    },
    schema,
    schemaV2,
    v1: v1(list),
    v2: v2(list),
    expectedV1: records,
    expectedV2: records,
  };
}
