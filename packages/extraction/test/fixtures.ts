// Small redesign fixtures of our own: a product grid as v1 and as v2 variants, one per failure class relocation
// must survive, built from the same product data so the expected records are known.
import { Extraction } from '@trawl/contract';

export interface Product {
  name: string;
  slug: string;
  price: string;
  rating: string | null;
  blurb: string;
}

export const PRODUCTS: Product[] = [
  { name: 'Trail Runner', slug: 'trail-runner', price: '$89.99', rating: '4.5', blurb: 'Lightweight shoe for rough trails and long days.' },
  { name: 'City Walker', slug: 'city-walker', price: '$59.00', rating: null, blurb: 'A soft everyday shoe that goes with everything.' },
  { name: 'Summit Boot', slug: 'summit-boot', price: '$149.50', rating: '4.8', blurb: 'Waterproof leather boot with a stiff sole for climbs.' },
  { name: 'Court Classic', slug: 'court-classic', price: '$72.25', rating: '3.9', blurb: 'The tennis shoe your parents wore, made better.' },
  { name: 'Beach Slide', slug: 'beach-slide', price: '$19.99', rating: null, blurb: 'Quick-dry foam slide for the pool and the sand.' },
  { name: 'Studio Flat', slug: 'studio-flat', price: '$45.00', rating: '4.1', blurb: 'A flexible flat with a grippy sole for dance and yoga.' },
];

export const MORE_PRODUCTS: Product[] = [
  { name: 'Harbor Loafer', slug: 'harbor-loafer', price: '$99.00', rating: '4.2', blurb: 'Suede loafer with a hand-stitched toe and soft lining.' },
  { name: 'Sprint Spike', slug: 'sprint-spike', price: '$129.99', rating: '4.7', blurb: 'Track spike with a carbon plate for the fastest starts.' },
  { name: 'Garden Clog', slug: 'garden-clog', price: '$34.50', rating: null, blurb: 'Rubber clog you can hose down after a day of digging.' },
  { name: 'Winter Mukluk', slug: 'winter-mukluk', price: '$175.00', rating: '4.9', blurb: 'Fur-lined boot rated for the coldest mornings of the year.' },
];

export const PAGE_URL = 'https://shop.example/shoes?page=1';

export const SCHEMA = Extraction.parse({
  type: 'json_css',
  schema: {
    name: 'products',
    base_selector: 'div.card',
    fields: [
      { name: 'title', selector: 'h3.title', type: 'text' },
      { name: 'url', selector: 'h3.title a', type: 'attribute', attribute: 'href', transform: 'absolute_url' },
      { name: 'price', selector: '.price', type: 'text' },
      { name: 'rating', selector: '.rating', type: 'text' },
      { name: 'image', selector: 'img.photo', type: 'attribute', attribute: 'src' },
      { name: 'blurb', selector: 'p.blurb', type: 'text' },
    ],
  },
  computed_fields: [{ name: 'label', operation: 'template', template: '{title} ({price})' }],
});

export function expected(products: Product[]) {
  return products.map((p) => ({
    title: p.name,
    url: `https://shop.example/p/${p.slug}`,
    price: p.price,
    rating: p.rating,
    image: `/img/${p.slug}.jpg`,
    blurb: p.blurb,
    label: `${p.name} (${p.price})`,
  }));
}

function page(grid: string): string {
  return `<!doctype html><html><head><title>Shoes</title><style>.card{}</style></head><body>
<header class="site-header"><nav><a href="/">Home</a> <a href="/shoes">Shoes</a> <a href="/cart">Cart (2)</a></nav></header>
<main><h1>Shoes</h1><p class="intro">Our autumn range, 6 styles in stock.</p>
${grid}
</main>
<footer><p>© 2024 Shop Example, 12 Harbour Street</p><a href="/about">About</a></footer>
<script>window.__data = {"products": 6}</script></body></html>`;
}

export function v1(products: Product[] = PRODUCTS): string {
  const cards = products
    .map(
      (p) => `<div class="card" id="p-${p.slug}" data-sku="${p.slug}">
  <a class="thumb" href="/p/${p.slug}"><img class="photo" src="/img/${p.slug}.jpg" alt="${p.name}"></a>
  <h3 class="title"><a href="/p/${p.slug}">${p.name}</a></h3>
  <span class="price">${p.price}</span>
  ${p.rating === null ? '' : `<span class="rating">${p.rating}</span>`}
  <p class="blurb">${p.blurb}</p>
</div>`,
    )
    .join('\n');
  return page(`<div class="grid">${cards}</div>`);
}

export interface Redesign {
  /** Class names renamed (card → tile, title → name, ...). */
  renamed?: boolean;
  /** Each card's content inside an extra wrapper element, and the grid inside another. */
  wrapper?: boolean;
  /** The card's tag: div in v1. */
  container?: 'div' | 'article' | 'section' | 'li';
  /** Fields in another order inside the card. */
  reordered?: boolean;
  /** Promo blocks between cards. */
  promos?: boolean;
}

