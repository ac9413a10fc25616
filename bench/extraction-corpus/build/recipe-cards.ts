import type { ExtractedRecord, ExtractionRequest } from '../../support/extraction-corpus.ts';
import { cookieBanner, doc, ent, esc, icon, PIXEL, slug, thousands } from './html.ts';
import { attribute, html, list, template, text, type SiteBuild } from './site.ts';

// A recipe collection. v2 is an Emotion (CSS-in-JS) rebuild rendered on the server: css-<hash> classes, a
// <style data-emotion> element inside every card before the markup it styles, cards as <li> of an <ol>, the
// author above the title and the tags at the bottom, and a "shop the cookbook" tile between the cards.

const PAGE_URL = 'https://cook.example.test/collections/weeknight-dinners';

interface Recipe {
  title: string;
  dek: string;
  minutes: number;
  rating: string | null;
  count: number | null;
  author: string;
  tags: string[];
}

const RAW: [string, string, number, string | null, number | null, string, string[]][] = [
  ['Crispy Gnocchi with Brown Butter & Sage', 'Pan-fried <em>gnocchi</em>, no boiling needed', 25, '4.7', 1204, 'Ana Costa', ['Vegetarian', 'Quick']],
  ['Sheet-Pan Harissa Chicken', 'One tray, <strong>ten minutes</strong> of work', 45, '4.5', 873, 'Sam Okoye', ['Gluten-free']],
  ['Miso Butter Salmon', 'Glazed under the grill until <em>just</em> flaky', 20, '4.8', 2311, 'Yuki Tanaka', ['Quick', 'High protein']],
  ['Weeknight Dal Tadka', 'Yellow lentils with a sizzling spiced butter', 40, '4.9', 3120, 'Priya Mehta', ['Vegan', 'Budget']],
  ['Lemony Orzo with Peas', 'A risotto-style orzo ready in one pot', 30, null, null, 'Ana Costa', ['Vegetarian']],
  ['Chorizo & White Bean Stew', 'Smoky, hearty and <strong>better the next day</strong>', 35, '4.6', 456, 'Diego Ruiz', []],
  ['Sesame Noodles with Crunchy Veg', 'Serve warm or cold', 15, '4.4', 998, 'Yuki Tanaka', ['Vegan', 'Quick']],
  ['Turkey Meatballs in Tomato Sauce', 'Baked, not fried, then simmered', 50, '4.3', 367, 'Sam Okoye', ['High protein']],
  ['Halloumi Tacos', 'With quick-pickled onions and lime crema', 25, null, null, 'Diego Ruiz', ['Vegetarian']],
  ['Thai Green Curry with Tofu', 'Use a good shop-bought paste', 30, '4.6', 1587, 'Priya Mehta', ['Vegan', 'Gluten-free']],
  ['Pasta alla Gricia', 'Four ingredients, <em>zero</em> shortcuts', 20, '4.8', 742, 'Luca Bianchi', []],
  ['Korean-Style Beef Rice Bowls', 'Sweet, salty and on the table in 20 minutes', 20, '4.7', 2045, 'Yuki Tanaka', ['Quick', 'High protein']],
];

function recipes(): Recipe[] {
  return RAW.map(([title, dek, minutes, rating, count, author, tags]) => ({ title, dek, minutes, rating, count, author, tags }));
}

const time = (m: number) => (m >= 60 ? `${Math.floor(m / 60)} hr ${m % 60} min` : `${m} min`);

function expected(r: Recipe): ExtractedRecord {
  const url = `https://cook.example.test/recipes/${slug(r.title)}`;
  return {
    title: r.title,
    url,
    image: `https://cook.example.test/images/r/${slug(r.title)}-600x400.jpg`,
    tags: r.tags.length ? r.tags : null,
    dek: r.dek,
    total_time: time(r.minutes),
    rating: r.rating,
    ratings: r.count === null ? null : `${thousands(r.count)} ratings`,
    author: r.author,
    byline: `${r.title} by ${r.author}`,
  };
}

const starIcons = (rating: string) => Array.from({ length: 5 }, (_, i) => icon('star', i < Math.round(Number(rating)) ? 'star star--on' : 'star')).join('');

