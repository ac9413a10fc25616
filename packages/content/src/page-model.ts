import { furnitureOf, isContentLandmark, type FurnitureMark } from './boilerplate.ts';
import { isElement, type DomDocument, type DomElement, type DomNode } from './dom.ts';

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
  /** The element's own (inline) text only, for blocks. */
  ownWords: Float64Array;
  ownLinkWords: Float64Array;
  ownGood: Float64Array;
  landmark: Uint8Array;
}

// Elements that start a new block of text; everything else is inline and belongs to the nearest block above.
export const BLOCKS = new Set([
  'address', 'article', 'aside', 'blockquote', 'body', 'caption', 'center', 'dd', 'details', 'div', 'dl', 'dt',
  'fieldset', 'figcaption', 'figure', 'footer', 'form', 'h1', 'h2', 'h3', 'h4', 'h5', 'h6', 'header', 'hgroup',
  'html', 'li', 'main', 'menu', 'nav', 'ol', 'p', 'pre', 'section', 'summary', 'table', 'tbody', 'td', 'tfoot',
  'th', 'thead', 'tr', 'ul', 'legend',
]);

const LANDMARK_SHARE = 0.25;

// A block this long with few links reads as prose.
const PROSE_WORDS = 20;

const HEADINGS = new Set(['h1', 'h2', 'h3', 'h4', 'h5', 'h6']);

const WORD = /[\p{L}\p{N}_\p{M}]+/gu;
const SENTENCE_PUNCTUATION = /[.,;:!?。、，]/g;

export function buildPageModel(root: DomDocument): PageModel {
  const nodes: (DomElement | DomDocument)[] = [root];
  const parents: number[] = [-1];
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
  pushChildren(root.children, 0, 0, false);
  while (stackNodes.length > 0) {
    const node = stackNodes.pop()!;
    const parent = stackParent.pop()!;
    const block = stackBlock.pop()!;
    const inLink = stackInLink.pop()!;
    if (node.type === 'text') {
      countText(node.data, ownOf(own, block), inLink);
      continue;
    }
    if (!isElement(node)) continue;
    const index = nodes.length;
    nodes.push(node);
    parents.push(parent);
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
    ownGood[index] = text.words * blockQuality(nodes[index], text);
    if (text.words >= PROSE_WORDS && text.linkWords < 0.3 * text.words) ownProse[index] = text.words;
  }
  const landmark = new Uint8Array(n);
  for (let i = 1; i < n; i++) if (isContentLandmark(nodes[i] as DomElement)) landmark[i] = 1;

  const raw = subtreeSums(parent, [ownWords, ownLinkWords, ownGood], null);
  const dropped = markFurniture(nodes, parent, raw[0], raw[1], raw[2], landmark);
  const [words, linkWords, good, prose] = subtreeSums(parent, [ownWords, ownLinkWords, ownGood, ownProse], dropped);
  return { nodes, parent, words, linkWords, good, prose, dropped, ownWords, ownLinkWords, ownGood, landmark };
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

function countText(data: string, text: BlockText, inLink: boolean): void {
  const words = data.match(WORD)?.length ?? 0;
  if (words === 0) return;
  text.words += words;
  if (inLink) text.linkWords += words;
  text.punctuation += data.match(SENTENCE_PUNCTUATION)?.length ?? 0;
}

/**
 * Drops furniture unless it is too big to be furniture: a marked element holding most of the page's words is
 * more likely a badly named wrapper than a sidebar, unless it is mostly links.
 */
function markFurniture(
  nodes: (DomElement | DomDocument)[],
  parent: Int32Array,
  rawWords: Float64Array,
  rawLinkWords: Float64Array,
  rawGood: Float64Array,
  landmark: Uint8Array,
): Uint8Array {
  const n = nodes.length;
  const totalGood = Math.max(1, rawGood[0]);
  // A marked element wrapping the page's main landmark (a <main> inside a badly named wrapper) is not furniture;
  // small <article> cards in a "related" rail do not count.
  const holdsLandmark = new Uint8Array(n);
  for (let i = n - 1; i > 0; i--) {
    if (holdsLandmark[i] || (landmark[i] && rawGood[i] >= LANDMARK_SHARE * totalGood)) holdsLandmark[parent[i]] = 1;
  }
  const marks: (FurnitureMark | null)[] = new Array(n).fill(null);
  // Elements marked alike (every post of a thread classed "comment") are judged together: their share of the
  // page decides, not each one's.
  const groupGood = new Map<string, number>();
  for (let i = 1; i < n; i++) {
    const mark = furnitureOf(nodes[i] as DomElement);
    if (mark === null) continue;
    marks[i] = mark;
    const key = groupKey(nodes[i] as DomElement, i);
    groupGood.set(key, (groupGood.get(key) ?? 0) + rawGood[i]);
  }
  const isFurniture = (i: number): boolean => {
    const share = Math.max(rawGood[i], groupGood.get(groupKey(nodes[i] as DomElement, i)) ?? 0) / totalGood;
    const linkDensity = rawWords[i] > 0 ? rawLinkWords[i] / rawWords[i] : 1;
    return share < (marks[i]!.kind === 'structure' ? 0.5 : 0.3) || linkDensity > 0.6;
  };
  // A class word on a kept element names content inside it too: the "comment-author" and "comment-body" parts of
  // a thread's posts (kept as a group) stay, while a "comment" section elsewhere on the page still goes.
  const keptWords: (ReadonlySet<string> | null)[] = new Array(n).fill(null);
  const dropped = new Uint8Array(n);
  for (let i = 1; i < n; i++) {
    if (dropped[parent[i]]) {
      dropped[i] = 2; // inside a dropped element: gone with it
      continue;
    }
    const inherited = keptWords[parent[i]];
    keptWords[i] = inherited;
    const mark = marks[i];
    if (mark === null || holdsLandmark[i]) continue;
    if (mark.kind === 'name' && inherited !== null && mark.words.every((word) => inherited.has(word))) continue;
    if (isFurniture(i)) dropped[i] = 1;
    else if (mark.kind === 'name') keptWords[i] = new Set([...(inherited ?? []), ...mark.words]);
  }
  return dropped;
}

/** Same tag, class and id pattern (digits ignored: comment-17, comment-18): one group. Else a group of one. */
function groupKey(el: DomElement, index: number): string {
  const { class: className, id } = el.attribs;
  const idPattern = id !== undefined && /\d/.test(id) ? id.replace(/\d+/g, '#') : '';
  return className || idPattern ? `${el.name} ${className ?? ''} ${idPattern}` : `#${index}`;
}

/** How likely a block's own text is main content, 0..1, from its length, links and punctuation. */
function blockQuality(node: DomElement | DomDocument, text: BlockText): number {
  const { words } = text;
  const linkDensity = text.linkWords / words;
  const heading = node.type !== 'root' && HEADINGS.has(node.name);
  if (linkDensity > 0.5) {
    const wordsPerLink = text.linkWords / Math.max(1, text.links);
    if (heading) return 0.5;
    return wordsPerLink >= 6 ? 0.6 : wordsPerLink >= 3 ? 0.3 : 0.1;
  }
  if (heading) return 0.8;
  let quality = words >= 25 ? 1 : words >= 10 ? 0.85 : words >= 4 ? 0.6 : 0.4;
  if (text.punctuation === 0 && words < 10) quality *= 0.8;
  return quality * (1 - linkDensity * 0.8);
}
