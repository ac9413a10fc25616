import { describe, expect, it } from 'vitest';
import { normalizeContent } from '../src/index.ts';
import { page } from './fixtures.ts';

/**
 * Failure class: a shop's collection page came back as its buying guide without the products. Its product grid sat
 * inside the infinite-scroll component that pages through it (classed "pagination"), so it was dropped as a pager;
 * and the guide's prose below the grid outweighed the cards, so the core narrowed to the guide. On a page that is
 * no article, discussion or single product, a pager-named element holding 100+ words is the content it pages
 * through, and the core never narrows away from a grid of six or more alike cards. Our own small HTML.
 */
const markdownOf = (body: string, head = '') =>
  normalizeContent({ body: Buffer.from(page(body, `<title>Rain jackets</title>${head}`)), contentType: 'text/html; charset=utf-8', url: 'https://shop.example.com/collections/rain-jackets' }).markdown;

const JACKETS = ['Harbour', 'Skerry', 'Fulmar', 'Lighthouse', 'Breakwater', 'Gannet', 'Shingle', 'Tidewater', 'Puffin', 'Samphire', 'Estuary', 'Cormorant'].map((name, i) => ({
  name: `${name} rain jacket`,
  fit: ['regular fit', 'relaxed fit', 'slim fit'][i % 3],
  colour: ['Storm blue', 'Kelp green', 'Buoy orange', 'Slate grey'][i % 4],
  price: `$${120 + i * 15}`,
}));

const card = (j: (typeof JACKETS)[number], i: number) =>
  `<article class="product-card_card__Ab12c" role="listitem"><a href="/products/${i}" aria-label="${j.name}"><img src="/img/${i}.jpg" alt="${j.name}"></a>
   <div class="product-card_info__Cd34e"><h3><a href="/products/${i}">${j.name}</a></h3><p>${j.fit}</p><p>${j.colour}</p><span>${j.price}</span> <span>Waterproof to 20,000 mm with taped seams</span></div></article>`;

const GUIDE = [
  'A good rain jacket keeps the weather out without turning a walk into a sauna. Look for a membrane that breathes, taped seams and a hood that turns with your head rather than staying put when you look sideways at the traffic.',
  'Waterproof ratings are measured by how tall a column of water the fabric holds back before it leaks. Ten thousand millimetres is enough for a city shower; twenty thousand is what you want for a long day on an exposed coast path.',
  'Breathability matters as much as the rating. A jacket that keeps every drop out but holds your sweat in will leave you just as wet on a steep climb, so check the vents under the arms and the fabric figures before you buy.',
  'Care for the jacket and it will last for years: wash it with a technical cleaner, never with softener, and tumble it on a low heat to wake the water-repellent finish on the outer fabric once the rain stops beading on it.',
  'Sizing runs true on all our jackets, with room for a fleece underneath. If you are between two sizes and plan to layer for winter walks, take the larger one; the adjustable cuffs and hem will keep the wind from getting in.',
  'Pockets are worth a second look. Hand pockets placed above a rucksack hip belt stay reachable on the hill, and a chest pocket big enough for a folded map saves you from taking the pack off every time the path forks.',
  'Weight and packability pull against durability. The lightest shells fold into their own pocket but scuff on rock and brambles; a heavier three-layer fabric shrugs off a season of scrambling and still looks smart in town.',
  'Finally, think about colour. A bright jacket is easy to spot on a hillside in poor visibility, which matters if you walk alone, while a darker one hides the mud of a wet autumn and goes with everything for the commute.',
];

