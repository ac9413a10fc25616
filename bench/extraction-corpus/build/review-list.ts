import type { ExtractedRecord, ExtractionRequest } from '../../support/extraction-corpus.ts';
import { attr, doc, ent, esc, icon } from './html.ts';
import { attribute, template, text, type SiteBuild } from './site.ts';

// A product's review page in the style of a big marketplace: data-hook attributes that survive redesigns, and
// class names that do not. v2 turns the review <div>s into <li>s of a <ul>, renames every class, puts the date
// above the title, moves the rating after the title, and inserts a "customers also viewed" strip of product
// mini-cards (stars, title, price) after the sixth review.

const PAGE_URL = 'https://shop.example.test/p/gooseneck-kettle-gk200/reviews?sort=recent';

interface Review {
  id: string;
  name: string;
  stars: number;
  title: string;
  date: string;
  variant: string | null;
  verified: boolean;
  paragraphs: string[];
  helpful: number | null;
}

const RAW: [string, number, string, string, string | null, boolean, string[], number | null][] = [
  ['Helen M.', 4, 'Pours beautifully, lid rattles', '3 March 2025', 'Colour: Matte Black', true, ['The spout gives a really controlled pour for V60.', 'Only complaint: the lid rattles when it boils.'], 12],
  ['Dev', 5, 'Best kettle I\u2019ve owned', '28 February 2025', 'Colour: Matte Black', true, ['Holds temperature for 60 minutes like it says.'], 31],
  ['J. Alvarez', 2, 'Stopped heating after 5 weeks', '26 February 2025', 'Colour: Brushed Steel', true, ['Worked great at first.', 'Now the base clicks but never heats. Replacement on the way, we\u2019ll see.'], 7],
  ['Sophie', 5, 'Gorgeous & precise', '20 February 2025', null, false, ['Temperature is accurate to within a degree (checked with a thermometer).'], null],
  ['Mark T', 3, 'Good, but small', '14 February 2025', 'Colour: Matte White', true, ['0.9 L is enough for one pour-over, not for a pot of tea.'], 2],
  ['Aiko', 5, 'Perfect for tea too', '9 February 2025', 'Colour: Matte Black', true, ['The presets for green (80\u00b0C) and oolong (90\u00b0C) are handy.', 'Very quiet.'], 18],
  ['R\u00e9mi', 4, 'Nice design, display hard to read', '2 February 2025', 'Colour: Brushed Steel', false, ['In daylight the display is almost invisible.'], null],
  ['Kate O\u2019Brien', 1, 'Leaks from the base', '30 January 2025', 'Colour: Matte White', true, ['Water pooled under the base after every fill. Returned.'], 44],
  ['Tom', 5, 'Worth the price', '22 January 2025', null, true, ['Upgraded from a stovetop gooseneck. Night and day.'], 5],
  ['Linh N.', 4, 'Hold function is great', '15 January 2025', 'Colour: Matte Black', true, ['I use the hold function every morning.', 'Handle gets a little warm.'], null],
  ['Paolo', 5, 'Precise and fast', '8 January 2025', 'Colour: Brushed Steel', true, ['Boils 0.8 L in about 4 minutes.'], 9],
  ['Grace', 3, 'Beeps too loud', '2 January 2025', null, false, ['Great kettle, but there is no way to turn the beep off.'], 21],
];

function reviews(): Review[] {
  return RAW.map(([name, stars, title, date, variant, verified, paragraphs, helpful], i) => ({
    id: `R${(0x1f2e3d4c + i * 7919).toString(36).toUpperCase()}`,
    name, stars, title, date, variant, verified, paragraphs, helpful,
  }));
}

const helpfulText = (n: number) => (n === 1 ? 'One person found this helpful' : `${n} people found this helpful`);

function expected(r: Review): ExtractedRecord {
  const rating = `${r.stars}.0 out of 5 stars`;
  return {
    reviewer: r.name,
    rating,
    title: r.title,
    url: `https://shop.example.test/gp/customer-reviews/${r.id}`,
    date: `Reviewed in the United Kingdom on ${r.date}`,
    variant: r.variant,
    verified: r.verified ? 'Verified Purchase' : null,
    body: r.paragraphs.join(' '),
    helpful: r.helpful === null ? null : helpfulText(r.helpful),
    headline: `${rating}: ${r.title}`,
  };
}

