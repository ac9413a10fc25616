import { attr, doc, esc, icon, links, PIXEL, prng, slug } from '../extraction-corpus/build/html.ts';
import type { ExtractedRecord, ExtractionRequest } from './extraction-corpus.ts';

/**
 * One large catalogue page (about 5,000 elements: 250 product cards, a mega menu, filters and a footer) in two
 * versions, for the CPU figures of bench/extraction.bench.ts: v1 matches LARGE_SCHEMA; v2 is the redesign
 * (CSS-module classes, an inner wrapper, <article> cards, price before title, a sponsored tile every tenth
 * position, relative links) on which LARGE_SCHEMA matches nothing. Both carry the same records (`expected`).
 * Deterministic: the same page on every run.
 */
export const LARGE_PAGE_URL = 'https://shop.example.test/catalog/all';
export const LARGE_CARDS = 250;

const ADJ = ['Classic', 'Relaxed', 'Slim', 'Oversized', 'Cropped', 'Tailored', 'Organic', 'Recycled', 'Heavyweight', 'Lightweight', 'Vintage', 'Essential'];
const MAT = ['Cotton', 'Linen', 'Merino', 'Denim', 'Corduroy', 'Twill', 'Jersey', 'Fleece', 'Poplin', 'Cashmere'];
const ITEM = ['Shirt', 'T-Shirt', 'Chinos', 'Jacket', 'Sweater', 'Hoodie', 'Shorts', 'Overshirt', 'Trousers', 'Cardigan', 'Dress', 'Skirt'];
const BADGES = ['New', 'Bestseller', 'Online exclusive', 'Last few'];

interface Item {
  sku: string;
  name: string;
  path: string;
  cents: number;
  wasCents: number | null;
  rating: string | null;
  reviews: number | null;
  badge: string | null;
}

function items(n: number): Item[] {
  const r = prng(250);
  return Array.from({ length: n }, (_, i) => {
    const name = `${ADJ[Math.floor(r() * ADJ.length)]} ${MAT[Math.floor(r() * MAT.length)]} ${ITEM[Math.floor(r() * ITEM.length)]}`;
    const sku = `AL-${String(20001 + i)}`;
    const cents = (19 + Math.floor(r() * 180)) * 100 + (r() < 0.4 ? 95 : 0);
    const reviewed = r() < 0.75;
    return {
      sku,
      name,
      path: `all/${slug(name)}-${sku.toLowerCase()}`,
      cents,
      wasCents: r() < 0.3 ? cents + (2 + Math.floor(r() * 6)) * 500 : null,
      rating: reviewed ? (2.5 + Math.floor(r() * 26) / 10).toFixed(1) : null,
      reviews: reviewed ? 1 + Math.floor(r() * 2000) : null,
      badge: r() < 0.3 ? BADGES[Math.floor(r() * BADGES.length)] : null,
    };
  });
}

const euros = (cents: number) => `${Math.floor(cents / 100)}.${String(cents % 100).padStart(2, '0')}`;

function expected(p: Item): ExtractedRecord {
  const price = `\u20ac ${euros(p.cents)}`;
  return {
    name: p.name,
    url: `https://shop.example.test/catalog/${p.path}`,
    image: `https://cdn.shop.example.test/media/${p.sku.toLowerCase()}.jpg?w=360`,
    price,
    was_price: p.wasCents === null ? null : `\u20ac ${euros(p.wasCents)}`,
    rating: p.rating,
    reviews: p.reviews === null ? null : `(${p.reviews})`,
    badge: p.badge?.toLowerCase() ?? null,
    sku: p.sku,
    label: `${p.name} \u2013 ${price}`,
  };
}

function cardV1(p: Item): string {
  const [whole, fraction] = euros(p.cents).split('.');
  return `<div class="product-card">
<a class="product-card__link" href="/catalog/${p.path}"><div class="product-card__media"><img class="product-card__image lazyload" src="${PIXEL}" data-src="https://cdn.shop.example.test/media/${p.sku.toLowerCase()}.jpg?w=360" alt="${attr(p.name)}">${
  p.badge ? `<span class="product-card__badge">${p.badge}</span>` : ''}</div><h3 class="product-card__title">${esc(p.name)}</h3></a>
<div class="product-card__price"><span class="price price--current">${icon('tag')} &euro;&nbsp;${whole}<!-- -->.${fraction}</span>${p.wasCents ? ` <s class="price price--was">&euro;&nbsp;${euros(p.wasCents)}</s>` : ''}</div>${
  p.rating ? `\n<div class="product-card__rating" data-rating="${p.rating}"><span class="stars" aria-hidden="true">\u2605\u2605\u2605\u2605\u2606</span> <span class="product-card__count">(${p.reviews})</span></div>` : ''}
<ul class="product-card__swatches"><li><span class="swatch" title="Black"></span></li><li><span class="swatch" title="Navy"></span></li></ul>
<button type="button" class="product-card__cta add-to-cart" data-sku="${p.sku}">Add to bag</button>
</div>`;
}

