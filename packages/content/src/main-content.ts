import type { DomDocument, DomElement, DomNode } from './dom.ts';
import { buildPageModel, type PageModel } from './page-model.ts';
import { collapse, CollapsedLength } from './text.ts';

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
  /** That text of the whole page, whitespace collapsed (built on demand). */
  pageText(): string;
}

// A narrower container must keep this share of the region's estimated content...
const CORE_SHARE = 0.7;
// ...and hold this many words of prose: without real prose (product grids, listings, forms) the content is
// made of short pieces the estimate undervalues, and the whole region is the safer answer.
const CORE_PROSE_WORDS = 250;

/**
 * Main content in two steps. The region: the page's <main> (or role=main) when it has one, else the whole page;
 * furniture (navigation, banners, sidebars, comments...) is left out either way. Then the core: the smallest
 * element inside the region that still holds most of its estimated content, when that content is prose.
 * Measured on real pages, trusting the page's own landmarks and dropping furniture beats picking the single
 * densest block, which often loses an intro, a product grid or half a thread.
 */
export function extractMainContent(root: DomDocument): MainContent {
  const model = buildPageModel(root);
  const page = { pageTextLength: model.textLength, pageText: () => collapse(model.texts.data.join('')) };
  if (model.words[0] === 0) {
    // Everything with words was judged furniture (a page that is one big menu): return it rather than nothing.
    return { root, found: false, words: model.totalWords, linkWords: model.totalLinkWords, textLength: model.textLength, ...page };
  }
  const region = mainRegion(model);
  const core = coreOf(model, region);
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
function mainRegion(model: PageModel): number {
  const { nodes, dropped, words } = model;
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
  return region;
}

function coreOf(model: PageModel, region: number): number {
  const { nodes, parent, dropped, good, prose, words } = model;
  const inside = new Uint8Array(nodes.length);
  inside[region] = 1;
  let core = region;
  // Pre-order: a subtree is the run of indices after its root whose parents are inside it.
  for (let i = region + 1; i < nodes.length && inside[parent[i]]; i++) {
    inside[i] = 1;
    if (dropped[i]) continue;
    if (good[i] >= CORE_SHARE * good[region] && prose[i] >= CORE_PROSE_WORDS && words[i] < words[core]) core = i;
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
