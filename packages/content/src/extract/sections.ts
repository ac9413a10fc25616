import { textContent, type DomElement } from '../dom.ts';
import { isInside } from './duplicate-blocks.ts';
import type { PageHints } from './page-hints.ts';
import type { PageModel } from './page-model.ts';
import { collapse } from '../text.ts';
import { sectionKind, type SectionKind } from './section-headings.ts';

// Sections that are not the page's content (their headings: section-headings.ts), dropped with what they head.

const HEADINGS = new Set(['h1', 'h2', 'h3', 'h4', 'h5', 'h6']);
// A short block saying only "Related articles" is a heading even when the page styled a <div> as one.
const TITLE_LIKE = new Set(['div', 'p', 'span', 'strong', 'b', 'header', 'legend', 'summary', 'caption']);
const MAX_TITLE_WORDS = 8;
// A related section is teasers: a block of prose this long (few links) ends it, it is the article going on.
const PROSE_STOP_WORDS = 40;
// Comments follow an article: at least this much prose must come before a comment section for it to go.
const PROSE_BEFORE_COMMENTS = 50;
// Reviews follow the product: its name, price and details (few of them prose) must come before them.
const WORDS_BEFORE_REVIEWS = 20;

/**
 * Drops (in the model, as furniture: dropped = 1, inside 2, figures subtracted from the ancestors) the sections
 * that are not content: related / recommended / "more from" blocks and, unless the page is a discussion whose
 * replies are its content, comment sections and schema.org comments. Returns what was dropped, by kind.
 */
export function dropSections(model: PageModel, hints: PageHints): Record<SectionKind, number> {
  const { nodes, parent, words, dropped } = model;
  const n = nodes.length;
  const end = subtreeEnds(parent, n);
  const proseBefore = new Float64Array(n);
  const wordsBefore = new Float64Array(n);
  let running = 0;
  let runningWords = 0;
  const ownProse = ownValues(model.prose, parent, dropped, n);
  const ownWords = ownValues(model.words, parent, dropped, n);
  for (let i = 0; i < n; i++) {
    proseBefore[i] = running;
    running += ownProse[i];
    wordsBefore[i] = runningWords;
    runningWords += ownWords[i];
  }
  const counts: Record<SectionKind, number> = { related: 0, comments: 0, reviews: 0 };
  const discussion = hints.discussion || hasDiscussionMicrodata(nodes);
  const drop = (i: number, kind: SectionKind) => {
    if (dropped[i]) return;
    subtractFromAncestors(model, i);
    dropped[i] = 1;
    for (let j = i + 1; j < end[i]; j++) if (!dropped[j]) dropped[j] = 2;
    counts[kind]++;
  };
  for (let i = 1; i < n; i++) {
    if (dropped[i]) continue;
    const el = nodes[i] as DomElement;
    if (!discussion && hints.article && isMicrodataComment(el) && proseBefore[i] >= PROSE_BEFORE_COMMENTS) {
      drop(i, 'comments');
      continue;
    }
    const level = headingLevel(el, words[i], end[i] - i);
    if (level === 0) continue;
    const text = collapse(textContent(el));
    const kind = sectionKind(text, hints.product && !discussion);
    if (kind === null) continue;
    if (kind === 'comments' && (discussion || proseBefore[i] < PROSE_BEFORE_COMMENTS)) continue;
    if (kind === 'reviews' && wordsBefore[i] < WORDS_BEFORE_REVIEWS) continue;
    for (const j of sectionOf(model, end, i, level, kind)) drop(j, kind);
  }
  return counts;
}

/** 1-6 for a heading (h1-h6, role=heading, or a short title-like block), 0 otherwise. */
function headingLevel(el: DomElement, words: number, size: number): number {
  if (HEADINGS.has(el.name)) return Number(el.name[1]);
  if (el.attribs.role?.toLowerCase() === 'heading') return Math.min(6, Math.max(1, Number(el.attribs['aria-level']) || 2));
  if (TITLE_LIKE.has(el.name) && words > 0 && words <= MAX_TITLE_WORDS && size <= 4) return 6;
  return 0;
}

/**
 * The elements a heading heads: the heading (with any wrapper that holds nothing else) and the siblings after it,
 * up to the next heading of the same or a higher level, or (for related sections) a block of prose.
 */