function cardV2(p: Item): string {
  return `<article class="ProductTile_tile__2Xc8H"><div class="ProductTile_inner__b7Tq1">
<a class="ProductTile_media__Lp0aZ" href="${p.path}" tabindex="-1"><img class="ProductTile_img__9Hf2s" src="${PIXEL}" data-src="//cdn.shop.example.test/media/${p.sku.toLowerCase()}.jpg?w=360" alt=""></a>
<div class="ProductTile_body__x1Y7w"><p class="ProductTile_price__mN4rE"><span class="Price_now__Q8sLd">${icon('tag', 'Icon_icon__u7Yh0')}\u20ac\u00a0${euros(p.cents)}</span>${
  p.wasCents ? ` <del class="Price_was__7VnPq">\u20ac\u00a0${euros(p.wasCents)}</del>` : ''}</p>
<h2 class="ProductTile_title__f3KsJ"><a href="${p.path}">${esc(p.name)}</a></h2>${
  p.rating ? `<div class="Stars_root__Vb3Xa" data-rating="${p.rating}"><span aria-hidden="true">\u2605\u2605\u2605\u2605\u2606</span><span class="Stars_count__c2PqM">(${p.reviews})</span></div>` : ''}${
  p.badge ? `<span class="Badge_badge__Zt5dC">${p.badge}</span>` : ''}</div>
<button type="button" class="Button_btn__1aBcD" data-sku="${p.sku}">Add to bag</button>
</div></article>`;
}

const promoV2 = (k: number) => `<article class="PromoTile_tile__Hh3Jk"><div class="PromoTile_inner__e4Rt6"><a class="PromoTile_media__z8Xy1" href="/campaign/c${k}"><img class="PromoTile_img__v5Bn2" src="${PIXEL}" data-src="//cdn.shop.example.test/campaign/c${k}.jpg" alt=""></a><div class="PromoTile_body__q2We3"><p class="PromoTile_kicker__m9Kl0">Sponsored</p><h2 class="PromoTile_title__t6Yu7"><a href="/campaign/c${k}">Campaign ${k}: 3 for 2</a></h2><p class="PromoTile_price__p0Oi9">From \u20ac\u00a019.00</p></div><a class="Button_btn__1aBcD" href="/campaign/c${k}">Shop now</a></div></article>`;

/** The mega menu: 8 departments × 5 groups × 8 links, as big shops ship it in every page. */
function megaMenu(cls: (s: string) => string): string {
  const depts = ['Women', 'Men', 'Kids', 'Home', 'Beauty', 'Shoes', 'Accessories', 'Sale'];
  return depts
    .map((d) => `<li class="${cls('dept')}"><a href="/${slug(d)}">${d}</a><div class="${cls('panel')}">${Array.from({ length: 5 }, (_, g) =>
      `<div class="${cls('group')}"><h4>${d} ${ITEM[g]}</h4>${links(Array.from({ length: 8 }, (_, l) => [`${ADJ[l]} ${ITEM[g]}`, `/${slug(d)}/${slug(ITEM[g])}/${slug(ADJ[l])}`] as [string, string]))}</div>`).join('')}</div></li>`)
    .join('\n');
}

function filters(): string {
  return ['Size', 'Colour', 'Material', 'Fit', 'Price'].map((f, i) =>
    `<fieldset class="filters__group"><legend>${f}</legend>${Array.from({ length: 8 }, (_, k) => `<label><input type="checkbox" name="f${i}" value="${k}"> ${f} ${k + 1} <span class="n">(${(k * 37 + i * 11) % 90})</span></label>`).join('')}</fieldset>`).join('');
}

function footer(): string {
  return Array.from({ length: 4 }, (_, c) => `<div class="site-footer__col"><h3>Column ${c + 1}</h3>${links(Array.from({ length: 10 }, (_, l) => [`Link ${c}-${l}`, `/help/${c}/${l}`] as [string, string]))}</div>`).join('');
}

export interface LargePage {
  html: string;
  expected: ExtractedRecord[];
}

