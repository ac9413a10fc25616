import type { DomDocument, DomElement, DomNode } from '../dom.ts';
import { declaredArticleBody } from './article-body.ts';
import { markDuplicateBlocks } from './duplicate-blocks.ts';
import { markRepeatedLines } from './repeated-lines.ts';
import { buildPageModel, type PageModel } from './page-model.ts';
import { isArticleLandmark } from './boilerplate.ts';
import type { PageHints } from './page-hints.ts';
import { dropAuthorBios } from './author-bio.ts';
import { dropSections } from './sections.ts';
import { dropEdgeLinkLists } from './edge-lists.ts';
import { dropInlineTeasers } from './inline-teasers.ts';
import { dropUiLabels } from './ui-labels.ts';
import { dropReplyEchoes } from './reply-echoes.ts';
import { cardGrids, leavesOutGrid, NO_GRIDS, threadPosts } from './alike-items.ts';

const NO_HINTS: PageHints = { article: false, discussion: false, product: false, articleBody: null, personDescriptions: [], productDescription: null };
import { collapse, CollapsedLength } from '../text.ts';

export interface MainContent {
  /** The subtree to publish, with page furniture inside it removed. */
  root: DomElement | DomDocument;
  /** false when nothing narrower than the whole (cleaned) page was found. */
  found: boolean;
  words: number;
  linkWords: number;
  /** collapse(textContent(root)).length, for root as returned. */
  textLength: number;
  /** The same for the whole page as it was before extraction. */
  pageTextLength: number;
  /** Words of the page outside site chrome and consent notes. */
  pageWordsOutsideChrome: number;
  /** That text of the whole page, whitespace collapsed (built on demand). */
  pageText(): string;
}

// A narrower container must keep this share of the region's estimated content...
const CORE_SHARE = 0.7;
// ...and hold this many words of prose: without real prose (product grids, listings, forms) the content is
// made of short pieces the estimate undervalues, and the whole region is the safer answer.
const CORE_PROSE_WORDS = 250;
const LANDMARK_CORE_SHARE = 0.6;
// A <main> with less than this share of the page's prose, when at least WRONG_BLOCK_PROSE words of prose lie
// outside it, is not trusted.
const WRONG_BLOCK_SHARE = 0.25;
const WRONG_BLOCK_PROSE = 300;

/**
 * Main content in two steps. The region: the page's <main> (or role=main) when it has one, else the whole page;
 * furniture (navigation, banners, sidebars, comments...) is left out either way. Then the core: the smallest
 * element inside the region that still holds most of its estimated content, when that content is prose.
 * Measured on real pages, trusting the page's own landmarks and dropping furniture beats picking the single
 * densest block, which often loses an intro, a product grid or half a thread.
 */
export function extractMainContent(root: DomDocument, hints: PageHints = NO_HINTS): MainContent {
  // A block named as reviews is the buyers' on a product's page, but may be the text itself on a review article.
  const product = hints.product && !hints.article;
  const model = buildPageModel(root, { product, article: hints.article, discussion: hints.discussion }, product ? hints.productDescription : null);
  dropSections(model, hints);
  const page = {
    pageTextLength: model.textLength,
    pageWordsOutsideChrome: model.wordsOutsideChrome,
    pageText: () => collapse(model.texts.data.join('')),
  };
  if (model.words[0] === 0) {
    // Everything with words was judged furniture (a page that is one big menu): return it rather than nothing.
    return { root, found: false, words: model.totalWords, linkWords: model.totalLinkWords, textLength: model.textLength, ...page };
  }
  // On a discussion the declared body is its first post only: the replies are content too.
  const declared = hints.discussion ? -1 : declaredArticleBody(model, hints.articleBody);
  const core = declared > 0 ? declared : coreOf(model, mainRegion(model, hints.article), hints);
  if (hints.article && !hints.discussion) dropAuthorBios(model, core, hints.personDescriptions);
  dropEdgeLinkLists(model, core, hints.article);
  dropInlineTeasers(model, core);
  dropUiLabels(model, core);
  if (hints.discussion) dropReplyEchoes(model, core);
  markDuplicateBlocks(model, core);
  markRepeatedLines(model, core);
  const end = detachDropped(model, core);
  return {
    root: model.nodes[core],
    found: core !== 0 && model.words[core] > 0,
    words: model.words[core],
    linkWords: model.linkWords[core],
    textLength: keptTextLength(model, core, end),
    ...page,
  };
}

