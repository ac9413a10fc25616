import type { DomElement } from '../dom.ts';
import { isInside } from './duplicate-blocks.ts';
import { subtreeEnds, type PageModel } from './page-model.ts';
import { ownValues, subtractFromAncestors } from './sections.ts';

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
