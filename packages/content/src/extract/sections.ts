import { textContent, type DomElement } from '../dom.ts';
import { isInside } from './duplicate-blocks.ts';
import type { PageHints } from './page-hints.ts';
import { HEADINGS, subtreeEnds, type PageModel } from './page-model.ts';
import { shapeOf } from './alike-items.ts';
import { collapse } from '../text.ts';
import { sectionKind, type SectionKind } from './section-headings.ts';

// Sections that are not the page's content (their headings: section-headings.ts), dropped with what they head.

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
  // What follows a page's title (h1) in its bar is the page itself.
  const bars = level > 1;
  while (parent[unit] > 0 && !isRoot(nodes[parent[unit]]) && (words[parent[unit]] <= words[unit] || (bars && isHeadBar(model, end, parent[unit], unit)))) {
    unit = parent[unit];
  }
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

// A section's head bar: its title first, then a few words of controls ("36 Comments · Oldest · Newest", "Related
// · See all"). The section is what follows the bar, not what follows the title inside it.
const HEAD_BAR_WORDS = 2 * MAX_TITLE_WORDS;

/** Whether bar (unit's parent) holds unit first, then only a few words and no prose. */
function isHeadBar(model: PageModel, end: Int32Array, bar: number, unit: number): boolean {
  const { words, prose } = model;
  if (words[bar] > HEAD_BAR_WORDS || prose[bar] > 0) return false;
  for (let child = bar + 1; child < unit; child = end[child]) if (words[child] > 0) return false;
  return true;
}

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

/** Subtree sums (furniture left out) taken back to each node's own value: the sum less its kept children's. */
export function ownValues(sums: Float64Array, parent: Int32Array, dropped: Uint8Array, n: number): Float64Array {
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

export function subtractFromAncestors(model: PageModel, i: number): void {
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
