import { isElement, type DomDocument, type DomElement, type DomNode } from '../dom.ts';
import { markFurniture, NO_KIND, type PageKind } from './furniture.ts';
import { CollapsedLength, countTextFigures, type TextFigures } from '../text.ts';
import { declaredTextElement, hiddenElements } from './article-body.ts';
import { consentNotes } from './consent-notes.ts';

/**
 * Per-element figures of a cleaned page, in flat arrays indexed by pre-order position (index 0 is the document
 * root). Built in O(n): one pre-order walk that charges each text node to its nearest block, then reverse passes
 * that add every element's figures into its parent.
 */
export interface PageModel {
  nodes: (DomElement | DomDocument)[];
  parent: Int32Array;
  /** Words in the subtree, furniture excluded. */
  words: Float64Array;
  /** Words inside links in the subtree, furniture excluded. */
  linkWords: Float64Array;
  /** Estimated words of main content in the subtree: each block's words weighted by how content-like it is. */
  good: Float64Array;
  /** Words of prose blocks (long, few links) in the subtree. */
  prose: Float64Array;
  /** Elements judged page furniture (navigation, banners...) and left out of the figures above: 1 for the
   * furniture element itself, 2 for elements inside one. */
  dropped: Uint8Array;
  /** Words and link words of the whole page, furniture included. */
  totalWords: number;
  /** Words of the page outside site chrome and consent notes (furniture.ts, chromeWords). */
  wordsOutsideChrome: number;
  totalLinkWords: number;
  /** Every text node in document order: its data, the index of its parent and its figures for
   * CollapsedLength and its words (counted here, in the one pass that reads every character). */
  texts: { data: string[]; parent: Int32Array; inner: Int32Array; edges: Int32Array; words: Int32Array };
  /** collapse(textContent(root)).length */
  textLength: number;
}

// Elements that start a new block of text; everything else is inline and belongs to the nearest block above.
export const BLOCKS = new Set([
  'address', 'article', 'aside', 'blockquote', 'body', 'caption', 'center', 'dd', 'details', 'div', 'dl', 'dt',
  'fieldset', 'figcaption', 'figure', 'footer', 'form', 'h1', 'h2', 'h3', 'h4', 'h5', 'h6', 'header', 'hgroup',
  'html', 'li', 'main', 'menu', 'nav', 'ol', 'p', 'pre', 'section', 'summary', 'table', 'tbody', 'td', 'tfoot',
  'th', 'thead', 'tr', 'ul', 'legend',
]);

// A product's declared description shorter than this could match a card's blurb as well as the product's text.
const MIN_DESCRIPTION_WORDS = 30;

// A block this long with few links reads as prose.
const PROSE_WORDS = 20;

export const HEADINGS = new Set(['h1', 'h2', 'h3', 'h4', 'h5', 'h6']);

/**
 * productDescription: on one product's page, the description its structured data gives (page-hints.ts); the element
 * showing it is never furniture.
 */
