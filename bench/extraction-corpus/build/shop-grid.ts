import type { ExtractedRecord, ExtractionRequest } from '../../support/extraction-corpus.ts';
import { attr, cookieBanner, doc, ent, esc, icon, links, PIXEL, prng, slug } from './html.ts';
import { attribute, template, text, type SiteBuild } from './site.ts';

// A fashion shop's category grid. v2 is the Next.js rebuild: CSS-module class names, an inner wrapper per tile,
// <article> tiles, price above the title, sponsored campaign tiles in the grid, relative and scheme-relative URLs.

const PAGE_URL = 'https://shop.example.test/catalog/knitwear';

const NAMES = [
  'Merino Crew Sweater', 'Cable-Knit Cardigan \u2013 Oatmeal', 'Ribbed Beanie & Scarf Set', 'Lambswool V-Neck',
  'Chunky Roll-Neck Jumper', 'Alpaca Blend Cardigan', 'Fisherman\u2019s Rib Sweater', 'Cashmere Crew \u2013 Navy',
  'Fair Isle Yoke Sweater', 'Merino Polo Knit', 'Mohair Slouch Jumper', 'Cotton Cable Tank', 'Brushed Wool Overshirt',
  'Waffle-Knit Henley', 'Zip-Neck Merino Pullover', 'Aran Knit Cardigan', 'Cropped Bouclé Cardigan',
  'Donegal Tweed Knit', 'Cashmere Beanie', 'Lightweight Linen Knit Tee', 'Shetland Crew \u201cHeather\u201d',
  'Recycled Cotton Sweatshirt', 'Textured Stitch Vest', 'Marl Knit Socks (3-pack)',
];
const BADGES = ['Bestseller', 'New', 'Online exclusive', 'Last few'];

interface Product {
  sku: string;
  name: string;
  path: string;
  image: string;
  cents: number;
  wasCents: number | null;
  rating: string | null;
  reviews: number | null;
  badge: string | null;
  swatches: number;
}

function products(): Product[] {
  const r = prng(1001);
  return NAMES.map((name, i) => {
    const sku = `KN-${1001 + i}`;
    const cents = (Math.floor(r() * 14) * 10 + 29) * 100 + (r() < 0.3 ? 50 : 0);
    const onSale = r() < 0.35;
    const reviewed = r() < 0.8;
    return {
      sku,
      name,
      path: `knitwear/${slug(name)}-${sku.toLowerCase()}`,
      image: `cdn.shop.example.test/media/${sku.toLowerCase()}-front.jpg?w=480&q=75`,
      cents,
      wasCents: onSale ? cents + (Math.floor(r() * 4) + 2) * 1000 : null,
      rating: reviewed ? (3 + Math.floor(r() * 21) / 10).toFixed(1) : null,
      reviews: reviewed ? 1 + Math.floor(r() * 400) : null,
      badge: r() < 0.4 ? BADGES[Math.floor(r() * BADGES.length)] : null,
      swatches: 1 + Math.floor(r() * 4),
    };
  });
}

const euros = (cents: number) => `${Math.floor(cents / 100)}.${String(cents % 100).padStart(2, '0')}`;
const stars = (rating: string) => {
  const full = Math.round(Number(rating));
  return '\u2605'.repeat(full) + '\u2606'.repeat(5 - full);
};
const SWATCHES = [['#2b2b2b', 'Charcoal'], ['#c8b89a', 'Oatmeal'], ['#1f2f4a', 'Navy'], ['#7a2e2e', 'Burgundy']];

function expected(p: Product): ExtractedRecord {
  const price = `\u20ac ${euros(p.cents)}`;
  return {
    name: p.name,
    url: `https://shop.example.test/catalog/${p.path}`,
    image: `https://${p.image}`,
    price,
    was_price: p.wasCents === null ? null : `Was \u20ac ${euros(p.wasCents)}`,
    rating: p.rating,
    reviews: p.reviews === null ? null : `(${p.reviews})`,
    badge: p.badge?.toLowerCase() ?? null,
    sku: p.sku,
    label: `${p.name} \u2013 ${price}`,
  };
}

