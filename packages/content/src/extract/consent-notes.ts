import { isElement, textContent, type DomDocument, type DomElement, type DomNode } from '../dom.ts';
import { isContentLandmark } from './boilerplate.ts';

// Cookie and consent notes recognised by what they say. Their class names usually say "cookie" (boilerplate.ts),
// but not on a site whose names are generated hashes, nor in a consent platform's banner named after the vendor
// ("qc-cmp2-container", "cmpbox"). A note is short, says the site uses cookies or asks to accept them, offers a
// link or a button, and is a box of its own at the page's top or bottom, not among its content or text.
const MAX_NOTE_WORDS = 80;
const MIN_NOTE_WORDS = 6;
// The share of the page's words before a note at the top, or after one at the bottom.
const EDGE_SHARE = 0.3;

const COOKIE = /cookie/i;
// "We use cookies", "uses cookies to", "accept all cookies" and their like in the languages of most consent laws:
// the note's own sentence, not a recipe's or an article's mention of cookies, nor a footer's "Cookie policy" link.
const NOTE_TEXT = new RegExp(
  [
    // "we use cookies", "uses cookies", "use some essential cookies", "third parties use optional cookies"
    '\\b(?<!of\\s)(use|uses|using)\\s+([\\w-]+\\s+){0,4}?cookies\\b',
    '\\b(use|storing|store)\\s+of\\s+cookies\\b',
    '\\b(accept|allow|reject|decline)\\s+(all\\s+)?cookies\\b',
    '\\bcookies?\\s+(and|&)\\s+(similar|other)\\s+(technologies|tracking)',
    '\\b(verwende[nt]|nutze[nt]|setzen)\\s+(\\w+\\s+)?cookies\\b',
    '\\b(utilise|utilisons|utilisent)\\s+(des\\s+)?cookies\\b',
    '\\b(utiliza|utilizamos|usamos|usa)\\s+(las\\s+|os\\s+)?cookies\\b',
    '\\b(utilizza|utilizziamo|usiamo)\\s+(i\\s+)?cookie',
    '\\b(gebruikt|gebruiken|maakt\\s+gebruik\\s+van)\\s+cookies\\b',
    '\\b(używa|używamy|wykorzystuje)\\s+(plików\\s+)?cookies?\\b',
  ].join('|'),
  'i',
);

interface NoteModel {
  nodes: (DomElement | DomDocument)[];
  parent: Int32Array;
  /** Words in each subtree. */
  words: Float64Array;
}

interface NoteTexts {
  data: readonly string[];
  parent: Int32Array;
  words: Int32Array;
}

/** 1 for each element that is a cookie or consent note by its text (see above), indexed like model.nodes. */
export function consentNotes(model: NoteModel, texts: NoteTexts): Uint8Array | null {
  const { nodes, parent, words } = model;
  let notes: Uint8Array | null = null;
  const total = words[0];
  let before = 0;
  const judged = new Set<number>();
  let siblings: ReturnType<typeof siblingsOf> | null = null;
  for (let t = 0; t < texts.data.length; t++) {
    const at = before;
    before += texts.words[t];
    if (!COOKIE.test(texts.data[t])) continue;
    // The largest block around the mention that is still short: the note, not the page holding it.
    let top = texts.parent[t];
    while (parent[top] > 0 && words[parent[top]] <= MAX_NOTE_WORDS && !isPageLevel(nodes[parent[top]])) top = parent[top];
    if (judged.has(top)) continue;
    judged.add(top);
    if (top <= 0 || words[top] < MIN_NOTE_WORDS || words[top] > MAX_NOTE_WORDS) continue;
    const atEdge = at <= EDGE_SHARE * total || at >= (1 - EDGE_SHARE) * total;
    const el = nodes[top] as DomElement;
    if (!atEdge || inContent(model, top) || !hasControl(el)) continue;
    siblings ??= siblingsOf(parent);
    const inTextFlow = [siblings.before[top], siblings.after[top]].some((s) => s > 0 && TEXT_BLOCKS.has((nodes[s] as DomElement).name));
    if (inTextFlow || !NOTE_TEXT.test(textContent(el).replace(/\s+/g, ' '))) continue;
    notes ??= new Uint8Array(nodes.length);
    notes[top] = 1;
  }
  return notes;
}

/** Whether an ancestor says it is the page's content (boilerplate.ts isContentLandmark): no consent note sits there. */
function inContent(model: NoteModel, i: number): boolean {
  for (let a = model.parent[i]; a > 0; a = model.parent[a]) if (isContentLandmark(model.nodes[a] as DomElement)) return true;
  return false;
}

// Blocks of running text: a block beside one of them is part of that text (an article's paragraph about cookies),
// where a note is a box of its own between the page's regions.
const TEXT_BLOCKS = new Set(['p', 'h1', 'h2', 'h3', 'h4', 'h5', 'h6', 'blockquote', 'ul', 'ol', 'li', 'pre', 'table', 'figure', 'dl']);

/** The element siblings before and after each node, indexed like nodes (-1: none), built once when needed. */
function siblingsOf(parent: Int32Array): { before: Int32Array; after: Int32Array } {
  const n = parent.length;
  const before = new Int32Array(n).fill(-1);
  const after = new Int32Array(n).fill(-1);
  const last = new Int32Array(n).fill(-1);
  for (let i = 1; i < n; i++) {
    const p = parent[i];
    if (last[p] >= 0) {
      before[i] = last[p];
      after[last[p]] = i;
    }
    last[p] = i;
  }
  return { before, after };
}

const isPageLevel = (node: DomElement | DomDocument) => node.type === 'root' || node.name === 'body' || node.name === 'html';

/**
 * Whether the element holds a link or something drawn as a button (the note's "Accept", "Settings" or policy
 * link). Real <button>s are gone by now (prepare-page.ts drops them as controls).
 */
function hasControl(el: DomElement): boolean {
  const stack: DomNode[] = [el];
  while (stack.length > 0) {
    const node = stack.pop()!;
    if (!isElement(node)) continue;
    if (node.name === 'a' || node.attribs.role?.toLowerCase() === 'button') return true;
    for (const child of node.children) stack.push(child);
  }
  return false;
}