const PROMO = `<div class="promo-box"><h3 class="promo-title">Autumn sale</h3><p class="promo-text">Get 20% off every boot this week only, in store and online.</p><a class="promo-link" href="/sale">Shop the sale</a></div>`;
const AD = `<div class="ad-slot" data-ad="1"><iframe src="https://ads.example/frame"></iframe><span class="ad-label">Advertisement</span></div>`;

export function v2(design: Redesign, products: Product[] = PRODUCTS): string {
  const c = (v1name: string, v2name: string) => (design.renamed ? v2name : v1name);
  const tag = design.container ?? 'div';
  const cards = products.map((p, i) => {
    const parts = [
      `<a class="${c('thumb', 'pic')}" href="/p/${p.slug}"><img class="${c('photo', 'pic-img')}" src="/img/${p.slug}.jpg" alt="${p.name}"></a>`,
      `<h3 class="${c('title', 'name')}"><a href="/p/${p.slug}">${p.name}</a></h3>`,
      `<span class="${c('price', 'cost')}">${p.price}</span>`,
      p.rating === null ? '' : `<span class="${c('rating', 'stars')}">${p.rating}</span>`,
      `<p class="${c('blurb', 'summary')}">${p.blurb}</p>`,
    ];
    const ordered = design.reordered ? [parts[4], parts[2], parts[0], parts[3], parts[1]] : parts;
    let inner = ordered.join('\n  ');
    if (design.wrapper) inner = `<div class="${c('card-body', 'tile-body')}">${inner}</div>`;
    const card = `<${tag} class="${c('card', 'tile')}" id="${c('p', 'tile')}-${p.slug}" data-sku="${p.slug}">\n  ${inner}\n</${tag}>`;
    const promo = design.promos && i % 2 === 1 ? (i % 4 === 1 ? PROMO : AD) : '';
    return card + promo;
  });
  const listTag = tag === 'li' ? 'ul' : 'div';
  let grid = `<${listTag} class="${c('grid', 'product-list')}">${cards.join('\n')}</${listTag}>`;
  if (design.wrapper) grid = `<div class="${c('grid-wrap', 'list-wrap')}"><section class="results">${grid}</section></div>`;
  return page(grid);
}

/** The same site's blog list: cards with an image, a title link and an excerpt, but no price and no rating. */
export function blogList(): string {
  const posts = PRODUCTS.map(
    (p) => `<div class="post"><a class="cover" href="/blog/${p.slug}"><img class="cover-img" src="/img/blog-${p.slug}.jpg" alt=""></a>
  <h3 class="post-title"><a href="/blog/${p.slug}">Caring for your ${p.name}</a></h3>
  <p class="excerpt">${p.blurb} Here is how to keep it that way for years.</p></div>`,
  );
  return page(`<div class="posts">${posts.join('\n')}</div>`);
}

/** A page of another kind entirely: an article, no product cards. */
export function unrelatedPage(): string {
  return `<!doctype html><html><body><main><article><h1>How we dye our leather</h1>
<p>It starts with hides from a tannery two valleys over, where the water is soft and the work is slow.</p>
<p>Each batch sits in the drum for a day and a half before it is dried on frames in the loft.</p>
<blockquote>Nothing about it is fast, and that is the point.</blockquote>
<p>We then hand-finish every piece, which is why no two pairs look exactly alike.</p></article></main></body></html>`;
}

/** A product with made-up but distinct data, for big pages. */
export function product(i: number): Product {
  const names = ['Runner', 'Walker', 'Boot', 'Classic', 'Slide', 'Flat', 'Loafer', 'Spike', 'Clog', 'Mukluk'];
  return {
    name: `${names[i % names.length]} Model ${String.fromCharCode(65 + (i % 26))}${i}`,
    slug: `model-${i}`,
    price: `$${(20 + ((i * 37) % 180)).toString()}.${String((i * 13) % 100).padStart(2, '0')}`,
    rating: i % 3 === 0 ? null : `${3 + (i % 20) / 10}`,
    blurb: `Comfortable shoe number ${i} with a cushioned sole and a breathable upper for all-day wear.`,
  };
}

/**
 * A page of about 5,000 elements: a long navigation, a filter sidebar, `cards` product cards (v1 markup, or the
 * given redesign) and a big footer.
 */
export function bigPage(cards: number, design: Redesign | null): { html: string; products: Product[] } {
  const products = Array.from({ length: cards }, (_, i) => product(i));
  const body = design === null ? v1(products) : v2(design, products);
  const nav = Array.from({ length: 150 }, (_, i) => `<li class="nav-item"><a href="/c/${i}">Category ${i}</a></li>`).join('');
  const filters = Array.from({ length: 150 }, (_, i) => `<li><label><input type="checkbox" name="f${i}"><span class="count">(${i})</span> Size ${i}</label></li>`).join('');
  const footer = Array.from({ length: 300 }, (_, i) => `<a href="/f/${i}">Footer link ${i}</a>`).join(' ');
  const html = body
    .replace('<main>', `<nav class="mega"><ul>${nav}</ul></nav><aside class="filters"><ul>${filters}</ul></aside><main>`)
    .replace('</footer>', `<div class="links">${footer}</div></footer>`);
  return { html, products };
}
