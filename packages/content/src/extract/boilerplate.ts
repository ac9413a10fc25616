import { isElement, type DomElement, type DomNode } from '../dom.ts';
import { isEntryForm } from './forms.ts';
import { isSectionTitle } from './prepare-page.ts';

// Page furniture recognised by tag, ARIA role or class/id words. These are hints, not verdicts: the extractor
// drops a marked element only when it is small next to the page or mostly links (see furniture.ts).

const FURNITURE_TAGS = new Set(['nav', 'aside', 'footer', 'header', 'menu', 'tool-tip']);

// A menu's items and a dropdown's options are controls, whether or not their container says it is a menu.
const FURNITURE_ROLES = new Set([
  'navigation', 'banner', 'contentinfo', 'complementary', 'search', 'menu', 'menubar', 'dialog', 'alertdialog',
  'toolbar', 'tablist', 'tooltip', 'menuitem', 'menuitemradio', 'menuitemcheckbox', 'listbox',
]);

// Whole words of class and id values ("site-header", "mainNav" and "cookie_bar" all split into words).
const FURNITURE_WORDS = new Set([
  'nav', 'navbar', 'navigation', 'menu', 'menubar', 'megamenu', 'breadcrumb', 'breadcrumbs', 'crumbs', 'sidebar',
  'sidebars', 'cookie', 'cookies', 'consent', 'gdpr', 'onetrust', 'share', 'sharing', 'sharebar',
  'social', 'newsletter', 'subscribe', 'subscription', 'footer', 'masthead', 'header', 'related', 'recommended',
  'recommendations', 'promo', 'promotion', 'advert', 'advertisement', 'adverts', 'ads', 'ad', 'adslot',
  'sponsored', 'sponsor', 'popup', 'modal', 'overlay', 'skip', 'pagination', 'pager', 'toolbar', 'topbar',
  'disqus', 'signin', 'signup', 'login', 'tagcloud', 'banner', 'outbrain', 'taboola', 'offcanvas', 'drawer',
  'toc', 'rail', 'trending', 'popular', 'sr', 'visually', 'screenreader', 'comment', 'comments', 'respond',
  'commentform', 'akismet', 'tags', 'taxonomy', 'byline', 'bio', 'disclaimer', 'signature', 'badge',
  'buttons', 'btn', 'cart', 'review', 'reviews', 'posts', 'more', 'read', 'filter', 'filters', 'facet', 'facets',
  'sort', 'sorting', 'refinements', 'footnote', 'footnotes', 'endnotes', 'references', 'reflist', 'citations', 'jump',
  'button', 'cta', 'legal', 'notice', 'extras', 'reader', 'unavailable', 'likes', 'feedback', 'recirc',
  'recirculation', 'paywall', 'regwall', 'commentlist', 'upsell', 'upsells', 'crosssell', 'crosssells',
]);

// Elements whose tag already says what they are: a class word ("sticky-header" on a data table) does not make
// them furniture.
const NEVER_BY_NAME = new Set([
  'html', 'body', 'main', 'article', 'table', 'thead', 'tbody', 'tr', 'td', 'th', 'p', 'pre', 'code', 'blockquote',
  'h1', 'h2', 'h3', 'h4', 'h5', 'h6', 'dl', 'figure', 'img',
]);

/**
 * 'structure': marked by tag or ARIA role; 'name': by class/id words only (listed in words), a weaker hint.
 */
export interface FurnitureMark {
  kind: 'structure' | 'name';
  words: readonly string[];
}

const STRUCTURE: FurnitureMark = { kind: 'structure', words: [] };

export function furnitureOf(el: DomElement): FurnitureMark | null {
  const { attribs } = el;
  const role = attribs.role?.trim().toLowerCase();
  if (role === 'main' || role === 'article') return null;
  if (FURNITURE_TAGS.has(el.name) || isEntryForm(el)) return STRUCTURE;
  if (role !== undefined && FURNITURE_ROLES.has(role)) return STRUCTURE;
  if (NEVER_BY_NAME.has(el.name) || isSectionTitle(el)) return null;
  // Class and id are judged apart (their words never run into each other): no joined string to build and hash.
  const byClass = attribs.class ? markOfNames(attribs.class, true) : null;
  const byId = attribs.id && !isHeadingAnchor(el, attribs.id) ? markOfNames(attribs.id) : null;
  if (byClass === null || byId === null) return byClass ?? byId;
  const words = [...byClass.words];
  for (const word of byId.words) if (!words.includes(word)) words.push(word);
  return { kind: 'name', words };
}

