import type { DomElement } from '../dom.ts';
import { subtreeEnds, type PageModel } from './page-model.ts';

// Siblings of one tag whose first class word is the same are items of one list: a thread's posts, a shop's cards.
// The first class word only: a thread's opening post carries more classes than its replies ("message
// threadAuthor"), and numbered ones ("post-4012") vary from post to post.
const FIRST_CLASS = /^\s*(\S*)/;

/** An element's shape: its tag and first class word, digits read as one mark ("post-4012" and "post-4013" alike). */
export function shapeOf(el: DomElement): string {
  return `${el.name} ${FIRST_CLASS.exec(el.attribs.class ?? '')![1].replace(/\d+/g, '#')}`;
}

// A thread: this many posts alike...
const MIN_POSTS = 3;
// ...when the others hold this much estimated content between them (replies, not a sidebar's boxes of links).
const MIN_OTHER_POSTS_GOOD = 50;

// A grid of cards (products, events, listings): this many alike, holding this many words between them. Cards are
// short pieces the content estimate undervalues (page-model.ts), so their words count, not their estimate.
const MIN_CARDS = 6;
const MIN_GRID_WORDS = 150;

/** The items inside a region (pre-order indices region+1 .. end-1): each one's group, and each group's figures. */
interface AlikeItems {
  end: number;
  keys: (string | undefined)[];
  counts: Map<string, number>;
  good: Map<string, number>;
  words: Map<string, number>;
  /** Each group's parent, by key. */
  parents: Map<string, number>;
}

function alikeItems(model: PageModel, region: number): AlikeItems {
  const { nodes, parent, dropped } = model;
  const items: AlikeItems = { end: region + 1, keys: [], counts: new Map(), good: new Map(), words: new Map(), parents: new Map() };
  const inside = new Uint8Array(nodes.length);
  inside[region] = 1;
  let i = region + 1;
  for (; i < nodes.length && inside[parent[i]]; i++) {
    inside[i] = 1;
    if (dropped[i] || model.words[i] === 0) continue;
    const el = nodes[i] as DomElement;
    const key = `${parent[i]} ${shapeOf(el)}`;
    items.keys[i] = key;
    items.counts.set(key, (items.counts.get(key) ?? 0) + 1);
    items.good.set(key, (items.good.get(key) ?? 0) + model.good[i]);
    items.words.set(key, (items.words.get(key) ?? 0) + model.words[i]);
    items.parents.set(key, parent[i]);
  }
  items.end = i;
  return items;
}

/** Marks the elements inside the region that are (or are inside) one of the posts of a thread. */
export function threadPosts(model: PageModel, region: number): Uint8Array {
  const { keys, counts, good, end } = alikeItems(model, region);
  const posts = new Uint8Array(model.nodes.length);
  // A post and everything inside it.
  for (let j = region + 1; j < end; j++) {
    const key = keys[j];
    if (posts[model.parent[j]] || (key !== undefined && counts.get(key)! >= MIN_POSTS && good.get(key)! - model.good[j] >= MIN_OTHER_POSTS_GOOD)) posts[j] = 1;
  }
  return posts;
}

/**
 * Where the grids of cards inside the region lie: the first and last grid element's index (-1 for none), and each
 * element's subtree end. A subtree is a run of indices, so an element holds every grid when it holds the first and
 * the last one.
 */
export interface CardGrids {
  first: number;
  lastGrid: number;
  end: Int32Array;
}

export const NO_GRIDS: CardGrids = { first: -1, lastGrid: -1, end: new Int32Array(0) };

export function cardGrids(model: PageModel, region: number): CardGrids {
  const { counts, words, parents } = alikeItems(model, region);
  let first = -1;
  let lastGrid = -1;
  for (const [key, count] of counts) {
    if (count < MIN_CARDS || words.get(key)! < MIN_GRID_WORDS) continue;
    const grid = parents.get(key)!;
    if (first < 0 || grid < first) first = grid;
    if (grid > lastGrid) lastGrid = grid;
  }
  if (first < 0) return NO_GRIDS;
  return { first, lastGrid, end: subtreeEnds(model.parent, model.nodes.length) };
}

/** Whether the element at index i leaves out a grid of cards (an element inside a grid leaves out the rest). */
export function leavesOutGrid(grids: CardGrids, i: number): boolean {
  return grids.first >= 0 && (grids.first < i || grids.lastGrid >= grids.end[i]);
}
