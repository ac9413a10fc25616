import { describe, expect, it } from 'vitest';
import { normalizeContent } from '../src/index.ts';
import { page } from './fixtures.ts';

/**
 * Failure class: a landing page whose content sections all carry a class word that also names furniture (the
 * targets of its in-page menu, classed "navSource", "menu-anchor"...). Each section alone is a small share of the
 * page, so each was dropped as navigation and the page came back as its first paragraph. Sibling elements marked
 * by the same class words are judged together, like posts of a thread sharing one class. Our own small HTML.
 */
const markdownOf = (body: string) =>
  normalizeContent({ body: Buffer.from(page(body, '<title>Harbour CRM</title>')), contentType: 'text/html; charset=utf-8', url: 'https://crm.example.com/free' }).markdown;

const TOPICS = [
  ['Contacts', 'Keep every skipper, supplier and harbour master in one place, with the last call and the next one.'],
  ['Email', 'Send the tide-table newsletter to every berth holder and see who opened it before the spring tides.'],
  ['Leads', 'Turn a visiting yacht into a seasonal berth: track the enquiry from the first radio call to the contract.'],
  ['Automation', 'Remind owners of unpaid mooring fees, and escalate to the office after a week without a reply.'],
  ['Documents', 'Store insurance certificates and safety checks next to the boat they belong to, with expiry alerts.'],
];