function reviewV1(r: Review): string {
  return `<div id="${r.id}" data-hook="review" class="a-section review aok-relative">
  <div class="a-section celwidget">
    <div class="a-row a-spacing-mini"><a class="a-profile" href="/gp/profile/amzn1.account.${r.id.toLowerCase()}"><div class="a-profile-avatar-wrapper"><div class="a-profile-avatar"><img src="${'data:image/gif;base64,R0lGODlhAQABAAAAACw='}" data-src="/avatars/default._CR0,0,1024,1024_SX48_.png" class="" alt=""></div></div><div class="a-profile-content"><span class="a-profile-name">${ent(r.name)}</span></div></a></div>
    <div class="a-row"><a class="a-link-normal" title="${r.stars}.0 out of 5 stars" href="/gp/customer-reviews/${r.id}"><i data-hook="review-star-rating" class="a-icon a-icon-star a-star-${r.stars} review-rating"><span class="a-icon-alt">${r.stars}.0 out of 5 stars</span></i></a><span class="a-letter-space"></span>
      <a data-hook="review-title" class="a-size-base a-link-normal review-title a-color-base review-title-content a-text-bold" href="/gp/customer-reviews/${r.id}"><span>${ent(r.title)}</span></a></div>
    <span data-hook="review-date" class="a-size-base a-color-secondary review-date">Reviewed in the United Kingdom on ${r.date}</span>
    <div class="a-row a-spacing-mini review-data review-format-strip">${r.variant ? `<a data-hook="format-strip" class="a-size-mini a-link-normal a-color-secondary" href="/p/gooseneck-kettle-gk200/reviews?formatType=current_format">${r.variant}</a>` : ''}${
      r.variant && r.verified ? '<i class="a-icon a-icon-text-separator" role="img" aria-label="|"></i>' : ''}${
      r.verified ? '<span data-hook="avp-badge" class="a-size-mini a-color-state a-text-bold">Verified Purchase</span>' : ''}</div>
    <div class="a-row a-spacing-small review-data"><span data-hook="review-body" class="a-size-base review-text review-text-content"><span>${r.paragraphs.map((p) => ent(p)).join('<br><br>')}</span></span></div>
    <div class="a-row review-comments"><div class="cr-vote">${r.helpful !== null ? `<span data-hook="helpful-vote-statement" class="a-size-base a-color-tertiary cr-vote-text">${helpfulText(r.helpful)}</span>` : ''}<span class="cr-helpful-button"><a class="a-button-text" href="/ap/signin" role="button">Helpful</a></span> <span class="a-letter-space"></span><a class="a-link-normal" href="/hz/reviews-render/report-abuse?id=${r.id}">Report</a></div></div>
  </div>
</div>`;
}

function reviewV2(r: Review): string {
  return `<li id="customer_review-${r.id}" data-hook="review" class="rv">
<div class="rv-author"><img class="rv-avatar" src="/avatars/default-48.png" alt=""><span class="rv-name">${esc(r.name)}</span>${r.verified ? `<span class="rv-badge" data-hook="avp-badge">${icon('check', 'rv-ico')} Verified Purchase</span>` : ''}</div>
<span class="rv-date" data-hook="review-date">Reviewed in the United Kingdom on ${r.date}</span>
<h3 class="rv-title"><a data-hook="review-title" href="https://shop.example.test/gp/customer-reviews/${r.id}">${esc(r.title)}</a></h3>
<div class="rv-stars" data-hook="review-star-rating">${icon('star', 'rv-star')}<span class="sr-text">${r.stars}.0 out of 5 stars</span></div>${
  r.variant ? `\n<p class="rv-variant"><a data-hook="format-strip" href="/p/gooseneck-kettle-gk200/reviews?formatType=current_format">${esc(r.variant)}</a></p>` : ''}
<div class="rv-body" data-hook="review-body">${r.paragraphs.map((p) => `<p>${esc(p)}</p>`).join('')}</div>
<div class="rv-foot">${r.helpful !== null ? `<span class="rv-helpful" data-hook="helpful-vote-statement">${helpfulText(r.helpful)}</span>` : ''}<button class="rv-vote">Helpful</button> <a class="rv-report" href="/hz/reviews-render/report-abuse?id=${r.id}">Report</a></div>
</li>`;
}

const ALSO = `<li class="rv-strip" aria-label="Customers also viewed"><h3 class="rv-title">Customers who viewed this also viewed</h3><ul class="rv-cards">${[
  ['Digital pour-over scale with timer', 4, '\u00a324.99'], ['Stainless steel V60 dripper', 5, '\u00a319.50'], ['Glass server 600 ml', 4, '\u00a314.00'],
].map(([t, s, p]) => `<li class="rv-card"><a href="/p/${attr(String(t).toLowerCase().replace(/[^a-z0-9]+/g, '-'))}"><img src="/img/mini.jpg" alt=""><span class="rv-card-title">${t}</span></a><div class="rv-stars">${icon('star', 'rv-star')}<span class="sr-text">${s}.0 out of 5 stars</span></div><span class="rv-price">${p}</span></li>`).join('')}</ul></li>`;

