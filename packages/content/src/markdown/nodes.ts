// What the Markdown rules need to know about the nodes around the one they convert: the kind of character that
// will sit at the edge of a node's Markdown (emphasis delimiters only work next to some), whether a line break
// has anything after it on its line, and which emphasis an inline element is already inside. The rules see
// turndown's nodes (our Markdown DOM, or domino's in the reference path), so only DOM properties are read.
// Every walk is bounded by the inline nesting around one node, and results that a run of siblings would
// recompute are memoized, so the work per page stays linear.
import type TurndownService from 'turndown';
import { isBlockName } from './whitespace.ts';

type Node = TurndownService.Node;

const ELEMENT_NODE = 1;
const TEXT_NODE = 3;

// Character classes at a node's edge, as CommonMark's flanking rules see them.
export const NOTHING = 0; // the node writes nothing: look past it
export const SPACE = 1; // whitespace
export const PUNCT = 2; // punctuation or a symbol (all Markdown markup characters are)
export const WORD = 3; // anything else
export const AMBIGUOUS = 4; // characters renderers may class differently (astral characters, U+FEFF...)
export const BREAK = 5; // a line break
export const BLOCK = 6; // a block boundary or the start or end of the text
export const DELIMITER = 7; // another element's emphasis delimiter

// Emphasis kinds, as bits (an element may be inside several).
export const EMPHASIS = 1;
export const STRONG = 2;
export const STRIKE = 4;
const KINDS: Record<string, number> = { EM: EMPHASIS, I: EMPHASIS, STRONG, B: STRONG, DEL: STRIKE, S: STRIKE, STRIKE };

export function kindOf(node: Node): number {
  return node.nodeType === ELEMENT_NODE ? (KINDS[node.nodeName] ?? 0) : 0;
}

/** A block element, or the root turndown converts. */
export function isBlockNode(node: Node): boolean {
  return node.nodeType !== ELEMENT_NODE || isBlockName(node.nodeName) || node.nodeName === 'X-TURNDOWN' || node.parentNode === null;
}

const MD_WHITESPACE = /^[\t\n\v\f\r \u00a0\u1680\u2000-\u200a\u202f\u205f\u3000]$/;
const JS_WHITESPACE = /^\s$/;
const PUNCTUATION = /^[\p{P}\p{S}]$/u;

/** Class of one character (a UTF-16 unit; surrogates are ambiguous: renderers read them differently). */
export function charClass(ch: string): number {
  const code = ch.charCodeAt(0);
  if (code >= 0xd800 && code <= 0xdfff) return AMBIGUOUS;
  if (MD_WHITESPACE.test(ch)) return SPACE;
  if (JS_WHITESPACE.test(ch)) return AMBIGUOUS; // whitespace to turndown, not to CommonMark
  return PUNCTUATION.test(ch) ? PUNCT : WORD;
}

/** Class of the first or last character of a string, NOTHING when empty. */
export function textEdge(text: string, atEnd: boolean): number {
  if (text === '') return NOTHING;
  return charClass(text[atEnd ? text.length - 1 : 0]);
}

/** Elements that always write markup of their own at both edges when they write anything. */
const MARKUP = new Set(['SUP', 'SUB']);

/** The edge class of a <code>'s Markdown: set by the inline code rule, which decides how code is written. */
export const codeEdges = { of: (_code: Node, _atEnd: boolean): number => PUNCT };

/**
 * The class of the character at the start (or end) of a node's Markdown, judged from the tree. Whether an
 * emphasis element writes its delimiters is not known yet: inside the content a delimiter is to enclose
 * (inner) it counts as PUNCT, beside it as WORD, the classes that let the fewest delimiters through.
 */
export function edgeClass(node: Node, atEnd: boolean, inner = false): number {
  if (node.nodeType === TEXT_NODE) return textEdge(node.nodeValue ?? '', atEnd);
  if (node.nodeType !== ELEMENT_NODE) return NOTHING;
  const name = node.nodeName;
  if (name === 'BR') return BREAK;
  if (isBlockName(name)) return BLOCK;
  if (name === 'IMG') return imageEdge(node, atEnd);
  if (writesNothing(node)) return NOTHING;
  // Without text, an element writes its images and breaks only (no delimiters, no markup of its own).
  if ((node.textContent ?? '').trim() === '' && name !== 'A') return innerEdge(node, atEnd, 0, inner).edge;
  if (MARKUP.has(name) || (name === 'A' && linksSomewhere(node))) return PUNCT;
  if (name === 'CODE') return codeEdges.of(node, atEnd);
  if (KINDS[name] !== undefined) return inner ? PUNCT : WORD;
  return innerEdge(node, atEnd, 0, inner).edge;
}

function imageEdge(img: Node, atEnd: boolean): number {
  const src = img.getAttribute?.('src') ?? '';
  if (src === '') return NOTHING;
  if (/^\s*data:/i.test(src)) return textEdge(img.getAttribute?.('alt') ?? '', atEnd); // written as its alt text
  return PUNCT;
}

export function linksSomewhere(node: Node): boolean {
  return (node.getAttribute?.('href') ?? '') !== '';
}

/** Whether an inline element writes nothing at all (turndown drops blank elements; we drop empty links). */
export function writesNothing(node: Node): boolean {
  if ((node.textContent ?? '').trim() !== '') return false;
  const find = (node as { getElementsByTagName?: (name: string) => ArrayLike<unknown> }).getElementsByTagName;
  if (find === undefined) return true;
  return find.call(node, 'img').length === 0 && find.call(node, 'br').length === 0;
}