export function largePage(version: 'v1' | 'v2', cards = LARGE_CARDS): LargePage {
  const list = items(cards);
  const expectedRecords = list.map(expected);
  if (version === 'v1') {
    return {
      expected: expectedRecords,
      html: doc({
        title: 'All clothing | Northfold',
        body: `<header class="site-header"><a class="site-header__logo" href="/">Northfold</a>
<nav class="mega" aria-label="Main"><ul class="mega__list">${megaMenu((s) => `mega__${s}`)}</ul></nav></header>
<main class="category"><nav class="breadcrumb"><a href="/">Home</a> / All clothing</nav><h1>All clothing</h1>
<div class="category__layout"><aside class="filters">${filters()}</aside>
<section class="category__results"><div id="product-grid" class="product-grid">
${list.map(cardV1).join('\n')}
</div></section></div></main>
<footer class="site-footer">${footer()}<p>&copy; 2025 Northfold Ltd.</p></footer>`,
      }),
    };
  }
  const tiles: string[] = [];
  list.forEach((p, i) => {
    if (i > 0 && i % 9 === 0) tiles.push(promoV2(i / 9));
    tiles.push(cardV2(p));
  });
  return {
    expected: expectedRecords,
    html: doc({
      title: 'All clothing \u2013 Northfold',
      body: `<div id="__next"><header class="Header_header__yT7Lm"><a class="Header_logo__R1tGb" href="/">Northfold</a>
<nav class="Mega_root__a1B2c" aria-label="Main"><ul class="Mega_list__d3E4f">${megaMenu((s) => `Mega_${s}__x9Y8z`)}</ul></nav></header>
<main class="Category_main__Pq9Ow"><nav class="Crumbs_root__Xc7Vb"><a href="/">Home</a> / All clothing</nav><h1>All clothing</h1>
<div class="Category_body__Rt5Yu"><aside class="Facets_root__Bn8Mj">${filters()}</aside>
<section class="Grid_grid__kQ2mV" aria-label="Products">
${tiles.join('\n')}
</section></div></main>
<footer class="Footer_footer__Lp4Ki">${footer()}<p>\u00a9 2025 Northfold Ltd.</p></footer></div>`,
    }),
  };
}

const fields = (s: Record<'name' | 'url' | 'image' | 'price' | 'was' | 'rating' | 'reviews' | 'badge' | 'sku', string>): ExtractionRequest['schema']['fields'] => [
  { name: 'name', selector: s.name, type: 'text' },
  { name: 'url', selector: s.url, type: 'attribute', attribute: 'href', transform: 'absolute_url' },
  { name: 'image', selector: s.image, type: 'attribute', attribute: 'data-src', transform: 'absolute_url' },
  { name: 'price', selector: s.price, type: 'text' },
  { name: 'was_price', selector: s.was, type: 'text' },
  { name: 'rating', selector: s.rating, type: 'attribute', attribute: 'data-rating' },
  { name: 'reviews', selector: s.reviews, type: 'text' },
  { name: 'badge', selector: s.badge, type: 'text', transform: 'lowercase' },
  { name: 'sku', selector: s.sku, type: 'attribute', attribute: 'data-sku' },
];

/** The request written against v1 (what the engine gets for both versions). */
export const LARGE_SCHEMA: ExtractionRequest = {
  type: 'json_css',
  schema: {
    name: 'catalogue',
    base_selector: '#product-grid .product-card',
    fields: fields({
      name: '.product-card__title', url: 'a.product-card__link', image: 'img.product-card__image', price: '.price--current', was: '.price--was',
      rating: '.product-card__rating', reviews: '.product-card__count', badge: '.product-card__badge', sku: 'button.add-to-cart',
    }),
  },
  computed_fields: [{ name: 'label', operation: 'template', template: '{name} \u2013 {price}' }],
};

/** Selectors right for v2: only to check the page. */
export const LARGE_SCHEMA_V2: ExtractionRequest = {
  ...LARGE_SCHEMA,
  schema: {
    ...LARGE_SCHEMA.schema,
    base_selector: 'section.Grid_grid__kQ2mV > article.ProductTile_tile__2Xc8H',
    fields: fields({
      name: '.ProductTile_title__f3KsJ', url: '.ProductTile_title__f3KsJ a', image: 'img.ProductTile_img__9Hf2s', price: '.Price_now__Q8sLd',
      was: '.Price_was__7VnPq', rating: '[data-rating]', reviews: '.Stars_count__c2PqM', badge: '.Badge_badge__Zt5dC', sku: 'button[data-sku]',
    }),
  },
};