export function buildPageModel(root: DomDocument, kind: PageKind = NO_KIND, productDescription: string | null = null): PageModel {
  const nodes: (DomElement | DomDocument)[] = [root];
  const parents: number[] = [-1];
  // How many list items each element sits in: an item inside another item is a branch of a tree of links.
  const itemDepth: number[] = [0];
  // Per block: its own (inline) text figures.
  const own = new Map<number, BlockText>();
  // Explicit stacks (parallel arrays, no per-node objects): pages can be thousands of levels deep and large.
  const stackNodes: DomNode[] = [];
  const stackParent: number[] = [];
  const stackBlock: number[] = [];
  const stackInLink: boolean[] = [];
  const pushChildren = (children: DomNode[], parent: number, block: number, inLink: boolean) => {
    for (let i = children.length - 1; i >= 0; i--) {
      stackNodes.push(children[i]);
      stackParent.push(parent);
      stackBlock.push(block);
      stackInLink.push(inLink);
    }
  };
  const data: string[] = [];
  // Typed columns, grown by doubling: a page has thousands of texts, and arrays of numbers take twice the memory.
  const columns = new TextColumns();
  const pageText = new CollapsedLength();
  pushChildren(root.children, 0, 0, false);
  while (stackNodes.length > 0) {
    const node = stackNodes.pop()!;
    const parent = stackParent.pop()!;
    const block = stackBlock.pop()!;
    const inLink = stackInLink.pop()!;
    if (node.type === 'text') {
      const { inner, edges, words } = countText(node.data, ownOf(own, block), inLink);
      data.push(node.data);
      columns.push(parent, inner, edges, words);
      pageText.add(inner, edges);
      continue;
    }
    if (!isElement(node)) continue;
    const index = nodes.length;
    nodes.push(node);
    parents.push(parent);
    itemDepth.push(itemDepth[parent] + (node.name === 'li' ? 1 : 0));
    const isLink = node.name === 'a' && !inLink;
    if (isLink) ownOf(own, block).links++;
    pushChildren(node.children, index, BLOCKS.has(node.name) ? index : block, inLink || isLink);
  }

  const n = nodes.length;
  const parent = Int32Array.from(parents);
  const ownWords = new Float64Array(n);
  const ownLinkWords = new Float64Array(n);
  const ownGood = new Float64Array(n);
  const ownProse = new Float64Array(n);
  for (const [index, text] of own) {
    if (text.words === 0) continue;
    ownWords[index] = text.words;
    ownLinkWords[index] = text.linkWords;
    ownGood[index] = text.words * blockQuality(nodes[index], text, itemDepth[index] >= 2);
    if (text.words >= PROSE_WORDS && text.linkWords < 0.3 * text.words) ownProse[index] = text.words;
  }
  const raw = subtreeSums(parent, [ownWords, ownLinkWords, ownGood, ownProse], null);
  const description = productDescription ? declaredTextElement({ nodes, words: raw[0] }, productDescription, MIN_DESCRIPTION_WORDS, hiddenElements({ nodes, parent })) : -1;
  const texts = { data, ...columns.views() };
  const consent = consentNotes({ nodes, parent, words: raw[0] }, texts);
  const trees = linkTrees(nodes, parent, itemDepth, raw[0], raw[1]);
  const { dropped, chromeWords } = markFurniture(nodes, parent, { words: raw[0], linkWords: raw[1], good: raw[2], prose: raw[3] }, kind, description, consent, trees);
  const [words, linkWords, good, prose] = subtreeSums(parent, [ownWords, ownLinkWords, ownGood, ownProse], dropped);
  return {
    nodes, parent, words, linkWords, good, prose, dropped,
    totalWords: raw[0][0],
    totalLinkWords: raw[1][0],
    wordsOutsideChrome: Math.max(0, raw[0][0] - chromeWords),
    texts,
    textLength: pageText.length,
  };
}

// A tree of links: a list, in no item itself, whose items hold lists of items (a menu with its submenus, an archive
// by year and month, a category tree), made of links, and longer than a list of resources closing an article.
const TREE_LINK_SHARE = 0.8;
const TREE_MIN_WORDS = 100;

/** 1 for each list that is a tree of links (above), indexed like nodes; null when there is none. */
function linkTrees(nodes: (DomElement | DomDocument)[], parent: Int32Array, itemDepth: number[], words: Float64Array, linkWords: Float64Array): Uint8Array | null {
  const n = nodes.length;
  // A branch is a list of two or more items inside an item: one author's link under each headline is no branch.
  const items = new Uint32Array(n);
  for (let i = 1; i < n; i++) if ((nodes[i] as DomElement).name === 'li') items[parent[i]]++;
  const branched = new Uint8Array(n);
  for (let i = n - 1; i > 0; i--) if (branched[i] || (itemDepth[i] >= 2 && items[parent[i]] >= 2)) branched[parent[i]] = 1;
  let trees: Uint8Array | null = null;
  for (let i = 1; i < n; i++) {
    const name = (nodes[i] as DomElement).name;
    if ((name !== 'ul' && name !== 'ol') || itemDepth[i] > 0 || !branched[i]) continue;
    if (words[i] < TREE_MIN_WORDS || linkWords[i] < TREE_LINK_SHARE * words[i]) continue;
    trees ??= new Uint8Array(n);
    trees[i] = 1;
  }
  return trees;
}

