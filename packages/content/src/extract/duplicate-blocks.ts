import { textContent, type DomElement } from '../dom.ts';
import type { PageModel } from './page-model.ts';
import { collapse, CollapsedLength } from '../text.ts';

// Blocks whose text is repeated: the same paragraph, heading or item twice in the chosen content (a hidden
// schema.org copy of the article body, a teaser repeating the intro, a summary box) is emitted once.
const TEXT_BLOCKS = new Set(['p', 'h1', 'h2', 'h3', 'h4', 'h5', 'h6', 'li', 'blockquote', 'dd', 'dt', 'figcaption', 'div', 'section', 'article']);
const LISTED = new Set(['h1', 'h2', 'h3', 'h4', 'h5', 'h6', 'li', 'dt']);
// Shorter repeats are ordinary (a "Reply" link, a date, a user name on every post): only text this long counts.
const MIN_CHARS = 60;
// Repeats inside these are the content itself (code, table cells, forms of a listing).
const KEEP_INSIDE = new Set(['pre', 'code', 'table']);

/**
 * Marks (dropped = 1, descendants 2) every text block inside nodes[core] whose text repeats one seen before,
 * keeping a visible copy over a hidden one. A text block is a block element whose text is not already split into
 * smaller blocks (a leaf of the block structure). Returns how many were marked.
 */
export function markDuplicateBlocks(model: PageModel, core: number): number {
  const { nodes, parent, dropped } = model;
  const n = nodes.length;
  const end = subtreeEnd(parent, core, n);
  // A block is a leaf when no block element sits inside it.
  const hasInnerBlock = new Uint8Array(n);
  const hidden = new Uint8Array(n);
  const keep = new Uint8Array(n);
  for (let i = core + 1; i < end; i++) {
    const el = nodes[i] as DomElement;
    const p = parent[i];
    hidden[i] = hidden[p] || (isHidden(el.attribs) ? 1 : 0);
    keep[i] = keep[p] || (KEEP_INSIDE.has(el.name) ? 1 : 0);
  }
  for (let i = end - 1; i > core; i--) {
    if (TEXT_BLOCKS.has((nodes[i] as DomElement).name) || hasInnerBlock[i]) hasInnerBlock[parent[i]] = 1;
  }
  const candidate = new Uint8Array(n);
  for (let i = core + 1; i < end; i++) {
    if (!dropped[i] && !keep[i] && !hasInnerBlock[i] && TEXT_BLOCKS.has((nodes[i] as DomElement).name)) candidate[i] = 1;
  }
  // Only blocks whose shown text has the length of another's can repeat it (lower-casing keeps lengths, but for
  // U+0130): the strings of all others are never built.
  // Of those, only blocks whose text also hashes alike: the strings are built for likely repeats alone (a page of
  // same-length paragraphs built every one, 5% of a crawl's CPU).
  const groups = new Map<string, number[]>();
  for (const sameHash of alikeBlocks(model, core, end, candidate).values()) {
    if (sameHash.length < 2) continue;
    for (const i of sameHash) {
      const text = collapse(textContent(nodes[i] as DomElement)).toLowerCase();
      const group = groups.get(text);
      if (group) group.push(i);
      else groups.set(text, [i]);
    }
  }
  let marked = 0;
  for (const group of groups.values()) {
    if (group.length < 2) continue;
    const kept = group.find((i) => !hidden[i]) ?? group[0];
    for (const i of group) {
      if (i === kept) continue;
      // Visible repeats of a heading or an item are often distinct things that read alike (event cards, steps).
      if (!hidden[i] && LISTED.has((nodes[i] as DomElement).name)) continue;
      // So are visible paragraphs of two items of a list (two events with the same blurb).
      if (!hidden[i] && !hidden[kept] && inDistinctItems(model, i, kept, core)) continue;
      dropped[i] = 1;
      for (let j = i + 1; j < end && isInside(parent, j, i); j++) dropped[j] = 2;
      marked++;
    }
  }
  return marked;
}

/**
 * The candidates of core's subtree (indices core..end-1) by the length of their collapsed text, MIN_CHARS or more,
 * each list in document order. Counted from the model's per-text figures: a candidate holds no other, and its texts
 * are a run of the page's texts in document order.
 */
function shownLengths(model: PageModel, core: number, end: number, owner: Int32Array): Map<number, number[]> {
  const { texts } = model;
  const byLength = new Map<number, number[]>();
  const close = (block: number, length: number) => {
    if (block < 0 || length < MIN_CHARS) return;
    const same = byLength.get(length);
    if (same) same.push(block);
    else byLength.set(length, [block]);
  };
  let block = -1;
  let length = new CollapsedLength();
  for (let t = 0; t < texts.parent.length; t++) {
    const p = texts.parent[t];
    const owned = p > core && p < end ? owner[p - core] : -1;
    if (owned < 0) continue;
    if (owned !== block) {
      close(block, length.length);
      block = owned;
      length = new CollapsedLength();
    }
    length.add(texts.inner[t], texts.edges[t]);
  }
  close(block, length.length);
  return byLength;
}