function sectionOf(model: PageModel, end: Int32Array, heading: number, level: number, kind: SectionKind): number[] {
  const { nodes, parent, words } = model;
  let unit = heading;
  while (parent[unit] > 0 && words[parent[unit]] <= words[unit] && !isRoot(nodes[parent[unit]])) unit = parent[unit];
  const section = [unit];
  const p = parent[unit];
  // The section's items: siblings alike to the first one after the heading (teaser cards, comments), or that
  // first sibling when it is a list of alike items itself, each of which may carry a title of the heading's own
  // level ("Related" over cards titled in <h3>s like itself).
  const items = itemShape(model, end, unit);
  const first = end[unit];
  const list = first < nodes.length && parent[first] === p && isItemList(nodes[first] as DomElement) ? first : -1;
  for (let s = first; s < nodes.length && parent[s] === p; s = end[s]) {
    const item = s === list || (items !== null && shapeOf(nodes[s] as DomElement) === items);
    if (!item && hasHeadingAtOrAbove(model, end, s, level)) break;
    if (kind === 'related' && hasProse(model, end, s)) break;
    section.push(s);
  }
  return section;
}

const FIRST_CLASS = /^\s*(\S*)/;
const shapeOf = (el: DomElement) => `${el.name} ${FIRST_CLASS.exec(el.attribs.class ?? '')![1]}`;

/**
 * The shape (tag, first class word) of the items after a section's heading: the first two siblings after it, when
 * alike and no headings themselves. Null when they are no items.
 */
function itemShape(model: PageModel, end: Int32Array, unit: number): string | null {
  const { nodes, parent } = model;
  const first = end[unit];
  const second = first < nodes.length ? end[first] : nodes.length;
  if (second >= nodes.length || parent[first] !== parent[unit] || parent[second] !== parent[unit]) return null;
  const a = nodes[first] as DomElement;
  if (HEADINGS.has(a.name)) return null;
  const shape = shapeOf(a);
  return shapeOf(nodes[second] as DomElement) === shape ? shape : null;
}

// How many of a list's first children are looked at to tell a list of alike items.
const LIST_SAMPLE = 20;

/** A <ul>/<ol>, or an element whose first children (two or more) are all alike: a list of items. */
function isItemList(el: DomElement): boolean {
  if (el.name === 'ul' || el.name === 'ol') return true;
  let shape: string | null = null;
  let seen = 0;
  for (const child of el.children) {
    if (child.type !== 'tag') continue;
    const own = shapeOf(child);
    if (shape !== null && own !== shape) return false;
    shape = own;
    if (++seen >= LIST_SAMPLE) break;
  }
  return seen >= 2;
}

function hasHeadingAtOrAbove(model: PageModel, end: Int32Array, root: number, level: number): boolean {
  for (let i = root; i < end[root]; i++) {
    const el = model.nodes[i] as DomElement;
    if (HEADINGS.has(el.name) && Number(el.name[1]) <= level && model.words[i] > 0) return true;
  }
  return false;
}

function hasProse(model: PageModel, end: Int32Array, root: number): boolean {
  return model.prose[root] >= PROSE_STOP_WORDS && model.linkWords[root] < 0.3 * model.words[root];
}

const DISCUSSION_ITEMTYPE = /schema\.org\/(DiscussionForumPosting|QAPage|Question|Answer|SocialMediaPosting)\b/i;

function hasDiscussionMicrodata(nodes: PageModel['nodes']): boolean {
  for (let i = 1; i < nodes.length; i++) {
    const itemtype = (nodes[i] as DomElement).attribs.itemtype;
    if (itemtype !== undefined && DISCUSSION_ITEMTYPE.test(itemtype)) return true;
  }
  return false;
}

function isMicrodataComment(el: DomElement): boolean {
  const itemtype = el.attribs.itemtype;
  if (itemtype !== undefined && /schema\.org\/(Comment|UserComments)\b/i.test(itemtype)) return true;
  return el.attribs.itemprop?.trim().toLowerCase() === 'comment';
}

const isRoot = (node: unknown) => (node as { type: string }).type === 'root' || ['html', 'body'].includes((node as DomElement).name);