function v1(list: Review[]): string {
  return doc({
    lang: 'en-gb',
    title: 'Customer reviews: GK200 Gooseneck Kettle',
    body: `<header id="navbar" role="banner"><div id="nav-belt"><a id="nav-logo" href="/">shop</a><form id="nav-search" action="/s"><input name="k" aria-label="Search"></form><a id="nav-cart" href="/cart">Basket</a></div>
<nav id="nav-main" aria-label="Departments"><a href="/kitchen">Kitchen</a> <a href="/coffee">Coffee &amp; tea</a> <a href="/deals">Today's deals</a></nav></header>
<div id="a-page"><div class="a-container">
<div class="product-info"><a href="/p/gooseneck-kettle-gk200"><img src="/img/gk200.jpg" alt="GK200"></a><h1><a href="/p/gooseneck-kettle-gk200">GK200 Gooseneck Electric Kettle, 0.9 L, variable temperature</a></h1>
<div class="summary"><span class="a-icon-alt">4.2 out of 5 stars</span> <span>1,874 global ratings</span></div></div>
<div class="filters"><select name="sort"><option>Most recent</option><option>Top reviews</option></select></div>
<div id="cm_cr-review_list" class="a-section a-spacing-none review-views celwidget">
${list.map(reviewV1).join('\n')}
</div>
<ul class="a-pagination"><li class="a-disabled">\u2190 Previous page</li><li class="a-last"><a href="?sort=recent&amp;pageNumber=2">Next page \u2192</a></li></ul>
</div></div>
<footer class="navFooter" role="contentinfo"><div class="navFooterLinks"><a href="/help">Help</a> <a href="/conditions">Conditions of use</a> <a href="/privacy">Privacy notice</a></div><p>&copy; 1996-2025, shop.example.test</p></footer>`,
  });
}

function v2(list: Review[]): string {
  const items = list.map(reviewV2);
  items.splice(6, 0, ALSO);
  return doc({
    lang: 'en-gb',
    title: 'Customer reviews: GK200 Gooseneck Kettle',
    body: `<header class="hdr" role="banner"><a class="hdr-logo" href="/">shop</a><form class="hdr-search" action="/s"><input name="k" aria-label="Search"></form><nav class="hdr-nav" aria-label="Departments"><a href="/kitchen">Kitchen</a><a href="/coffee">Coffee &amp; tea</a><a href="/deals">Deals</a></nav></header>
<main class="reviews-page">
<section class="product-head"><img src="/img/gk200.jpg" alt=""><h1>GK200 Gooseneck Electric Kettle, 0.9 L</h1><p class="avg"><span>4.2 out of 5</span> \u00b7 1,874 ratings</p></section>
<section class="reviews" aria-label="Reviews"><div class="reviews-toolbar"><label>Sort <select><option>Most recent</option></select></label></div>
<ul class="reviews-list">
${items.join('\n')}
</ul>
<nav class="reviews-pager" aria-label="Pages"><a href="?sort=recent&amp;pageNumber=2">Next page</a></nav>
</section>
</main>
<footer class="ftr" role="contentinfo"><a href="/help">Help</a> <a href="/conditions">Conditions of use</a> <a href="/privacy">Privacy notice</a></footer>`,
  });
}

type Sel = { reviewer: string; rating: string; title: string; date: string; variant: string; verified: string; body: string; helpful: string };
const fields = (s: Sel) => [
  text('reviewer', s.reviewer),
  text('rating', s.rating),
  text('title', s.title),
  attribute('url', s.title, 'href', 'absolute_url'),
  text('date', s.date),
  text('variant', s.variant),
  text('verified', s.verified),
  text('body', s.body),
  text('helpful', s.helpful),
];
const computed = [template('headline', '{rating}: {title}')];

export function build(): SiteBuild {
  const list = reviews();
  const schema: ExtractionRequest = {
    type: 'json_css',
    schema: {
      name: 'reviews',
      base_selector: '#cm_cr-review_list > div.review',
      fields: fields({
        reviewer: '.a-profile-name', rating: 'i.review-rating .a-icon-alt', title: 'a.review-title', date: 'span.review-date',
        variant: '.review-format-strip a', verified: '.review-format-strip span.a-color-state', body: 'span.review-text', helpful: 'span.cr-vote-text',
      }),
    },
    computed_fields: computed,
  };
  const schemaV2: ExtractionRequest = {
    type: 'json_css',
    schema: {
      name: 'reviews',
      base_selector: 'ul.reviews-list > li.rv',
      fields: fields({
        reviewer: '.rv-name', rating: '.rv-stars .sr-text', title: 'h3.rv-title a', date: '.rv-date', variant: '.rv-variant',
        verified: '.rv-badge', body: '.rv-body', helpful: '.rv-helpful',
      }),
    },
    computed_fields: computed,
  };
  return {
    id: 'review-list',
    meta: {
      kind: 'review list',
      page_url: PAGE_URL,
      changes: ['class_renamed', 'id_renamed', 'container_tag_changed', 'fields_reordered', 'promo_inserted', 'optional_missing', 'relative_urls_changed'],
      v1_schema_on_v2: 'no_base_match',
      hard_cases: [
        'data-hook attribute values (review, review-title, review-date, review-body, avp-badge…) survive the redesign: the stable values a fingerprint should weigh',
        'the "also viewed" strip is an <li> of the same list with product mini-cards that have star ratings ("4.0 out of 5 stars") and titles',
        'rating is hidden text inside an icon (a-icon-alt in v1, sr-text after an SVG in v2)',
        'body paragraphs are <br><br>-joined in v1 and <p>s in v2; verified moves from the format strip to the author line, with an SVG before it',
        'review ids change form (R… to customer_review-R…); URLs become absolute',
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