/** end[i]: the index after the last node of i's subtree (subtrees are contiguous in pre-order). */
export function subtreeEnds(parent: Int32Array, n: number): Int32Array {
  const size = new Int32Array(n).fill(1);
  for (let i = n - 1; i > 0; i--) size[parent[i]] += size[i];
  const end = new Int32Array(n);
  for (let i = 0; i < n; i++) end[i] = i + size[i];
  return end;
}

/** Adds each element's figures into its parent's (children come after parents in pre-order), skipping dropped. */
function subtreeSums(parent: Int32Array, own: Float64Array[], dropped: Uint8Array | null): Float64Array[] {
  const sums = own.map((values) => Float64Array.from(values));
  for (let i = parent.length - 1; i > 0; i--) {
    if (dropped !== null && dropped[i]) continue;
    for (const values of sums) values[parent[i]] += values[i];
  }
  return sums;
}

/** The per-text figures of PageModel['texts'], one column each. */
class TextColumns {
  private count = 0;
  private parent = new Int32Array(1024);
  private inner = new Int32Array(1024);
  private edges = new Int32Array(1024);
  private words = new Int32Array(1024);

  push(parent: number, inner: number, edges: number, words: number): void {
    if (this.count === this.parent.length) this.grow();
    this.parent[this.count] = parent;
    this.inner[this.count] = inner;
    this.edges[this.count] = edges;
    this.words[this.count] = words;
    this.count++;
  }

  views(): Omit<PageModel['texts'], 'data'> {
    const end = this.count;
    return { parent: this.parent.subarray(0, end), inner: this.inner.subarray(0, end), edges: this.edges.subarray(0, end), words: this.words.subarray(0, end) };
  }

  private grow(): void {
    const double = (column: Int32Array) => {
      const grown = new Int32Array(column.length * 2);
      grown.set(column);
      return grown;
    };
    this.parent = double(this.parent);
    this.inner = double(this.inner);
    this.edges = double(this.edges);
    this.words = double(this.words);
  }
}

interface BlockText {
  words: number;
  linkWords: number;
  links: number;
  punctuation: number;
}

function ownOf(own: Map<number, BlockText>, block: number): BlockText {
  let text = own.get(block);
  if (text === undefined) {
    text = { words: 0, linkWords: 0, links: 0, punctuation: 0 };
    own.set(block, text);
  }
  return text;
}

function countText(data: string, text: BlockText, inLink: boolean): TextFigures {
  const figures = countTextFigures(data);
  const { words, punctuation } = figures;
  if (words === 0) return figures;
  text.words += words;
  if (inLink) text.linkWords += words;
  text.punctuation += punctuation;
  return figures;
}

/** How likely a block's own text is main content, 0..1, from its length, links and punctuation. */
function blockQuality(node: DomElement | DomDocument, text: BlockText, branch = false): number {
  const { words } = text;
  const linkDensity = text.linkWords / words;
  const heading = node.type !== 'root' && HEADINGS.has(node.name);
  if (linkDensity > 0.5) {
    const wordsPerLink = text.linkWords / Math.max(1, text.links);
    if (heading) return 0.5;
    // A link in an item of an item is a branch of a menu, an archive or a table of contents, however long its words.
    if (branch) return 0.1;
    return wordsPerLink >= 6 ? 0.6 : wordsPerLink >= 3 ? 0.3 : 0.1;
  }
  if (heading) return 0.8;
  let quality = words >= 25 ? 1 : words >= 10 ? 0.85 : words >= 4 ? 0.6 : 0.4;
  if (text.punctuation === 0 && words < 10) quality *= 0.8;
  return quality * (1 - linkDensity * 0.8);
}
