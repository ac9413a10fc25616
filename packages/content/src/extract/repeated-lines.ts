import type { DomElement } from '../dom.ts';
import { isInside } from './duplicate-blocks.ts';
import { BLOCKS, type PageModel } from './page-model.ts';
import { collapse, CollapsedLength } from '../text.ts';

// The same short text twice in a row: a card's title as a hidden link over its image and again as its heading, an
// address above the same address as a link, a label rendered once for small screens and once for large ones. A
// reader sees it once. A line is the text of one block (or of one link standing alone in it); a line that repeats
// one of the few lines just before it goes, with the element holding only it.
const WINDOW = 3;
// One-word repeats ("Reply", a price on every variant) are often real.
const MIN_WORDS = 2;
// The two copies share a small container (one card, one address block): the same label on every card of a grid
// ("Free shipping", "Get started") is one per card, not a repeat.
const MAX_SHARED_WORDS = 40;
// Repeats inside these are the content itself (code, table cells, form options of a listing).
const KEEP_INSIDE = new Set(['pre', 'code', 'table', 'textarea']);


interface Line {
  /** The line's text as the page has it. */
  text: string;
  /** That text, whitespace collapsed ("1) one" and "1. one" are two lines): made when first compared. */
  key: string | null;
  /** The key's length, counted from the model's per-text figures: lines of two lengths are never compared. */
  length: number;
  words: number;
  /** The element holding this line's text and nothing else, or -1. */
  holder: number;
}

/** Marks (dropped = 1, inside 2) the elements inside nodes[core] that only repeat a line just before them. */
export function markRepeatedLines(model: PageModel, core: number): number {
  const { nodes, parent, words, dropped, texts } = model;
  const n = nodes.length;
  const inside = new Uint8Array(n);
  const keep = new Uint8Array(n);
  inside[core] = 1;
  let end = core + 1;
  for (; end < n && inside[parent[end]]; end++) {
    inside[end] = 1;
    keep[end] = keep[parent[end]] || (KEEP_INSIDE.has((nodes[end] as DomElement).name) ? 1 : 0);
  }
  // Each text node's line: its nearest block, or the link it sits in when that link is all its block's text.
  const lines: Line[] = [];
  let current = -1;
  let count = 0;
  let text = '';
  let length = new CollapsedLength();
  const flush = () => {
    if (current >= 0 && count > 0) lines.push({ text, key: null, length: length.length, words: count, holder: holderOf(model, current, count, core) });
    count = 0;
    text = '';
    length = new CollapsedLength();
  };
  for (let t = 0; t < texts.data.length; t++) {
    const p = texts.parent[t];
    if (p < core || p >= end || dropped[p] || keep[p]) continue;
    // The page model's count, so that a line's words match its elements' figures.
    const found = texts.words[t];
    if (found === 0) continue;
    let block = p;
    while (block > core && !BLOCKS.has((nodes[block] as DomElement).name) && words[parent[block]] <= found) block = parent[block];
    if (block !== current) {
      flush();
      current = block;
    }
    count += found;
    text += texts.data[t];
    length.add(texts.inner[t], texts.edges[t]);
  }
  flush();
  let marked = 0;
  for (let i = 1; i < lines.length; i++) {
    const { holder } = lines[i];
    if (holder < 0 || dropped[holder] || lines[i].words < MIN_WORDS) continue;
    let repeat = false;
    for (let k = 1; k <= WINDOW && i - k >= 0; k++) {
      const before = lines[i - k];
      // Keys are built only for lines of the same length (a regex over every line was 7% of a content thread).
      if (before.holder >= 0 && before.length === lines[i].length && keyOf(before) === keyOf(lines[i]) && words[commonAncestor(parent, before.holder, holder)] <= MAX_SHARED_WORDS + 2 * words[holder]) repeat = true;
    }
    if (!repeat) continue;
    dropped[holder] = 1;
    for (let j = holder + 1; j < end && isInside(parent, j, holder); j++) if (!dropped[j]) dropped[j] = 2;
    marked++;
  }
  return marked;
}

function keyOf(line: Line): string {
  line.key ??= collapse(line.text);
  return line.key;
}

/** The largest element around nodes[start] whose words are this line's only (never core itself), or -1. */
function holderOf(model: PageModel, start: number, lineWords: number, core: number): number {
  const { parent, words } = model;
  if (words[start] !== lineWords) return -1;
  let holder = start;
  while (parent[holder] > core && words[parent[holder]] === lineWords) holder = parent[holder];
  return holder;
}

function commonAncestor(parent: Int32Array, a: number, b: number): number {
  // Ancestors have smaller pre-order indices: step the later one up until they meet.
  while (a !== b) {
    if (a > b) a = parent[a];
    else b = parent[b];
  }
  return a;
}