function cardV1(r: Recipe): string {
  const s = slug(r.title);
  return `    <div class="recipe-card">
      <a class="recipe-card__image-link" href="/recipes/${s}"><img class="recipe-card__image lazyload" src="${PIXEL}" data-src="/images/r/${s}-600x400.jpg" alt=""></a>
      <div class="recipe-card__body">${r.tags.length ? `\n        <ul class="recipe-card__tags">${r.tags.map((t) => `<li class="tag">${esc(t)}</li>`).join('')}</ul>` : ''}
        <h3 class="recipe-card__title"><a href="/recipes/${s}">${ent(r.title)}</a></h3>
        <div class="recipe-card__dek">${r.dek}</div>
        <div class="recipe-card__meta">
          <span class="recipe-card__time">${icon('clock')} ${time(r.minutes).replace(/ /g, '&nbsp;')}</span>${r.rating ? `
          <span class="recipe-card__rating" data-rating="${r.rating}" title="Rated ${r.rating} out of 5">${starIcons(r.rating)}
            <span class="recipe-card__rating-count">${thousands(r.count!)} ratings</span>
          </span>` : ''}
        </div>
        <p class="recipe-card__author">By <a href="/cooks/${slug(r.author)}">${esc(r.author)}</a></p>
      </div>
    </div>`;
}

function cardV2(r: Recipe, i: number): string {
  const s = slug(r.title);
  return `<li class="css-1q2w3e4"><style data-emotion="css 1q2w3e4">.css-1q2w3e4{display:flex;flex-direction:column;}</style><article class="css-9ijn8u7" aria-labelledby="r${i}">
<div class="css-5tgb6yh"><a href="/recipes/${s}" tabindex="-1"><img class="css-0okm9ij" src="${PIXEL}" data-src="/images/r/${s}-600x400.jpg" alt="" width="600" height="400"></a></div>
<style data-emotion="css 3edc4rf">.css-3edc4rf{padding:12px;}</style><div class="css-3edc4rf">
<p class="css-7ujm8ik">${esc(r.author)}</p>
<h2 class="css-2wsx3ed" id="r${i}"><a href="/recipes/${s}">${esc(r.title)}</a></h2>
<div class="css-4rfv5tg">${r.dek}</div>
<div class="css-6yhn7uj"><span class="css-8ik9ol0">${icon('clock', 'css-icon')}<!-- -->${time(r.minutes)}</span>${
  r.rating ? `<span class="css-1az2sx3" data-rating="${r.rating}"><span class="css-4dc5fv6">${r.rating}</span><span class="css-7gb8hn9">${thousands(r.count!)} ratings</span></span>` : ''}</div>${
  r.tags.length ? `\n<div class="css-0pl9ok8">${r.tags.map((t) => `<span class="css-chip">${esc(t)}</span>`).join('')}</div>` : ''}
</div></article></li>`;
}

const COOKBOOK = `<li class="css-1q2w3e4 css-promo"><article class="css-9ijn8u7"><div class="css-5tgb6yh"><a href="https://shop.cook.example.test/books/weeknight"><img class="css-0okm9ij" src="https://cook.example.test/images/books/weeknight.jpg" alt=""></a></div>
<div class="css-3edc4rf"><p class="css-7ujm8ik">Sponsored</p><h2 class="css-2wsx3ed"><a href="https://shop.cook.example.test/books/weeknight">The Weeknight Cookbook: 120 dinners in 30 minutes</a></h2>
<div class="css-4rfv5tg">Order now and get <strong>20% off</strong></div><div class="css-6yhn7uj"><span class="css-1az2sx3" data-rating="4.9"><span class="css-4dc5fv6">4.9</span><span class="css-7gb8hn9">512 reviews</span></span></div></div></article></li>`;

function v1(list_: Recipe[]): string {
  return doc({
    title: 'Weeknight Dinners: 12 Easy Recipes | Cook Daily',
    body: `<header class="header"><div class="header__inner"><a class="logo" href="/">Cook Daily</a>
<nav class="main-nav" aria-label="Main"><ul><li><a href="/recipes">Recipes</a></li><li><a href="/collections">Collections</a></li><li><a href="/techniques">Techniques</a></li><li><a href="/videos">Videos</a></li></ul></nav>
<form class="header__search" action="/search"><input name="q" placeholder="Find a recipe"></form></div></header>
<main class="collection">
<header class="collection__header"><h1>Weeknight Dinners</h1><p class="collection__intro">Twelve dinners that are on the table in under an hour, most in half that.</p></header>
<div class="recipe-grid">
${list_.map(cardV1).join('\n')}
</div>
<section class="newsletter"><h2>Get dinner ideas every Monday</h2><form action="/newsletter"><input type="email" name="email"><button>Subscribe</button></form></section>
</main>
<aside class="related"><h2>More collections</h2><ul><li><a href="/collections/one-pot">One-pot meals</a></li><li><a href="/collections/meal-prep">Meal prep</a></li></ul></aside>
<footer class="footer"><p>&copy; 2025 Cook Daily. <a href="/terms">Terms</a> &middot; <a href="/privacy">Privacy</a></p></footer>
${cookieBanner('cookie-notice')}`,
  });
}