export interface InnerEdge {
  edge: number;
  /** A line break or whitespace was passed first (turndown and the emphasis rule move those outside). */
  passed: number;
}

/**
 * The class of the first (or last) character inside an element's Markdown. With skip = emphasis kinds, leading
 * whitespace and line breaks are passed (reported in passed), and children of the given kinds are looked
 * through: their delimiters join the parent's into one run.
 */
export function innerEdge(node: Node, atEnd: boolean, skip: number, inner = true): InnerEdge {
  let passed = NOTHING;
  for (let child = atEnd ? node.lastChild : node.firstChild; child !== null; child = atEnd ? child.previousSibling : child.nextSibling) {
    let edge: number;
    if (skip !== 0 && child.nodeType === TEXT_NODE) {
      const text = child.nodeValue ?? '';
      const trimmed = atEnd ? text.trimEnd() : text.trimStart();
      if (trimmed.length !== text.length && passed === NOTHING) passed = textEdge(atEnd ? text.slice(trimmed.length) : text.slice(0, text.length - trimmed.length), !atEnd);
      edge = textEdge(trimmed, atEnd);
    } else if (skip !== 0 && child.nodeType === ELEMENT_NODE && child.nodeName === 'BR') {
      if (passed === NOTHING) passed = BREAK;
      continue;
    } else if (skip !== 0 && kindOf(child) & skip) {
      if (writesNothing(child)) continue;
      const nested = innerEdge(child, atEnd, skip, inner);
      if (passed === NOTHING) passed = nested.passed;
      edge = nested.edge;
    } else {
      edge = edgeClass(child, atEnd, inner);
    }
    if (edge !== NOTHING) return { edge, passed };
  }
  return { edge: NOTHING, passed };
}

/**
 * The class of the character just outside a node's Markdown, before it (after = false) or after it. Parents
 * that write markup at that edge answer PUNCT; ask(element, atEnd) says whether an emphasis element writes
 * its delimiter there; parents of the kinds in merge are looked past (their delimiters join the node's run).
 */
export function outerEdge(node: Node, after: boolean, merge: number, ask: (parent: Node, atEnd: boolean) => boolean): number {
  let current = node;
  for (;;) {
    for (let s = after ? current.nextSibling : current.previousSibling; s !== null; s = after ? s.nextSibling : s.previousSibling) {
      // An emphasis sibling just before that closes with its delimiter: the two delimiter runs would touch.
      // (Looking back only: that sibling's decision is already made, and does not depend on this one.)
      if (!after && kindOf(s) !== 0 && !writesNothing(s) && ask(s, true)) return DELIMITER;
      const edge = edgeClass(s, !after);
      if (edge !== NOTHING) return edge;
    }
    const parent = current.parentNode;
    if (parent === null || isBlockNode(parent)) return BLOCK;
    const kind = kindOf(parent);
    if (MARKUP.has(parent.nodeName) || parent.nodeName === 'CODE' || (parent.nodeName === 'A' && linksSomewhere(parent))) return PUNCT;
    if (kind !== 0 && !(kind & merge) && ask(parent, after)) return PUNCT;
    current = parent;
  }
}

// Emphasis kinds of each inline element's inline ancestors (up to its block), memoized along the chain.
const kindsAboveMemo = new WeakMap<Node, number>();

/** The emphasis kinds an inline node is already inside; a <dt> counts as strong (it is written bold). */
export function kindsAbove(node: Node): number {
  const chain: Node[] = [];
  let base = 0;
  for (let parent = node.parentNode; ; parent = parent.parentNode) {
    if (parent === null || isBlockNode(parent)) {
      base = parent !== null && parent.nodeName === 'DT' ? STRONG : 0;
      break;
    }
    const known = kindsAboveMemo.get(parent);
    if (known !== undefined) {
      base = known | kindOf(parent);
      break;
    }
    chain.push(parent);
  }
  for (let i = chain.length - 1; i >= 0; i--) {
    kindsAboveMemo.set(chain[i], base);
    base |= kindOf(chain[i]);
  }
  return base;
}

// Whether a <br> has something after it on its line, shared by the <br>s of a run.
const contentAfterMemo = new WeakMap<Node, boolean>();

/**
 * Whether anything is written after a <br> before its block ends: a hard break at the end of a paragraph would
 * print a backslash. Inline elements that start with a break count as nothing (the safe answer: a soft break).
 */
export function hasContentAfter(br: Node): boolean {
  const known = contentAfterMemo.get(br);
  if (known !== undefined) return known;
  const passed: Node[] = [br];
  let result = false;
  let current = br;
  search: for (;;) {
    for (let s = current.nextSibling; s !== null; s = s.nextSibling) {
      if (s.nodeType === ELEMENT_NODE && s.nodeName === 'BR') {
        const next = contentAfterMemo.get(s);
        if (next !== undefined) {
          result = next;
          break search;
        }
        passed.push(s);
        continue;
      }
      const edge = edgeClass(s, false);
      // Whitespace alone after a break does not make a line (and turndown may trim it away).
      if (edge === NOTHING || (edge === SPACE && (s.textContent ?? '').trim() === '')) continue;
      result = edge !== BLOCK && edge !== BREAK;
      break search;
    }
    const parent = current.parentNode;
    if (parent === null || isBlockNode(parent)) break;
    current = parent;
  }
  for (const node of passed) contentAfterMemo.set(node, result);
  return result;
}