function cardV1(p: Product, i: number): string {
  const [whole, fraction] = euros(p.cents).split('.');
  return `        <div class="product-card${p.wasCents ? ' product-card--sale' : ''}" data-position="${i + 1}">
          <a class="product-card__link" href="/catalog/${attr(p.path)}">
            <div class="product-card__media">
              <img class="product-card__image lazyload" src="${PIXEL}" data-src="https://${attr(p.image)}" alt="${attr(p.name)}" width="480" height="600">${
                p.badge ? `\n              <span class="product-card__badge">${p.badge === 'New' ? ' New ' : esc(p.badge)}</span>` : ''}
            </div>
            <h3 class="product-card__title">
              ${ent(p.name)}
            </h3>
          </a>
          <div class="product-card__price">
            <span class="price price--current">${icon('tag')} &euro;&nbsp;${whole}<!-- -->.${fraction}</span>${
              p.wasCents ? `\n            <s class="price price--was"><span class="visually-hidden">Was </span>&euro;&nbsp;${euros(p.wasCents)}</s>` : ''}
          </div>${
            p.rating ? `\n          <div class="product-card__rating" data-rating="${p.rating}" title="${p.rating} out of 5 stars">
            ${stars(p.rating)} <span class="product-card__count">(${p.reviews})</span>
          </div>` : ''}
          <ul class="product-card__swatches">${SWATCHES.slice(0, p.swatches).map(([c, n]) => `<li><span class="swatch" style="background:${c}" title="${n}"></span></li>`).join('')}</ul>
          <button type="button" class="product-card__cta add-to-cart" data-sku="${p.sku}">Add to bag</button>
        </div>`;
}

function cardV2(p: Product): string {
  return `<article class="ProductTile_tile__2Xc8H" data-testid="product-tile"><div class="ProductTile_inner__b7Tq1">
<a class="ProductTile_media__Lp0aZ" href="${attr(p.path)}" tabindex="-1" aria-hidden="true"><img class="ProductTile_img__9Hf2s" src="${PIXEL}" data-src="//${attr(p.image)}" loading="lazy" alt=""></a>
<div class="ProductTile_body__x1Y7w">
<p class="ProductTile_price__mN4rE"><span class="Price_now__Q8sLd">${icon('tag', 'Icon_icon__u7Yh0')}\u20ac\u00a0${euros(p.cents)}</span>${
  p.wasCents ? ` <del class="Price_was__7VnPq"><span class="sr-only">Was </span>\u20ac\u00a0${euros(p.wasCents)}</del>` : ''}</p>
<h2 class="ProductTile_title__f3KsJ"><a href="${attr(p.path)}">${esc(p.name)}</a></h2>${
  p.rating ? `\n<div class="Stars_root__Vb3Xa" data-rating="${p.rating}" role="img" aria-label="${p.rating} out of 5 stars"><span aria-hidden="true">${stars(p.rating)}</span><span class="Stars_count__c2PqM">(${p.reviews})</span></div>` : ''}${
  p.badge ? `\n<span class="Badge_badge__Zt5dC Badge_dark__1wQe0">${esc(p.badge)}</span>` : ''}
</div>
<button type="button" class="Button_btn__1aBcD Button_primary__kL0sX" data-sku="${p.sku}">Add to bag</button>
</div></article>`;
}

const PROMOS = [
  ['winter-layers', 'Winter layers: 3 for 2 on knitwear', 'From \u20ac\u00a039.00'],
  ['care-guide', 'How to care for cashmere', 'Read the guide'],
  ['gift-cards', 'Gift cards, delivered instantly', 'From \u20ac\u00a025.00'],
];

function promoV2(i: number): string {
  const [key, title, price] = PROMOS[i % PROMOS.length];
  return `<article class="PromoTile_tile__Hh3Jk"><div class="PromoTile_inner__e4Rt6">
<a class="PromoTile_media__z8Xy1" href="/campaign/${key}"><img class="PromoTile_img__v5Bn2" src="${PIXEL}" data-src="//cdn.shop.example.test/campaign/${key}.jpg" loading="lazy" alt=""></a>
<div class="PromoTile_body__q2We3"><p class="PromoTile_kicker__m9Kl0">Sponsored</p>
<h2 class="PromoTile_title__t6Yu7"><a href="/campaign/${key}">${esc(title)}</a></h2>
<p class="PromoTile_price__p0Oi9">${esc(price)}</p></div>
<a class="Button_btn__1aBcD Button_secondary__Jh7Ty" href="/campaign/${key}">Shop now</a>
</div></article>`;
}

const NAV: [string, string][] = [['New in', '/new'], ['Women', '/women'], ['Men', '/men'], ['Knitwear', '/catalog/knitwear'], ['Coats & jackets', '/catalog/coats'], ['Accessories', '/catalog/accessories'], ['Sale', '/sale']];
const FOOTER: [string, string][] = [['Help & FAQs', '/help'], ['Delivery', '/help/delivery'], ['Returns', '/help/returns'], ['Store finder', '/stores'], ['Careers', '/careers'], ['Privacy', '/privacy']];