describe('content sections sharing a furniture class word', () => {
  it('keeps every section and still drops the in-page menu that points at them', () => {
    const menu = `<div class="lm_navSec"><ul>${TOPICS.map(([t], i) => `<li><a href="#s${i}">${t}</a></li>`).join('')}</ul></div>`;
    const sections = TOPICS.map(([t, p], i) => `<div id="s${i}" class="${t.toLowerCase()}_section lm_navSource"><h2>${t}</h2><p>${p}</p></div>`).join('');
    const md = markdownOf(`<main><h1>A free CRM for small harbours</h1><p>Everything a harbour office needs to keep track of its berth holders, in one free plan.</p>${menu}${sections}</main>`);
    for (const [, p] of TOPICS) expect(md).toContain(p);
    expect(md).not.toContain('](#s0)');
  });

  it("keeps a section whose id is its own heading's slug, whatever furniture words the slug holds", () => {
    const sections = [
      ['Menu planning for mixed dietary needs', 'Build the menu from a base every guest can eat, then add the dishes that need a warning card.'],
      ['Sharing the load with local growers', 'A grower two valleys away will hold a crop for a wedding if you ask before the spring planting.'],
      ['Related costs nobody budgets for', 'Ice, bin hire and a second van for the crockery are the lines that turn a profit into a loss.'],
    ].map(([h, p]) => `<div id="${h.toLowerCase().replaceAll(' ', '-').slice(0, 30)}"><h2>${h}</h2><p>${p} ${p}</p></div>`).join('');
    const md = markdownOf(`<main><article><h1>Catering in 2026</h1><p>Guests ask more of a caterer every year, and the margins are thinner than ever before.</p>${sections}<div id="related-posts"><h2>Related posts</h2><ul><li><a href="/a">Wedding cakes</a></li><li><a href="/b">Barbecues</a></li></ul></div></article></main>`);
    expect(md).toContain('Build the menu from a base');
    expect(md).toContain('turn a profit into a loss');
    expect(md).not.toContain('Wedding cakes');
  });

  it('keeps a hero classed "banner" inside <main>, and still drops a banner of links there', () => {
    const md = markdownOf(`<main><div class="banner_section"><h1>A free CRM for small harbours</h1><p>Keep every berth holder, invoice and tide-table newsletter in one place, free for up to three harbour staff.</p></div>
      <div class="promo-banner"><a href="/a">Spring sale</a> <a href="/b">Pricing</a> <a href="/c">Partners</a></div>
      ${TOPICS.map(([t, p]) => `<section><h2>${t}</h2><p>${p}</p></section>`).join('')}</main>`);
    expect(md).toContain('free for up to three harbour staff');
    expect(md).not.toContain('Spring sale');
  });

  it('reads no furniture word into utility classes, and still drops a skip link', () => {
    const rows = TOPICS.map(([t, p]) => `<div role="row"><span class="relative inline-flex group/tooltip underline decoration-skip-ink-none md:[&>p]:block"><b>${t}</b> ${p}</span></div>`).join('');
    const md = markdownOf(`<a class="skip-link" href="#main">Skip to the harbour plans and their prices</a><main id="main"><h1>Plans</h1><p>Every plan includes the berth register and the tide-table newsletter.</p><div role="table">${rows}</div></main>`);
    for (const [, p] of TOPICS) expect(md).toContain(p);
    expect(md).not.toContain('Skip to the harbour');
  });

  it('drops jump links like skip links', () => {
    const md = markdownOf(`<main><div class="mw-jump"><a href="#nav">Jump to navigation and the harbour menu</a></div><h1>Plans</h1><a class="recipe-jump-link" href="#plans">Jump to the plans table</a>${TOPICS.map(([t, p]) => `<h2>${t}</h2><p>${p}</p>`).join('')}</main>`);
    for (const [, p] of TOPICS) expect(md).toContain(p);
    expect(md).not.toContain('Jump to');
  });

  it("drops screen-reader-only text, a post's author extras and likes, an unavailable notice and a feedback prompt", () => {
    const md = markdownOf(`<main><h1>Plans</h1>${TOPICS.map(([t, p]) => `<h2>${t}<span class="screen-reader-text"> (plan details for screen readers)</span></h2><p>${p}</p>`).join('')}
      <div class="message-userExtras"><dl><dt>Joined</dt><dd>Mar 3, 2019</dd><dt>Messages</dt><dd>4,211</dd></dl></div>
      <div class="unavailable">This plan is currently unavailable in your region</div>
      <div class="post-likes">Liked by harbourmaster and 12 others</div>
      <div class="page-feedback">Was this page helpful? Yes No</div></main>`);
    for (const [, p] of TOPICS) expect(md).toContain(p);
    for (const gone of ['plan details for screen readers', 'Mar 3, 2019', 'unavailable in your region', 'Liked by harbourmaster', 'Was this page helpful']) expect(md).not.toContain(gone);
  });

  it("reads no word into a CSS-module class's generated hash", () => {
    const table = `<table><tr><th>Plan</th><th>Berths</th></tr>${TOPICS.map(([t], i) => `<tr><td>${t}</td><td>${(i + 1) * 10}</td></tr>`).join('')}</table>`;
    const md = markdownOf(`<main><h1>Plans</h1><p>Every plan includes the berth register and the tide-table newsletter for all holders.</p><div class="mdx-table_root__adKqa">${table}</div><div class="ad"><a href="/x">Buy a mooring buoy today</a></div></main>`);
    expect(md).toContain('| Automation | 40 |');
    expect(md).not.toContain('mooring buoy');
  });

  it("reads a CSS-module class by its local name, not its component's", () => {
    // [module]_[local]__[hash]: the product grid's column inside a "filtering-and-pagination" component.
    const cards = TOPICS.map(([t], i) => `<article class="product-card_card__Ab12c"><a href="/p/${i}">${t} plan for small harbours <span>£${i + 4}.00 a month</span></a></article>`).join('');
    const md = markdownOf(`<main><h1>Plans</h1><div class="filtering-and-pagination_product-column__ZNBHT"><div class="product-grid_grid__AHrXg">${cards}</div></div>
      <div class="filtering-and-pagination_pager__Qw3rT"><a href="?page=2">Next page</a></div></main>`);
    expect(md).toContain('Automation plan for small harbours');
    expect(md).not.toContain('Next page');
  });

  it("keeps a component's header (card-header, section__header) and drops the site's", () => {
    const sections = TOPICS.map(([t, p]) => `<section class="feature"><div class="${t.toLowerCase()}__header"><h2>${t}</h2><p>${p}</p></div></section>`).join('');
    const md = markdownOf(`<div class="site-header"><a href="/">Harbour CRM</a> <a href="/pricing">Pricing</a> <a href="/login">Log in</a></div><main><h1>Features</h1>${sections}</main>`);
    for (const [, p] of TOPICS) expect(md).toContain(p);
    expect(md).not.toContain('Log in');
  });

  it('reads a class value apart from an id of the same text', () => {
    const sections = TOPICS.map(([t, p]) => `<section><div class="${t.toLowerCase()}-header"><h2>${t}</h2><p>${p}</p></div></section>`).join('');
    const ids = TOPICS.map(([t]) => `<span id="${t.toLowerCase()}-header"></span>`).join('');
    const md = markdownOf(`<div class="top">${ids}</div><main><h1>Features</h1>${sections}</main>`);
    for (const [, p] of TOPICS) expect(md).toContain(p);
  });

  it('judges elements marked by their tag one by one: three sidebars side by side still go', () => {
    const aside = (i: number) => `<aside><h3>Tip ${i}</h3><p>${TOPICS[i][1]} ${TOPICS[i][1]}</p></aside>`;
    const md = markdownOf(`<div class="page">${aside(0)}${aside(1)}${aside(2)}<div class="story"><h1>Harbour news</h1><p>The new pontoon opens on Saturday after a winter of storms delayed the final fittings and the electrics.</p><p>Berth holders can move their boats from nine o'clock; the harbour office will stay open late for the paperwork.</p></div></div>`);
    expect(md).toContain('The new pontoon opens on Saturday');
    expect(md).not.toContain(TOPICS[1][1]);
  });

  it('keeps an FAQ built in a tab strip classed as a menu, and still drops a menu of links', () => {
    // A site builder's tabs component: the "tabs-menu" holds each question with its answer in paragraphs.
    const answers = TOPICS.map(([t, p]) => `<div class="faq_tabs-menu-link"><h3>How does ${t.toLowerCase()} work?</h3><div class="faq_tabs-rich-text"><p>${p} ${p}</p><p>It is included in the free plan, with no limit on the number of boats.</p></div></div>`).join('');
    const intro = Array.from({ length: 14 }, () => `<p>${TOPICS.map(([, p]) => p).join(' ')}</p>`).join('');
    const menu = `<div class="site-menu"><ul>${TOPICS.map(([t], i) => `<li><a href="/t${i}">${t} for harbours and marinas</a></li>`).join('')}</ul></div>`;
    const md = markdownOf(`${menu}<main><h1>A free CRM for small harbours</h1>${intro}<h2>Frequently asked questions</h2><div class="faq_tabs"><div class="faq_tabs-menu">${answers}</div></div></main>`);
    expect(md).toContain('How does automation work?');
    expect(md).toContain('no limit on the number of boats');
    expect(md).not.toContain('for harbours and marinas');
  });

  it('reads no name into a BEM modifier saying what an element shows, and still reads a modifier naming it', () => {
    const price = `<div class="price price--large price--on-sale price--show-badge"><span class="price-item price-item--sale">$24.00</span> <span class="badge price__badge-sale">Sale</span></div>`;
    const md = markdownOf(`<main><h1>Berth holder plan</h1>${price}<p>Everything a harbour office needs to keep track of its berth holders, in one plan.</p><div class="section section--related"><a href="/a">Other plans</a> <a href="/b">Pricing</a></div></main>`);
    expect(md).toContain('$24.00');
    expect(md).not.toContain('Other plans');
  });

  it("drops a heading's permalink mark, and keeps a heading whose text is its own link", () => {
    const md = markdownOf(`<main><h1>Plans</h1><p>Every plan includes the berth register and the tide-table newsletter for all holders.</p>
      <h2 id="fees">Mooring fees<a class="headerlink" href="#fees" title="Permalink">¶</a></h2><p>${TOPICS[0][1]}</p>
      <h2 id="tides">Tide tables<a hidden class="anchor" aria-hidden="true" href="#tides">#</a></h2><p>${TOPICS[1][1]}</p>
      <h2 id="email"><a href="#email">Email newsletter</a></h2><p>${TOPICS[2][1]}</p></main>`);
    expect(md).toContain('## Mooring fees\n');
    expect(md).toContain('## Tide tables\n');
    expect(md).not.toContain('¶');
    expect(md).toContain('Email newsletter](');
  });
});