/**
 * The candidates that may share their text with another, grouped by shown length and a hash of the first
 * PREFIX_UNITS characters of their text other than whitespace, lower-cased (so equal collapsed, lower-cased texts
 * always land together; texts that differ almost always differ early). A block with a character whose lower case is
 * not one UTF-16 unit (or a surrogate) hashes as UNHASHED, together with every other such block of its length:
 * those are compared by their strings, as before.
 */
function alikeBlocks(model: PageModel, core: number, end: number, candidate: Uint8Array): Map<string, number[]> {
  const { parent, texts } = model;
  // The candidate each node of core's subtree sits in (-1: none), by index from core.
  const owner = new Int32Array(end - core).fill(-1);
  for (let i = core + 1; i < end; i++) owner[i - core] = candidate[i] ? i : owner[parent[i] - core];
  const sameLength = shownLengths(model, core, end, owner);
  const lengthOf = new Map<number, number>();
  for (const [length, blocks] of sameLength) if (blocks.length > 1) for (const b of blocks) lengthOf.set(b, length);
  const out = new Map<string, number[]>();
  if (lengthOf.size === 0) return out;
  const close = (b: number, h: number) => {
    const key = `${lengthOf.get(b)}:${h}`;
    const group = out.get(key);
    if (group) group.push(b);
    else out.set(key, [b]);
  };
  // Texts of one block are a run in document order (see shownLengths): each feeds its block's running hash.
  const state = { hash: FNV_OFFSET, units: 0 };
  let block = -1;
  for (let t = 0; t < texts.parent.length; t++) {
    const p = texts.parent[t];
    const b = p > core && p < end ? owner[p - core] : -1;
    if (b < 0 || !lengthOf.has(b)) continue;
    if (b !== block) {
      if (block >= 0) close(block, state.hash);
      block = b;
      state.hash = FNV_OFFSET;
      state.units = 0;
    }
    if (state.hash !== UNHASHED && state.units < PREFIX_UNITS) hashText(texts.data[t], state);
  }
  if (block >= 0) close(block, state.hash);
  return out;
}

const PREFIX_UNITS = 64;
const FNV_OFFSET = 0x811c9dc5 | 0;
const UNHASHED = 0x7fffffff + 1;
const SPACE_UNIT = -3;
const lowerUnit = new Int32Array(65536).fill(-2);

/** FNV-1a over the text's non-whitespace UTF-16 units, lower-cased, until the state holds PREFIX_UNITS of them. */
function hashText(text: string, state: { hash: number; units: number }): void {
  let h = state.hash;
  let n = state.units;
  for (let k = 0; k < text.length && n < PREFIX_UNITS; k++) {
    const c = text.charCodeAt(k);
    if (c <= 32) continue;
    let lower: number;
    if (c < 128) lower = c >= 65 && c <= 90 ? c + 32 : c;
    else {
      lower = lowerUnit[c];
      if (lower === -2) lower = lowerUnit[c] = lowerOf(c);
      if (lower === -1) {
        state.hash = UNHASHED;
        return;
      }
      if (lower === SPACE_UNIT) continue;
    }
    h = Math.imul(h ^ lower, 0x01000193);
    n++;
  }
  state.hash = h;
  state.units = n;
}

/** A UTF-16 unit's lower case as one unit, SPACE_UNIT for whitespace, -1 when it has none of one unit. */
function lowerOf(c: number): number {
  if (c >= 0xd800 && c <= 0xdfff) return -1;
  const ch = String.fromCharCode(c);
  if (/\s/.test(ch)) return SPACE_UNIT;
  const lower = ch.toLowerCase();
  return lower.length === 1 ? lower.charCodeAt(0) : -1;
}

// Elements that hold one item of a listing. (Not <article>: a forum reply quoting an earlier post repeats it.)
const ITEMS = new Set(['li']);

/** Whether nodes a and b sit in two different list items inside the core. */
function inDistinctItems(model: PageModel, a: number, b: number, core: number): boolean {
  const itemA = itemOf(model, a, core);
  const itemB = itemOf(model, b, core);
  return itemA >= 0 && itemB >= 0 && itemA !== itemB;
}

function itemOf(model: PageModel, i: number, core: number): number {
  for (let p = model.parent[i]; p > core; p = model.parent[p]) if (ITEMS.has((model.nodes[p] as DomElement).name)) return p;
  return -1;
}

function subtreeEnd(parent: Int32Array, root: number, n: number): number {
  let end = root + 1;
  while (end < n && isInside(parent, end, root)) end++;
  return end;
}

/** Whether node j (after i in pre-order) is inside i: in pre-order, i's subtree is contiguous. */
export function isInside(parent: Int32Array, j: number, i: number): boolean {
  for (let p = parent[j]; p >= i; p = parent[p]) if (p === i) return true;
  return false;
}

const HIDDEN_STYLE = /(^|;)\s*(display\s*:\s*none|visibility\s*:\s*hidden)\s*(!important\s*)?(;|$)/i;

/** Hidden by the page's own markup: the hidden attribute, aria-hidden="true", or an inline display:none. */
export function isHidden(attribs: Record<string, string>): boolean {
  if (attribs.hidden !== undefined) return true;
  if (attribs['aria-hidden']?.trim().toLowerCase() === 'true') return true;
  return attribs.style !== undefined && HIDDEN_STYLE.test(attribs.style);
}