function v1(list: Product[]): string {
  return doc({
    title: 'Knitwear | Northfold',
    bodyAttrs: 'class="page-category"',
    body: `<a class="skip-link" href="#main">Skip to content</a>
<div class="promo-strip">Free delivery on orders over &euro;75 &middot; <a href="/help/delivery">Details</a></div>
<header class="site-header">
  <a class="site-header__logo" href="/"><svg viewBox="0 0 120 24" width="120" height="24" aria-label="Northfold"><path d="M0 0h24v24H0z"/></svg></a>
  <form class="site-search" action="/search" role="search"><label for="q" class="visually-hidden">Search</label><input id="q" name="q" type="search" placeholder="Search"><button type="submit">${icon('search')}</button></form>
  <nav class="site-nav" aria-label="Main">
    ${links(NAV, { ul: 'site-nav__list', li: 'site-nav__item', a: 'site-nav__link' })}
  </nav>
  <div class="site-header__actions"><a href="/account">Account</a> <a href="/bag" class="bag-link">Bag <span class="bag-count">0</span></a></div>
</header>
<main id="main" class="category">
  <nav class="breadcrumb" aria-label="Breadcrumb"><ol><li><a href="/">Home</a></li><li><a href="/women">Women</a></li><li aria-current="page">Knitwear</li></ol></nav>
  <h1 class="category__title">Knitwear</h1>
  <div class="category__layout">
    <aside class="filters" aria-label="Filters">
      <h2 class="filters__title">Filter</h2>
      <fieldset class="filters__group"><legend>Size</legend>${['XS', 'S', 'M', 'L', 'XL'].map((s) => `<label><input type="checkbox" name="size" value="${s}"> ${s}</label>`).join('')}</fieldset>
      <fieldset class="filters__group"><legend>Colour</legend>${SWATCHES.map(([, n]) => `<label><input type="checkbox" name="colour" value="${n.toLowerCase()}"> ${n}</label>`).join('')}</fieldset>
      <fieldset class="filters__group"><legend>Material</legend><label><input type="checkbox" name="m" value="merino"> Merino</label><label><input type="checkbox" name="m" value="cashmere"> Cashmere</label><label><input type="checkbox" name="m" value="cotton"> Cotton</label></fieldset>
    </aside>
    <section class="category__results">
      <div class="toolbar"><p class="toolbar__count">${list.length} products</p><label>Sort by <select name="sort"><option>Recommended</option><option>Price: low to high</option><option>Newest</option></select></label></div>
      <div id="product-grid" class="product-grid">
${list.map(cardV1).join('\n')}
      </div>
      <nav class="pagination" aria-label="Pages"><span class="pagination__current">1</span> <a href="/catalog/knitwear?page=2">2</a> <a href="/catalog/knitwear?page=3">3</a> <a class="pagination__next" href="/catalog/knitwear?page=2">Next</a></nav>
    </section>
  </div>
  <section class="recently-viewed"><h2>Recently viewed</h2><p>Items you view will appear here.</p></section>
</main>
<footer class="site-footer">
  <div class="site-footer__cols">
    <div class="site-footer__col"><h3>Customer service</h3>
    ${links(FOOTER)}</div>
    <div class="site-footer__col"><h3>Newsletter</h3><form action="/newsletter"><input type="email" name="email" placeholder="Email address"><button>Sign up</button></form></div>
  </div>
  <p class="site-footer__legal">&copy; 2025 Northfold Ltd. All rights reserved.</p>
</footer>
${cookieBanner('cookie-banner')}`,
  });
}