/** Collapsed length of the text left in the subtree of nodes[core] (indices core..end-1) once detached. */
function keptTextLength(model: PageModel, core: number, end: number): number {
  const { texts, dropped } = model;
  const length = new CollapsedLength();
  for (let i = 0; i < texts.parent.length; i++) {
    const parent = texts.parent[i];
    if (parent >= core && parent < end && dropped[parent] === 0) length.add(texts.inner[i], texts.edges[i]);
  }
  return length.length;
}

/**
 * The <main> (or role=main) element with the most words, else the document (index 0). Trusted even when it looks
 * small next to the rest: on real pages, text outside <main> that escaped the furniture rules is rarely content.
 * An empty <main> (to be filled in by scripts) is no region.
 */
function mainRegion(model: PageModel, article: boolean): number {
  const { nodes, dropped, words, prose } = model;
  let region = 0;
  let regionWords = 0;
  for (let i = 1; i < nodes.length; i++) {
    if (dropped[i]) continue;
    const el = nodes[i] as DomElement;
    if ((el.name === 'main' || el.attribs.role?.toLowerCase() === 'main') && words[i] > regionWords) {
      region = i;
      regionWords = words[i];
    }
  }
  // On a page that declares itself an article, a <main> holding a small share of the page's prose while a much
  // longer text sits outside it is a mislabelled teaser or header, not the article.
  if (article && region !== 0 && prose[region] < WRONG_BLOCK_SHARE * prose[0] && prose[0] - prose[region] >= WRONG_BLOCK_PROSE) return 0;
  return region;
}

function coreOf(model: PageModel, region: number, hints: PageHints): number {
  const { nodes, parent, dropped, good, prose, words } = model;
  // On a discussion the first post may hold most of the words, but the replies beside it are content too: the core
  // never narrows to one post of several alike.
  const post = hints.discussion ? threadPosts(model, region) : null;
  // On a page of cards (a shop's collection, a listing) the cards are its purpose however short: the core never
  // narrows away from their grid to the buying guide beside it. An article's or a product's grid is other pages'.
  const grids = hints.discussion || hints.article || hints.product ? NO_GRIDS : cardGrids(model, region);
  const inside = new Uint8Array(nodes.length);
  inside[region] = 1;
  let core = region;
  // The page's own word for its content (<article>, itemprop=articleBody) needs a smaller share of the region:
  // what follows an article inside the same wrapper is comments, cards and calls to action more often than not.
  const landmark = new Uint8Array(nodes.length);
  let landmarks = 0;
  for (let i = region + 1; i < nodes.length && inside[parent[i]]; i++) {
    inside[i] = 1;
    if (!dropped[i] && isArticleLandmark(nodes[i] as DomElement)) {
      landmark[i] = 1;
      landmarks++;
    }
  }
  // Several articles side by side are a listing of them, not one article.
  if (landmarks > 1) landmark.fill(0);
  inside.fill(0);
  inside[region] = 1;
  // Pre-order: a subtree is the run of indices after its root whose parents are inside it.
  for (let i = region + 1; i < nodes.length && inside[parent[i]]; i++) {
    inside[i] = 1;
    if (dropped[i]) continue;
    const share = landmark[i] ? LANDMARK_CORE_SHARE : CORE_SHARE;
    if (post !== null && post[i]) continue;
    if (good[i] >= share * good[region] && prose[i] >= CORE_PROSE_WORDS && words[i] < words[core]) {
      if (leavesOutGrid(grids, i)) continue;
      core = i;
    }
  }
  return core;
}

/** Detaches the furniture inside the chosen subtree from the DOM; returns the end of the subtree's indices. */
function detachDropped(model: PageModel, chosen: number): number {
  const { nodes, parent, dropped } = model;
  const inside = new Uint8Array(nodes.length);
  inside[chosen] = 1;
  const removed = new Set<DomNode>();
  let end = chosen + 1;
  for (; end < nodes.length && inside[parent[end]]; end++) {
    inside[end] = 1;
    if (dropped[end] === 1) removed.add(nodes[end] as DomElement);
  }
  const parents = new Set<DomElement | DomDocument>();
  for (const node of removed) if (node.parent !== null) parents.add(node.parent);
  for (const el of parents) el.children = el.children.filter((child) => !removed.has(child));
  return end;
}
