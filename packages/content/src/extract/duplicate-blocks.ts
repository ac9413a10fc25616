import { textContent, type DomElement } from '../dom.ts';
import type { PageModel } from './page-model.ts';
import { collapse } from '../text.ts';

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
  const longEnough = mayReach(model, core, end, MIN_CHARS);
  const groups = new Map<string, number[]>();
  for (let i = core + 1; i < end; i++) {
    if (dropped[i] || keep[i] || hasInnerBlock[i] || !longEnough[i] || !TEXT_BLOCKS.has((nodes[i] as DomElement).name)) continue;
    const shown = collapse(textContent(nodes[i] as DomElement));
    if (shown.length < MIN_CHARS) continue;
    const text = shown.toLowerCase();
    const group = groups.get(text);
    if (group) group.push(i);
    else groups.set(text, [i]);
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
 * Per element of core's subtree (indices core..end-1), whether its collapsed text may reach `chars`: an upper bound
 * from the model's per-text figures (each text's collapsed length plus a space either side), so that the many short
 * blocks of a page are never turned into strings.
 */
function mayReach(model: PageModel, core: number, end: number, chars: number): Uint8Array {
  const { parent, texts } = model;
  const bound = new Float64Array(end - core);
  for (let t = 0; t < texts.parent.length; t++) {
    const p = texts.parent[t];
    if (p >= core && p < end) bound[p - core] += texts.inner[t] + 2;
  }
  for (let i = end - 1; i > core; i--) bound[parent[i] - core] += bound[i - core];
  const reach = new Uint8Array(model.nodes.length);
  for (let i = core; i < end; i++) reach[i] = bound[i - core] >= chars ? 1 : 0;
  return reach;
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