describe('a collection page’s product grid', () => {
  it('keeps the product grid inside an infinite-scroll pagination component, and still drops the pager', () => {
    const grid = `<div class="pagination_pagination__Ef56g"><div class="product-grid_grid__Gh78i" role="list">${JACKETS.map(card).join('')}</div>
      <nav class="pagination_pages__Ij90k"><a href="?page=2">2</a> <a href="?page=3">3</a> <a href="?page=2">Next page</a></nav></div>`;
    const md = markdownOf(`<main><h1>Rain jackets</h1><p>${JACKETS.length} products</p>${grid}<div class="seo-copy"><h2>How to choose a rain jacket</h2>${GUIDE.map((p) => `<p>${p}</p>`).join('')}</div></main>`);
    for (const j of JACKETS) expect(md).toContain(j.name);
    expect(md).toContain('Buoy orange');
    expect(md).toContain('twenty thousand is what you want');
    expect(md).not.toContain('Next page');
  });

  it('keeps the product cards above a buying guide that outweighs them', () => {
    const md = markdownOf(`<main><h1>Rain jackets</h1><div class="product-grid" role="list">${JACKETS.map(card).join('')}</div>
      <div class="seo-copy"><h2>How to choose a rain jacket</h2>${GUIDE.map((p) => `<p>${p}</p>`).join('')}</div></main>`);
    for (const j of JACKETS) expect(md).toContain(j.name);
    expect(md).toContain('twenty thousand is what you want');
  });

  it("still drops a pagination component of other posts' teasers after an article", () => {
    const teasers = JACKETS.map((j) => `<div class="post"><h3><a href="/blog/${j.name}">Field test: the ${j.name} on the coast path</a></h3><p>A month of storms.</p></div>`).join('');
    const md = markdownOf(`<main><article><h1>How to choose a rain jacket</h1>${GUIDE.map((p) => `<p>${p}</p>`).join('')}<div class="ajax_pagination_container">${teasers}</div></article></main>`, '<meta property="og:type" content="article">');
    expect(md).toContain('twenty thousand is what you want');
    expect(md).not.toContain('Field test');
  });

  it('on an article, still narrows to the article away from a grid of product cards beside it', () => {
    const md = markdownOf(`<main><div class="story"><h1>How to choose a rain jacket</h1>${GUIDE.map((p) => `<p>${p}</p>`).join('')}</div><div class="product-grid" role="list">${JACKETS.map(card).join('')}</div></main>`, '<meta property="og:type" content="article">');
    expect(md).toContain('twenty thousand is what you want');
    expect(md).not.toContain('Tidewater rain jacket');
  });

  it("on one product's page whose buy button is a link drawn as a button, still narrows to the product away from similar items", () => {
    const product = `<div class="item-details"><h1>Harbour rain jacket</h1><span>$120</span><a role="button" href="/cart/add/1">Add to cart</a>${GUIDE.map((p) => `<p>${p}</p>`).join('')}</div>`;
    const similar = `<div class="similar-items" role="list">${JACKETS.slice(1).map((j, i) => card(j, i + 1)).join('')}</div>`;
    const md = markdownOf(`<main>${product}${similar}</main>`);
    expect(md).toContain('twenty thousand is what you want');
    expect(md).not.toContain('Tidewater rain jacket');
  });

  it("on one product's page, drops the other products offered under it, however their block is drawn", () => {
    const product = `<div class="summary"><h1>Harbour rain jacket</h1><span>$120</span><button>Add to cart</button>${GUIDE.slice(0, 3).map((p) => `<p>${p}</p>`).join('')}</div>`;
    // Cards with a line of their own beside the link: no list of links that goes by its link share alone.
    const listed = (label: string) => `<ul class="products">${['Skerry', 'Fulmar', 'Gannet'].map((n) => `<li class="product"><a href="/p/${n}"><h2>${label} ${n} jacket</h2></a><p>Packs into its own pocket, $99</p></li>`).join('')}</ul>`;
    const md = markdownOf(`<main>${product}
      <section class="x1"><h2>You may also like…</h2>${listed('Offered')}</section>
      <div class="block x2"><div class="block-title"><strong role="heading" aria-level="2">We found other products you might like!</strong></div>${listed('Found')}</div>
      <div class="upsell-products">${listed('Upsold')}</div></main>`);
    expect(md).toContain('twenty thousand is what you want');
    for (const gone of ['Offered Skerry', 'Found Skerry', 'Upsold Skerry']) expect(md).not.toContain(gone);
  });

  // Controls say what they are by their ARIA roles, which survive generated class names (the names-hidden run of
  // bench/content-quality.bench.ts: a code host's trending page came back as its 1,300-word language menu).
  it('drops a sort dropdown and a filter menu drawn with ARIA roles (listbox, menuitemradio), whatever their class names', () => {
    const sort = `<div class="h1f2e3"><button aria-haspopup="listbox">Sort by: Featured</button><ul role="listbox">${['Featured', 'Best selling', 'Alphabetically, A-Z', 'Price, low to high', 'Price, high to low', 'Date, new to old'].map((o) => `<li role="option">${o}</li>`).join('')}</ul></div>`;
    const colours = ['Storm blue', 'Kelp green', 'Buoy orange', 'Slate grey', 'Harbour red', 'Sand', 'Pebble', 'Heather', 'Moss', 'Ink'];
    const filter = `<details class="h4a5b6"><summary>Colour: Any</summary><div class="h7c8d9">${colours.map((c) => `<a role="menuitemradio" aria-checked="false" href="?colour=${c.replace(' ', '-')}">${c} jackets</a>`).join('')}</div></details>`;
    const grid = `<div class="h0e1f2">${JACKETS.map(card).join('').replaceAll(/class="[^"]*"/g, 'class="h3a4b5"')}</div>`;
    const md = markdownOf(`<div class="h6c7d8"><h1>Rain jackets</h1><div class="h9e0f1">${filter}${sort}</div>${grid}</div>`);
    for (const j of JACKETS) expect(md).toContain(j.name);
    expect(md).not.toContain('Price, high to low');
    expect(md).not.toContain('Heather jackets');
  });
});