function v2(list_: Recipe[]): string {
  const items = list_.map(cardV2);
  items.splice(6, 0, COOKBOOK);
  return doc({
    title: 'Weeknight Dinners | Cook Daily',
    body: `<div id="app"><header class="css-hdr1a2b"><a class="css-logo3c4" href="/">Cook Daily</a><nav class="css-nav5d6" aria-label="Main"><a href="/recipes">Recipes</a><a href="/collections">Collections</a><a href="/techniques">Techniques</a><a href="/videos">Videos</a></nav></header>
<main class="css-main7e8">
<div class="css-hero9f0"><h1>Weeknight Dinners</h1><p>Twelve dinners that are on the table in under an hour, most in half that.</p></div>
<section class="css-grid1g2" aria-label="Recipes"><ol class="css-list3h4">
${items.join('\n')}
</ol></section>
</main>
<footer class="css-ftr5i6"><a href="/terms">Terms</a> <a href="/privacy">Privacy</a><p>\u00a9 2025 Cook Daily</p></footer></div>`,
  });
}

type Sel = { title: string; image: string; tags: string; dek: string; time: string; rating: string; ratings: string; author: string };
const fields = (s: Sel) => [
  text('title', s.title),
  attribute('url', `${s.title} a`, 'href', 'absolute_url'),
  attribute('image', s.image, 'data-src', 'absolute_url'),
  list('tags', s.tags),
  html('dek', s.dek),
  text('total_time', s.time),
  attribute('rating', s.rating, 'data-rating'),
  text('ratings', s.ratings),
  text('author', s.author),
];
const computed = [template('byline', '{title} by {author}')];

export function build(): SiteBuild {
  const list_ = recipes();
  const schema: ExtractionRequest = {
    type: 'json_css',
    schema: {
      name: 'recipes',
      base_selector: '.recipe-grid > .recipe-card',
      fields: fields({
        title: '.recipe-card__title', image: 'img.recipe-card__image', tags: '.recipe-card__tags .tag', dek: '.recipe-card__dek',
        time: '.recipe-card__time', rating: '.recipe-card__rating', ratings: '.recipe-card__rating-count', author: '.recipe-card__author a',
      }),
    },
    computed_fields: computed,
  };
  const schemaV2: ExtractionRequest = {
    type: 'json_css',
    schema: {
      name: 'recipes',
      base_selector: 'ol.css-list3h4 > li.css-1q2w3e4:not(.css-promo)',
      fields: fields({
        title: 'h2.css-2wsx3ed', image: 'img.css-0okm9ij', tags: '.css-chip', dek: '.css-4rfv5tg', time: '.css-8ik9ol0',
        rating: '[data-rating]', ratings: '.css-7gb8hn9', author: 'p.css-7ujm8ik',
      }),
    },
    computed_fields: computed,
  };
  return {
    id: 'recipe-cards',
    meta: {
      kind: 'recipe cards',
      page_url: PAGE_URL,
      changes: ['class_renamed', 'container_tag_changed', 'extra_wrapper', 'fields_reordered', 'promo_inserted', 'optional_missing'],
      v1_schema_on_v2: 'no_base_match',
      hard_cases: [
        'every v2 card holds <style data-emotion> elements inside it (text excluded), and the li > article is an extra level',
        'the cookbook tile shares the card classes (css-1q2w3e4 plus css-promo) and has a rating, a count ("512 reviews"), a dek and a title',
        'dek is an html field (inner markup with <em>/<strong>); author moves from a "By" line after the title to a bare <p> above it',
        'total_time has nbsp between number and unit in v1 and an empty comment after the icon in v2; rating and ratings are missing on new recipes',
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