// An id made from the section's own heading ("menu-innovation-strategies" above "Menu Innovation Strategies", for
// links to it) names content, whatever words it holds. Two-word ids ("related-posts", "site-menu") stay names.
const ANCHOR_MIN_WORDS = 3;
const ANCHOR_SEARCH_NODES = 60;
// A slug is made from a heading's first words: reading more of a (possibly huge) heading tells nothing more.
const ANCHOR_HEADING_CHARS = 300;

function isHeadingAnchor(el: DomElement, id: string): boolean {
  if (markOfNames(id) === null) return false; // most ids: nothing to excuse
  const idWords = id.toLowerCase().split(/[^\p{L}\p{N}]+/u).filter((word) => word !== '');
  if (idWords.length < ANCHOR_MIN_WORDS) return false;
  const heading = firstHeading(el);
  if (heading === null) return false;
  const headingWords = new Set(leadingText(heading, ANCHOR_HEADING_CHARS).toLowerCase().split(/[^\p{L}\p{N}]+/u));
  // Slugs are often cut short: the last id word may be a prefix of a heading word.
  return idWords.every((word, i) => headingWords.has(word) || (i === idWords.length - 1 && [...headingWords].some((h) => h.startsWith(word))));
}

/** The element's text up to about max characters (whole text nodes, in document order). */
function leadingText(el: DomElement, max: number): string {
  let text = '';
  const stack: DomNode[] = [...el.children].reverse();
  while (stack.length > 0 && text.length < max) {
    const node = stack.pop()!;
    if (node.type === 'text') text += node.data.slice(0, max);
    else if (isElement(node)) for (let i = node.children.length - 1; i >= 0; i--) stack.push(node.children[i]);
  }
  return text;
}

/** The first h1-h6 among the element's first descendants (breadth-limited: a section's heading opens it). */
function firstHeading(el: DomElement): DomElement | null {
  const stack: DomNode[] = [...el.children].reverse();
  for (let seen = 0; stack.length > 0 && seen < ANCHOR_SEARCH_NODES; seen++) {
    const node = stack.pop()!;
    if (!isElement(node)) continue;
    if (/^h[1-6]$/.test(node.name)) return node;
    for (let i = node.children.length - 1; i >= 0; i--) stack.push(node.children[i]);
  }
  return null;
}

// Pages repeat the same class strings many times; remember the verdicts (bounded, the process is long-lived).
// Class values and ids apart, so that a lookup needs no joined key: a fresh string is hashed on every call.
const classVerdicts = new Map<string, FurnitureMark | null>();
const idVerdicts = new Map<string, FurnitureMark | null>();
const MAX_VERDICTS = 10_000;

// Utility-class tokens (Tailwind and the like) style an element, they do not name it: a variant or arbitrary value
// ("md:block", "group-[x]:flex") or a styling prefix ("decoration-skip-ink-none" is no skip link).
const UTILITY_TOKEN = /[:[\]]|^-?(decoration|underline|text|font|leading|tracking|whitespace|break|overflow|cursor|transition|duration|ease|delay|animate|opacity|inset|scroll|snap|touch|select|fill|stroke|outline|ring|shadow)-/;

// CSS-module class names end in a generated hash ("mdx-table_root__adKqa"): its letters are no word.
const MODULE_HASH = /__[A-Za-z0-9-]{5}$/;

// "header" after another word of the same class token names a component's header ("card-header",
// "section-master__layout-header", "StyledHeadlineHeader"), not the site's, unless that word is the site's.
const SITE_HEADER_WORDS = new Set(['site', 'global', 'main', 'top', 'app', 'masthead', 'navbar', 'nav', 'sticky', 'fixed', 'mobile', 'desktop', 'page']);

/**
 * A CSS-module class ("filtering-and-pagination_product-column__ZNBHT", [module]_[local]__[hash]) names the element
 * by its local part; the module part names the component it sits in (the product grid's column in the
 * filtering-and-pagination component is no pager). Other tokens are returned as they are.
 */
function moduleLocalName(token: string): string {
  const bare = token.replace(MODULE_HASH, '');
  if (bare === token) return token;
  const split = bare.indexOf('_');
  return split > 0 && split < bare.length - 1 ? bare.slice(split + 1) : bare;
}

// A BEM modifier saying what an element has or shows ("price--show-badge", "card--has-video", "post--no-comments")
// names no part of it: the words from such a modifier on are no name of the element. (Without the "--", "has-X"
// is too often a component of its own: a carousel "has-buttons" is still a carousel of them.)
const HAS_PART = /--(has|with|without|show|shows|hide|no)[-_]/i;

