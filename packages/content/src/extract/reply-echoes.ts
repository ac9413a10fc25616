import type { DomElement } from '../dom.ts';
import { HEADINGS, type PageModel } from './page-model.ts';
import { dropSubtree } from './sections.ts';

// What a reply on a discussion repeats rather than says. A quote of a post the page already shows ("X wrote: …"):
// a <blockquote> most of whose word runs appear outside quotes in the content goes; a quote of anything else (a
// post on another page, a letter, documentation) stays, and so does a forum whose posts are themselves drawn as
// <blockquote>s (their words appear nowhere else). And a reply's subject line, the thread's title after "Re:".
const REPLY_SUBJECT = /^\s*(re|aw|sv|vs|antw|rif|res)\s*(\[\d+\])?\s*:/i;
const SHINGLE = 6;
const MIN_REPEATED_SHARE = 0.7;
const WORD = /[\p{L}\p{N}]+/gu;

/** Drops the quotes of posts shown elsewhere in nodes[core] and the replies' subject lines; returns how many. */
export function dropReplyEchoes(model: PageModel, core: number): number {
  return dropSubjectLines(model, core) + dropQuotedPosts(model, core);
}

function dropSubjectLines(model: PageModel, core: number): number {
  const { nodes, parent, dropped } = model;
  let count = 0;
  const inside = new Uint8Array(nodes.length);
  inside[core] = 1;
  for (let i = core + 1; i < nodes.length && inside[parent[i]]; i++) {
    inside[i] = 1;
    const el = nodes[i] as DomElement;
    if (dropped[i] || !HEADINGS.has(el.name) || !REPLY_SUBJECT.test(leadingText(el))) continue;
    dropSubtree(model, i);
    count++;
  }
  return count;
}

/** The first text of an element (a subject line's "Re:" opens it), at most a few nodes in. */
function leadingText(el: DomElement): string {
  let node: DomElement = el;
  for (let depth = 0; depth < 4; depth++) {
    const first = node.children.find((c) => c.type === 'text' ? c.data.trim() !== '' : c.type === 'tag');
    if (first === undefined) return '';
    if (first.type === 'text') return first.data;
    node = first as DomElement;
  }
  return '';
}

function dropQuotedPosts(model: PageModel, core: number): number {
  const { nodes, parent, dropped, texts } = model;
  const inside = new Uint8Array(nodes.length);
  const quote = new Int32Array(nodes.length).fill(-1); // the outermost quote an element is in
  inside[core] = 1;
  const quotes: number[] = [];
  for (let i = core + 1; i < nodes.length && inside[parent[i]]; i++) {
    inside[i] = 1;
    if (quote[parent[i]] >= 0) quote[i] = quote[parent[i]];
    else if (!dropped[i] && (nodes[i] as DomElement).name === 'blockquote') {
      quote[i] = i;
      quotes.push(i);
    }
  }
  if (quotes.length === 0) return 0;
  // Word runs of the content outside quotes (as hashes: a long thread has a million of them), and each quote's own
  // words, in document order.
  const outside = new Set<number>();
  const quoted = new Map<number, number[]>();
  let run: number[] = [];
  let runQuote = -2;
  const flush = () => {
    if (runQuote === -1) for (let k = 0; k + SHINGLE <= run.length; k++) outside.add(shingleAt(run, k));
    run = [];
  };
  for (let t = 0; t < texts.parent.length; t++) {
    const p = texts.parent[t];
    if (!inside[p] || dropped[p]) continue;
    const q = quote[p];
    if (q !== runQuote) {
      flush();
      runQuote = q;
    }
    const words = (texts.data[t].toLowerCase().match(WORD) ?? []).map(hashWord);
    if (q >= 0) {
      const own = quoted.get(q);
      if (own === undefined) quoted.set(q, words);
      else for (const w of words) own.push(w);
    } else for (const w of words) run.push(w);
  }
  flush();
  let count = 0;
  for (const q of quotes) {
    const words = quoted.get(q) ?? [];
    const shingles = words.length - SHINGLE + 1;
    if (shingles <= 0) continue;
    let repeated = 0;
    for (let k = 0; k < shingles; k++) if (outside.has(shingleAt(words, k))) repeated++;
    if (repeated < MIN_REPEATED_SHARE * shingles) continue;
    dropSubtree(model, withAttribution(model, q, core));
    count++;
  }
  return count;
}

/** FNV-1a of a word, 32 bits. */
function hashWord(word: string): number {
  let h = 0x811c9dc5;
  for (let i = 0; i < word.length; i++) h = Math.imul(h ^ word.charCodeAt(i), 0x01000193);
  return h >>> 0;
}

/** The hash of the SHINGLE words from k. */
function shingleAt(words: readonly number[], k: number): number {
  let h = 0;
  for (let j = k; j < k + SHINGLE; j++) h = (Math.imul(h, 0x9e3779b1) + words[j]) | 0;
  return h;
}

/** The quote's wrapper when it holds only the quote and its attribution ("<cite>seth wrote:</cite>"), else the quote. */
function withAttribution(model: PageModel, q: number, core: number): number {
  const up = model.parent[q];
  if (up === core || up <= 0) return q;
  const quote = model.nodes[q];
  for (const child of (model.nodes[up] as DomElement).children) {
    if (child === quote || (child.type === 'text' && child.data.trim() === '')) continue;
    if (child.type !== 'tag' || child.name !== 'cite') return q;
  }
  return up;
}
