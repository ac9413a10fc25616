import { textContent, type DomElement } from '../dom.ts';
import { isHidden } from './duplicate-blocks.ts';
import type { PageModel } from './page-model.ts';

// The article body the page declares (JSON-LD articleBody, or a visible itemprop=articleBody element) picks the
// container when it is long enough to be the article rather than a teaser.
const MIN_BODY_WORDS = 80;
// A container is the declared body when it holds this share of the body's words...
const MIN_RECALL = 0.8;
// ...and its own words are mostly the body's.
const MIN_PRECISION = 0.6;
// JSON-LD bodies can be whole books: compare the first words only.
const MAX_BODY_WORDS = 5000;

const wordsOf = (text: string) => text.toLowerCase().match(/[\p{L}\p{N}_]+/gu) ?? [];

/**
 * The element the page itself names as its article body, or -1: a visible element with itemprop=articleBody,
 * else the smallest visible element whose text matches the JSON-LD articleBody (most of the body's words, and
 * mostly the body's words). Hidden copies (a schema.org duplicate kept for search engines) never qualify.
 */
export function declaredArticleBody(model: PageModel, jsonBody: string | null): number {
  const { nodes, parent, words, dropped } = model;
  const n = nodes.length;
  const hidden = hiddenElements(model);
  for (let i = 1; i < n; i++) {
    if (dropped[i] || hidden[i] || words[i] < MIN_BODY_WORDS) continue;
    if ((nodes[i] as DomElement).attribs.itemprop?.trim().toLowerCase() === 'articlebody') return i;
  }
  if (jsonBody === null) return -1;
  for (let i = 1; i < n; i++) if (dropped[i]) hidden[i] = 1;
  return declaredTextElement(model, jsonBody, MIN_BODY_WORDS, hidden);
}

/** 1 for elements hidden by the page's own markup (hidden, aria-hidden, inline display:none) or inside one. */
export function hiddenElements(model: Pick<PageModel, 'nodes' | 'parent'>): Uint8Array {
  const { nodes, parent } = model;
  const hidden = new Uint8Array(nodes.length);
  for (let i = 1; i < nodes.length; i++) hidden[i] = hidden[parent[i]] || (isHidden((nodes[i] as DomElement).attribs) ? 1 : 0);
  return hidden;
}

/**
 * The smallest element not skipped whose text matches a text the structured data gives (most of its words, and
 * mostly its words), or -1; none when the text has fewer than minWords words.
 */
export function declaredTextElement(model: Pick<PageModel, 'nodes' | 'words'>, text: string, minWords: number, skip: Uint8Array): number {
  const { nodes, words } = model;
  const body = wordsOf(text.slice(0, MAX_BODY_WORDS * 12)).slice(0, MAX_BODY_WORDS);
  if (body.length < minWords) return -1;
  const bag = new Map<string, number>();
  for (const w of body) bag.set(w, (bag.get(w) ?? 0) + 1);
  let best = -1;
  for (let i = 1; i < nodes.length; i++) {
    if (skip[i] || words[i] < MIN_RECALL * body.length || words[i] > body.length / MIN_PRECISION) continue;
    const own = wordsOf(textContent(nodes[i] as DomElement));
    const left = new Map(bag);
    let hits = 0;
    for (const w of own) {
      const c = left.get(w) ?? 0;
      if (c > 0) {
        hits++;
        left.set(w, c - 1);
      }
    }
    // Later (deeper) matches are inside earlier ones in pre-order: the last match is the smallest.
    if (hits >= MIN_RECALL * body.length && hits >= MIN_PRECISION * own.length) best = i;
  }
  return best;
}