/** end[i]: the index after the last node of i's subtree (subtrees are contiguous in pre-order). */
function subtreeEnds(parent: Int32Array, n: number): Int32Array {
  const size = new Int32Array(n).fill(1);
  for (let i = n - 1; i > 0; i--) size[parent[i]] += size[i];
  const end = new Int32Array(n);
  for (let i = 0; i < n; i++) end[i] = i + size[i];
  return end;
}

/** Subtree sums (furniture left out) taken back to each node's own value: the sum less its kept children's. */
function ownValues(sums: Float64Array, parent: Int32Array, dropped: Uint8Array, n: number): Float64Array {
  const own = Float64Array.from(sums);
  for (let i = n - 1; i > 0; i--) {
    if (dropped[i]) own[i] = 0;
    else own[parent[i]] -= sums[i];
  }
  return own;
}

/** Drops nodes[i] after extraction figures were taken: dropped = 1, inside 2, its figures taken from the ancestors. */
export function dropSubtree(model: PageModel, i: number): void {
  const { parent, dropped } = model;
  subtractFromAncestors(model, i);
  dropped[i] = 1;
  for (let j = i + 1; j < parent.length && isInside(parent, j, i); j++) if (!dropped[j]) dropped[j] = 2;
}

function subtractFromAncestors(model: PageModel, i: number): void {
  const { parent, words, linkWords, good, prose } = model;
  const w = words[i];
  const l = linkWords[i];
  const g = good[i];
  const p = prose[i];
  for (let a = parent[i]; a >= 0; a = parent[a]) {
    words[a] -= w;
    linkWords[a] -= l;
    good[a] -= g;
    prose[a] -= p;
  }
}

// Link lists that frame an article inside its container (a ticker of headlines above it, a list of tags, topics
// or more links below it, a grid of teaser cards): lists of at least MIN_ITEMS short, mostly linked items (or as
// many cards of one shape), before the article's first paragraph or after its last. Only in a container that is
// mostly prose: on a listing the links are the content.
const LIST_TAGS = new Set(['ul', 'ol', 'menu']);
const MIN_ITEMS = 3;
const MAX_ITEM_WORDS = 8;
const MIN_LINK_SHARE = 0.8;
const MIN_PROSE_SHARE = 0.5;
// Cards (a linked title, a line of teaser) repeat one shape: the same tag and class, several times.
const MAX_CARD_WORDS = 30;

function repeatedChildren(el: DomElement): number {
  const shapes = new Map<string, number>();
  for (const c of el.children) {
    if (c.type !== 'tag') continue;
    const key = `${c.name} ${c.attribs.class ?? ''}`;
    shapes.set(key, (shapes.get(key) ?? 0) + 1);
  }
  let most = 0;
  for (const count of shapes.values()) most = Math.max(most, count);
  return most;
}

// Teaser cards carry an excerpt too ("more stories" carousels, blog-post grids after an article): a few dozen words
// of prose each, so the grid reads as prose and the article would seem to end after it. A grid is at least
// MIN_ITEMS children of one shape, each a card: at most MAX_TEASER_WORDS words, some of them linked, and a linked
// title (a block all of whose words are a link) beside unlinked text; an item of a list of resources (a sentence
// with a link in it) is no card. The grid's prose does not count where the article starts and ends, and the grid
// goes when it lies outside that span and the article's own prose outweighs all such grids.
const MAX_TEASER_WORDS = 80;
const MIN_TEASER_LINK_SHARE = 0.1;
// Most of the grid's words are in its cards (a heading, arrows or a "view all" link may sit beside them).
const MIN_CARD_SHARE = 0.8;

/** Whether nodes[i] is a grid of teaser cards: repeated children, each short with a linked title. */
function isTeaserGrid(model: PageModel, i: number, childIndex: (c: DomElement) => number): boolean {
  const { nodes, words, linkWords } = model;
  const el = nodes[i] as DomElement;
  if (el.children.length < MIN_ITEMS || words[i] === 0) return false;
  const shapes = new Map<string, number[]>();
  for (const c of el.children) {
    if (c.type !== 'tag') continue;
    const key = `${c.name} ${c.attribs.class ?? ''}`;
    const group = shapes.get(key);
    if (group) group.push(childIndex(c));
    else shapes.set(key, [childIndex(c)]);
  }
  for (const group of shapes.values()) {
    if (group.length < MIN_ITEMS) continue;
    let cardWords = 0;
    let cards = 0;
    for (const c of group) {
      if (c < 0 || words[c] === 0) continue;
      if (words[c] > MAX_TEASER_WORDS || linkWords[c] < MIN_TEASER_LINK_SHARE * words[c] || !hasLinkedTitle(model, c)) return false;
      cardWords += words[c];
      cards++;
    }
    if (cards >= MIN_ITEMS && cardWords >= MIN_CARD_SHARE * words[i]) return true;
  }
  return false;
}