function v2(list: Product[]): string {
  const tiles: string[] = [];
  list.forEach((p, i) => {
    if (i > 0 && i % 7 === 0) tiles.push(promoV2(i / 7 - 1));
    tiles.push(cardV2(p));
  });
  return doc({
    title: 'Knitwear \u2013 Northfold',
    head: '<style data-href="/_next/static/css/9b1c.css">.ProductTile_tile__2Xc8H{display:flex}</style>',
    body: `<div id="__next"><div class="Layout_root__Ka9d2">
<div class="Banner_strip__Wq1ze"><p>Free delivery on orders over \u20ac75<!-- --> \u00b7 <a href="/help/delivery">Details</a></p></div>
<header class="Header_header__yT7Lm"><div class="Header_bar__oP2Xc">
<a class="Header_logo__R1tGb" href="/" aria-label="Northfold home">${icon('menu', 'Icon_icon__u7Yh0')}</a>
<nav class="Header_nav__Gh6Ui" aria-label="Main"><ul class="Header_list__Zx8Qw">${NAV.map(([l, h]) => `<li><a class="Header_link__Vc4Rt" href="${attr(h)}">${esc(l)}</a></li>`).join('')}</ul></nav>
<div class="Header_tools__Nm5Jk"><button class="Header_search__Lk3Hg" aria-label="Search">${icon('search', 'Icon_icon__u7Yh0')}</button><a href="/bag" class="Header_bag__As1Df">Bag<!-- --> (<!-- -->0<!-- -->)</a></div>
</div></header>
<main class="Category_main__Pq9Ow">
<div class="Category_head__Mn2Bv"><nav aria-label="Breadcrumb" class="Crumbs_root__Xc7Vb"><a href="/">Home</a> / <a href="/women">Women</a> / <span>Knitwear</span></nav>
<h1 class="Category_title__Df4Gh">Knitwear</h1><p class="Category_count__Hj6Kl">${list.length}<!-- --> products</p></div>
<div class="Category_body__Rt5Yu">
<aside class="Facets_root__Bn8Mj"><details open><summary>Size</summary>${['XS', 'S', 'M', 'L', 'XL'].map((s) => `<button class="Facets_chip__Qw3Er">${s}</button>`).join('')}</details><details><summary>Colour</summary>${SWATCHES.map(([, n]) => `<button class="Facets_chip__Qw3Er">${n}</button>`).join('')}</details></aside>
<section class="Grid_grid__kQ2mV" aria-label="Products">
${tiles.join('\n')}
</section>
</div>
<div class="Category_more__Zs1Xd"><button class="Button_btn__1aBcD Button_secondary__Jh7Ty">Load more</button></div>
</main>
<footer class="Footer_footer__Lp4Ki"><nav aria-label="Footer"><ul class="Footer_list__Oi9Uy">${FOOTER.map(([l, h]) => `<li><a href="${attr(h)}">${esc(l)}</a></li>`).join('')}</ul></nav><p class="Footer_legal__Tr5Ew">\u00a9 2025 Northfold Ltd.</p></footer>
</div></div>
<script id="__NEXT_DATA__" type="application/json">{"props":{"pageProps":{"category":"knitwear","count":${list.length}}},"page":"/catalog/[slug]"}</script>`,
  });
}

const fields = (s: { name: string; url: string; image: string; price: string; was: string; rating: string; reviews: string; badge: string; sku: string }) => [
  text('name', s.name),
  attribute('url', s.url, 'href', 'absolute_url'),
  attribute('image', s.image, 'data-src', 'absolute_url'),
  text('price', s.price),
  text('was_price', s.was),
  attribute('rating', s.rating, 'data-rating'),
  text('reviews', s.reviews),
  text('badge', s.badge, 'lowercase'),
  attribute('sku', s.sku, 'data-sku'),
];
const computed = [template('label', '{name} \u2013 {price}')];

export function build(): SiteBuild {
  const list = products();
  const schema: ExtractionRequest = {
    type: 'json_css',
    schema: {
      name: 'knitwear',
      base_selector: '#product-grid .product-card',
      fields: fields({
        name: '.product-card__title', url: 'a.product-card__link', image: 'img.product-card__image', price: '.price--current',
        was: '.price--was', rating: '.product-card__rating', reviews: '.product-card__count', badge: '.product-card__badge',
        sku: 'button.add-to-cart',
      }),
    },
    computed_fields: computed,
  };
  const schemaV2: ExtractionRequest = {
    type: 'json_css',
    schema: {
      name: 'knitwear',
      base_selector: 'section.Grid_grid__kQ2mV > article.ProductTile_tile__2Xc8H',
      fields: fields({
        name: '.ProductTile_title__f3KsJ', url: '.ProductTile_title__f3KsJ a', image: 'img.ProductTile_img__9Hf2s',
        price: '.Price_now__Q8sLd', was: '.Price_was__7VnPq', rating: '[data-rating]', reviews: '.Stars_count__c2PqM',
        badge: '.Badge_badge__Zt5dC', sku: 'button[data-sku]',
      }),
    },
    computed_fields: computed,
  };
  const records = list.map(expected);
  return {
    id: 'shop-grid',
    meta: {
      kind: 'product grid',
      page_url: PAGE_URL,
      changes: ['class_renamed', 'extra_wrapper', 'container_tag_changed', 'fields_reordered', 'promo_inserted', 'optional_missing', 'relative_urls_changed'],
      v1_schema_on_v2: 'no_base_match',
      hard_cases: [
        'sponsored campaign tiles every seventh tile with an image, an h2 link, a price-like "From € 39.00" and a button',
        'v1 url comes from the link wrapping image and title; v2 has two links (image, title) with the same relative href',
        'was_price includes visually hidden "Was " text; badge (lowercased) sits inside the image link in v1, at the end of the body in v2',
        'price text mixes an inline SVG, a non-breaking space and (v1) a React-style empty comment between digits',
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