/** The class value without utility tokens, CSS-module hashes, what it says an element has, and component headers. */
function classNames(names: string): string {
  const kept: string[] = [];
  for (const whole of names.split(/\s+/)) {
    if (UTILITY_TOKEN.test(whole)) continue;
    const has = whole.includes('--') ? HAS_PART.exec(whole) : null;
    const token = has === null ? whole : whole.slice(0, has.index);
    const bare = moduleLocalName(token);
    const words = /header/i.test(bare) ? wordsOf(bare) : null;
    kept.push(words !== null && isComponentHeader(words) ? words.filter((word) => word !== 'header').join('-') : bare);
  }
  return kept.join(' ');
}

/** Whether every "header" word of a class token follows another word that does not name the site. */
function isComponentHeader(words: readonly string[]): boolean {
  // Words, not a pattern: class values are the page's to choose, and a backtracking pattern over them is quadratic.
  let found = false;
  for (let i = 0; i < words.length; i++) {
    if (words[i] !== 'header') continue;
    if (i === 0 || SITE_HEADER_WORDS.has(words[i - 1])) return false;
    found = true;
  }
  return found;
}

function markOfNames(names: string, classes = false): FurnitureMark | null {
  // A class value is read apart from an id of the same text (utility tokens, hashes, component headers).
  const verdicts = classes ? classVerdicts : idVerdicts;
  let verdict = verdicts.get(names);
  if (verdict === undefined) {
    const named = classes && /[:[\]-]|__|header/i.test(names) ? classNames(names) : names;
    const words = furnitureWords(named);
    verdict = words.length > 0 ? { kind: 'name', words } : null;
    if (verdicts.size >= MAX_VERDICTS) verdicts.clear();
    verdicts.set(detached(names), verdict);
  }
  return verdict;
}

/**
 * A copy of an attribute value that does not hold on to the page: the parser's values are slices of the page's
 * whole source, and a process-long cache keyed by them kept the sources of the pages they came from alive (20 MB
 * after 300 pages, retention.test.ts). Joining flattens into a new string; slicing that one refers to it alone.
 */
function detached(value: string): string {
  return ` ${value}`.slice(1);
}

/** An element that says it is one article: <article>, role=article, itemprop=articleBody or text. */
export function isArticleLandmark(el: DomElement): boolean {
  if (el.name === 'article' || el.attribs.role?.toLowerCase() === 'article') return true;
  const itemprop = el.attribs.itemprop?.toLowerCase();
  return itemprop === 'articlebody' || itemprop === 'text';
}

/** Whether the element is named as content (main, article, itemprop=articleBody...). */
export function isContentLandmark(el: DomElement): boolean {
  if (el.name === 'main' || el.name === 'article') return true;
  const role = el.attribs.role?.toLowerCase();
  if (role === 'main' || role === 'article') return true;
  const itemprop = el.attribs.itemprop?.toLowerCase();
  return itemprop === 'articlebody' || itemprop === 'text' || itemprop === 'mainentityofpage';
}

/** The distinct furniture words of a class/id value, in order. */
export function furnitureWords(names: string): string[] {
  // Most values are new to the verdict cache on a real crawl, so this runs for most marked elements: one scan
  // that only slices out candidate words, where wordsOf() builds three intermediate strings and arrays.
  const found: string[] = [];
  let start = -1;
  let previous = 0;
  for (let i = 0; i <= names.length; i++) {
    const code = i < names.length ? names.charCodeAt(i) : 32;
    if (code > 127) return [...new Set(wordsOf(names).filter((word) => FURNITURE_WORDS.has(word)))]; // Unicode case rules
    const upper = code >= 65 && code <= 90;
    const wordChar = upper || (code >= 97 && code <= 122) || (code >= 48 && code <= 57);
    // A word ends at punctuation and where camelCase turns from lower to upper case.
    const boundary = !wordChar || (upper && previous >= 97 && previous <= 122);
    if (boundary && start >= 0) {
      const word = names.slice(start, i).toLowerCase();
      if (FURNITURE_WORDS.has(word) && !found.includes(word)) found.push(word);
      start = -1;
    }
    if (wordChar && start < 0) start = i;
    previous = code;
  }
  return found;
}

/** Lower-case words of a class/id value, splitting on punctuation and camelCase. */
function wordsOf(names: string): string[] {
  return names
    .replace(/([a-z])([A-Z])/g, '$1 $2')
    .toLowerCase()
    .split(/[^a-z0-9]+/)
    .filter((word) => word !== '');
}