/** Whether the card nodes[c] holds a block whose words are all linked (its title) and words outside links. */
function hasLinkedTitle(model: PageModel, c: number): boolean {
  const { nodes, parent, words, linkWords, dropped } = model;
  if (linkWords[c] >= words[c]) return false;
  for (let i = c + 1; i < nodes.length && isInside(parent, i, c); i++) {
    if (!dropped[i] && words[i] > 0 && linkWords[i] === words[i] && PAGE_BLOCKS.has((nodes[i] as DomElement).name)) return true;
  }
  return false;
}

const PAGE_BLOCKS = new Set(['h1', 'h2', 'h3', 'h4', 'h5', 'h6', 'p', 'div', 'span', 'a', 'strong', 'b', 'header', 'figcaption', 'li', 'dt']);

/**
 * Drops the link lists and teaser-card grids before the first and after the last prose block of nodes[core]
 * (prose inside such a grid left out); returns how many. `article`: the page declares itself one.
 */
export function dropEdgeLinkLists(model: PageModel, core: number, article = false): number {
  const { nodes, parent, words, linkWords, prose, dropped } = model;
  if (words[core] === 0 || prose[core] < MIN_PROSE_SHARE * words[core]) return 0;
  const n = nodes.length;
  const end = subtreeEnds(parent, n);
  const own = ownValues(prose, parent, dropped, n);
  // Pre-order index of each element inside core, for the grid test (children are found by identity).
  const index = new Map<DomElement, number>();
  for (let i = core + 1; i < end[core]; i++) index.set(nodes[i] as DomElement, i);
  const childIndex = (c: DomElement) => index.get(c) ?? -1;
  const grid = new Uint8Array(n);
  for (let i = core + 1; i < end[core]; i++) {
    if (dropped[i]) continue;
    if (grid[parent[i]]) {
      grid[i] = 2;
      continue;
    }
    // Grids whose excerpts pass as prose would seem to extend the article; on an article, shorter cards at its
    // edges are other stories too (on a service or shop page they may be its own offers).
    if (own[i] > 0 || (prose[i] === 0 && !article)) continue;
    if (isTeaserGrid(model, i, childIndex)) grid[i] = 1;
  }
  let first = -1;
  let last = -1;
  let articleProse = 0;
  let gridWords = 0;
  for (let i = core; i < end[core]; i++) {
    if (grid[i] === 1) gridWords += words[i];
    if (dropped[i] || grid[i] || own[i] === 0) continue;
    if (first < 0) first = i;
    last = i;
    articleProse += own[i];
  }
  if (first < 0) return 0;
  // Grids that outweigh the prose around them are the page (a listing of stories), not teasers beside an article.
  if (articleProse < gridWords) grid.fill(0);
  let count = 0;
  for (let i = core + 1; i < end[core]; i++) {
    if (dropped[i] || !(end[i] <= first || i >= end[last])) continue;
    const el = nodes[i] as DomElement;
    if (grid[i] !== 1) {
      const items = LIST_TAGS.has(el.name) ? el.children.filter((c) => (c as DomElement).name === 'li').length : repeatedChildren(el);
      const maxWords = LIST_TAGS.has(el.name) ? MAX_ITEM_WORDS : MAX_CARD_WORDS;
      if (items < MIN_ITEMS || words[i] > items * maxWords || linkWords[i] < MIN_LINK_SHARE * words[i]) continue;
    }
    subtractFromAncestors(model, i);
    dropped[i] = 1;
    for (let j = i + 1; j < end[i]; j++) if (!dropped[j]) dropped[j] = 2;
    count++;
  }
  return count;
}
