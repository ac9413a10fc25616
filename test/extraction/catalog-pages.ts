/**
 * A small shop catalogue as a v1 page and a v2 redesign of the same products: classes renamed (hashed module
 * names), an extra wrapper around every card, cards turned from div into article, price and name swapped inside
 * the card, and a sponsored block between cards. Shared by the extraction end-to-end suites.
 */
export interface Product {
  name: string;
  price: string;
  href: string;
  tags: string[];
}

export const PRODUCTS: Product[] = [
  { name: 'Harbour Lantern', price: '$24.00', href: '/p/harbour-lantern', tags: ['Brass', 'Outdoor'] },
  { name: 'Tide Clock', price: '$61.50', href: '/p/tide-clock', tags: ['Oak'] },
  { name: 'Rope Basket', price: '$18.25', href: '/p/rope-basket', tags: ['Cotton', 'Storage', 'Handmade'] },
  { name: 'Ship Bell', price: '$95.00', href: '/p/ship-bell', tags: ['Brass'] },
];

const shell = (title: string, main: string) => `<!DOCTYPE html><html><head><title>${title}</title></head><body>
<header class="site-header"><a href="/">Harbour Goods</a><nav><a href="/about">About</a> <a href="/cart">Cart (0)</a></nav></header>
<main>${main}</main>
<footer><p>&copy; Harbour Goods</p><a href="/terms">Terms</a></footer></body></html>`;

export function catalogV1(): string {
  const cards = PRODUCTS.map(
    (p) => `<div class="product-card">
  <h2 class="product-name"><a href="${p.href}">${p.name}</a></h2>
  <span class="price">${p.price}</span>
  <ul class="tags">${p.tags.map((t) => `<li>${t}</li>`).join('')}</ul>
</div>`,
  ).join('\n');
  return shell('Catalogue', `<h1>Catalogue</h1><div class="grid">${cards}</div>`);
}

export function catalogV2(): string {
  const cards = PRODUCTS.map(
    (p) => `<div class="_w_91ab"><article class="_card_x7f2">
  <p class="_cost_q1">${p.price}</p>
  <h3 class="_title_z3"><a href="${p.href}">${p.name}</a></h3>
  <ul class="_chips_k2">${p.tags.map((t) => `<li>${t}</li>`).join('')}</ul>
</article></div>`,
  );
  const promo = `<aside class="_promo_55"><h3>Free shipping this week</h3><p>On every order over $50.</p></aside>`;
  const grid = [...cards.slice(0, 2), promo, ...cards.slice(2)].join('\n');
  return shell('Catalogue', `<h1>Catalogue</h1><section class="_grid_m4">${grid}</section>`);
}

/** The crawl's extraction, written against v1. */
export const CATALOG_EXTRACTION = {
  type: 'json_css',
  schema: {
    name: 'products',
    base_selector: 'div.product-card',
    fields: [
      { name: 'name', selector: '.product-name', type: 'text' },
      { name: 'price', selector: '.price', type: 'text', transform: 'strip' },
      { name: 'url', selector: '.product-name a', type: 'attribute', attribute: 'href', transform: 'absolute_url' },
      { name: 'tags', selector: '.tags li', type: 'list' },
    ],
  },
  computed_fields: [{ name: 'label', operation: 'template', template: '{name} ({price}) {{sale}}' }],
} as const;

/** The records CATALOG_EXTRACTION must give on either page, served at `origin`. */
export function expectedRecords(origin: string) {
  return PRODUCTS.map((p) => ({
    name: p.name,
    price: p.price,
    url: `${origin}${p.href}`,
    tags: p.tags,
    label: `${p.name} (${p.price}) {sale}`,
  }));
}
