import { createText, isElement, textContent, type DomDocument, type DomElement, type DomNode } from '../dom.ts';
import { collapse, countWords } from '../text.ts';
import { isInHeading, isPurchaseControl, isSectionToggle } from './buttons.ts';
import { FieldLabels, FormControls } from './forms.ts';

/** What one pass over the parsed document learns before extraction, besides the cleaned tree itself. */
export interface PreparedPage {
  /** The document without head, scripts, comments and other elements that never hold page content. */
  root: DomDocument;
  title: string | null;
  firstH1: DomElement | null;
  htmlLang: string | null;
  baseHref: string | null;
  canonicalHref: string | null;
  /** name/property (lower case) -> content, first occurrence wins. */
  meta: Map<string, string>;
  /** Raw href values of a/area elements, in document order (resolved later against the base URL). */
  hrefs: string[];
  scriptCount: number;
  scriptChars: number;
  /** Bodies of <script type="application/ld+json"> (structured data: the page's own word on what it is). */
  structuredData: string[];
  /** Text of <noscript> elements, to spot "enable JavaScript" notices. */
  noscriptText: string;
  /** Whether the body holds a typical single-page-app mount point (#root, #app, #__next...). */
  appRoot: boolean;
  /** Whether a subtree deeper than MAX_DEPTH was flattened to its text and links. */
  flattened: boolean;
  /** Buttons that put something in a cart or buy it ("Add to basket", id="add-to-cart-button"): shop signals. */
  purchaseControls: number;
}

// Elements that never carry readable page content. Their subtrees go before extraction.
const DROPPED = new Set([
  'head', 'script', 'style', 'template', 'iframe', 'frame', 'frameset', 'object', 'embed', 'applet',
  'svg', 'math', 'canvas', 'link', 'meta', 'base', 'title', 'input', 'select', 'textarea', 'button', 'option',
  'optgroup', 'datalist', 'audio', 'video', 'source', 'track', 'param', 'dialog', 'map', 'area', 'slot', 'portal',
]);

// A <noscript> with at least this many words is content for readers without JavaScript, not a notice.
const NOSCRIPT_CONTENT_WORDS = 40;

// Deeper than this, a subtree is flattened to its text and links: the Markdown converter recurses per level, and
// no real page needs more (the deepest of 300 real pages is far below it).
export const MAX_DEPTH = 160;

// Dropped elements whose subtrees cannot hold page links (or were already read for metadata).
const NO_LINKS = new Set(['head', 'script', 'style', 'template', 'svg', 'math', 'title', 'a', 'area']);

/** Buttons found by preparePage to carry a section's title (read as text, never furniture). */
const sectionTitles = new WeakSet<DomElement>();

export function isSectionTitle(el: DomElement): boolean {
  return sectionTitles.has(el);
}

const APP_ROOT_IDS = new Set(['root', 'app', '__next', '__nuxt', 'svelte', 'main-app', 'app-root', 'react-root', 'ember-app']);

/** One iterative pass: records metadata, links and script signals, and removes non-content nodes in place. */
export function preparePage(root: DomDocument): PreparedPage {
  const page: PreparedPage = {
    root,
    title: null,
    firstH1: null,
    htmlLang: null,
    baseHref: null,
    canonicalHref: null,
    meta: new Map(),
    hrefs: [],
    scriptCount: 0,
    scriptChars: 0,
    structuredData: [],
    noscriptText: '',
    appRoot: false,
    flattened: false,
    purchaseControls: 0,
  };
  // Pre-order walk (so links come out in document order); removals are applied afterwards, per parent.
  const removed = new Set<DomNode>();
  const replaced = new Map<DomNode, DomNode>();
  const touched = new Set<DomElement | DomDocument>();
  const nodes: DomNode[] = [];
  const depths: number[] = [];
  const forms = new FormControls();
  const labels = new FieldLabels();
  for (let i = root.children.length - 1; i >= 0; i--) {
    nodes.push(root.children[i]);
    depths.push(1);
  }
  while (nodes.length > 0) {
    const node = nodes.pop()!;
    const depth = depths.pop()!;
    if (node.type === 'text') continue;
    const parent = node.parent ?? root;
    if (!isElement(node)) {
      removed.add(node); // comments, doctype, CDATA
      touched.add(parent);
      continue;
    }
    if (!inspect(node, page)) {
      if (!forms.note(node) && isPurchaseControl(node)) page.purchaseControls++;
      labels.field(node);
      removed.add(node);
      touched.add(parent);
      // Hidden menus and dialogs still hold links a crawler wants.
      if (!NO_LINKS.has(node.name)) collectHrefs(node, page);
      continue;
    }
    labels.label(node);
    // A buy button drawn as a link (role=button) stays in the page, but says as much as a <button> would.
    if (node.name === 'a' && node.attribs.role?.toLowerCase() === 'button' && isPurchaseControl(node)) page.purchaseControls++;
    if (depth >= MAX_DEPTH) {
      replaced.set(node, flatten(node, page));
      page.flattened = true;
      touched.add(parent);
      continue;
    }
    for (let i = node.children.length - 1; i >= 0; i--) {
      nodes.push(node.children[i]);
      depths.push(depth + 1);
    }
  }
  forms.judge();
  for (const label of labels.orphans()) {
    removed.add(label);
    touched.add(label.parent ?? root);
  }
  for (const parent of touched) {
    const kept: DomNode[] = [];
    for (const child of parent.children) if (!removed.has(child)) kept.push(replaced.get(child) ?? child);
    parent.children = kept;
  }
  return page;
}

/** Records what the element tells about the page; false when it is to be dropped from the content tree. */
function inspect(el: DomElement, page: PreparedPage): boolean {
  const { name, attribs } = el;
  switch (name) {
    case 'html':
      if (page.htmlLang === null && attribs.lang) page.htmlLang = attribs.lang.trim() || null;
      break;
    case 'a':
      if (attribs.href !== undefined) page.hrefs.push(attribs.href);
      if (isHeadingPermalink(el)) return false;
      break;
    case 'area':
      if (attribs.href !== undefined) page.hrefs.push(attribs.href);
      break;
    case 'h1':
      page.firstH1 ??= el;
      break;
    case 'head':
      collectHead(el, page);
      return false;
    case 'title':
    case 'meta':
    case 'link':
    case 'base':
      readHeadElement(el, page);
      return false;
    case 'script':
      readScript(el, page);
      return false;
    case 'noscript': {
      // What a reader without JavaScript sees: some sites (forums especially) serve their whole content here.
      const text = textContent(el);
      page.noscriptText += ` ${text}`;
      if (countWords(text) < NOSCRIPT_CONTENT_WORDS) return false;
      el.name = 'div';
      return true;
    }
  }
  if (name === 'button' && isSectionToggle(el)) {
    // An accordion's question or a section's title drawn as its open/close button: the text is the heading's,
    // whatever its classes say ("accordion-button").
    el.name = isInHeading(el) ? 'span' : 'div';
    sectionTitles.add(el);
    return true;
  }
  if (attribs.id !== undefined && APP_ROOT_IDS.has(attribs.id.toLowerCase())) page.appRoot = true;
  // Hidden elements stay: tabs, accordions and script-revealed sections often hold the main content.
  return !DROPPED.has(name);
}

// A heading's permalink: a link to the heading's own fragment drawn as a mark ("¶" in Sphinx, "#" in Hugo themes,
// an icon or a zero-width space in Docusaurus and GitHub). Its mark is no part of the heading's text.
const PERMALINK_MARK = /^[\s#¶§⚓🔗\u200b\ufeff]*$/u;

function isHeadingPermalink(el: DomElement): boolean {
  if (!el.attribs.href?.startsWith('#')) return false;
  if (!isInHeading(el)) return false;
  // A link holding the title itself ("<h2><a href="#x">Title</a></h2>") or a picture is the heading's content.
  return el.children.length <= 3 && PERMALINK_MARK.test(textContent(el)) && !holdsPicture(el);
}

// A permalink's icon is a few nodes deep at most; a link holding more is not one.
const PERMALINK_NODES = 12;

function holdsPicture(el: DomElement): boolean {
  const queue: DomNode[] = el.children.slice(0, PERMALINK_NODES);
  for (let seen = 0; seen < queue.length; seen++) {
    if (seen >= PERMALINK_NODES) return true;
    const node = queue[seen];
    if (!isElement(node)) continue;
    if (node.name === 'img' || node.name === 'picture' || node.name === 'video') return true;
    for (let i = 0; i < node.children.length && queue.length <= PERMALINK_NODES; i++) queue.push(node.children[i]);
  }
  return false;
}

function collectHead(head: DomElement, page: PreparedPage): void {
  const stack: DomNode[] = [...head.children].reverse(); // document order: the first <title> or og:title wins
  while (stack.length > 0) {
    const node = stack.pop()!;
    if (!isElement(node)) continue;
    if (node.name === 'script') readScript(node, page);
    else if (node.name === 'noscript') {
      page.noscriptText += ` ${textContent(node)}`;
      for (let i = node.children.length - 1; i >= 0; i--) stack.push(node.children[i]);
    } else readHeadElement(node, page);
  }
}

// Structured data kept per page: enough for an article's type and body, bounded against hostile pages.
const MAX_STRUCTURED_DATA = 8;
const MAX_STRUCTURED_CHARS = 200_000;

function readScript(el: DomElement, page: PreparedPage): void {
  const text = textContent(el);
  page.scriptCount++;
  page.scriptChars += text.length;
  if (/ld\+json/i.test(el.attribs.type ?? '') && page.structuredData.length < MAX_STRUCTURED_DATA && text.length <= MAX_STRUCTURED_CHARS) {
    page.structuredData.push(text);
  }
}

function readHeadElement(el: DomElement, page: PreparedPage): void {
  const { attribs } = el;
  switch (el.name) {
    case 'title':
      if (page.title === null) page.title = collapse(textContent(el)) || null;
      break;
    case 'base':
      if (page.baseHref === null && attribs.href) page.baseHref = attribs.href.trim();
      break;
    case 'link':
      if (page.canonicalHref === null && attribs.href && /(^|\s)canonical(\s|$)/i.test(attribs.rel ?? '')) {
        page.canonicalHref = attribs.href.trim();
      }
      break;
    case 'meta': {
      const key = (attribs.property ?? attribs.name ?? attribs['http-equiv'] ?? attribs.itemprop ?? '').trim().toLowerCase();
      const content = attribs.content;
      if (key !== '' && content !== undefined && !page.meta.has(key)) page.meta.set(key, collapse(content));
      break;
    }
  }
}

function collectHrefs(el: DomElement, page: PreparedPage): void {
  const stack: DomNode[] = [...el.children].reverse();
  while (stack.length > 0) {
    const node = stack.pop()!;
    if (!isElement(node)) continue;
    if ((node.name === 'a' || node.name === 'area') && node.attribs.href !== undefined) page.hrefs.push(node.attribs.href);
    for (let i = node.children.length - 1; i >= 0; i--) stack.push(node.children[i]);
  }
}

/**
 * Flattens a too-deep subtree into a wrapper holding its text and its links (with their text), in order; block
 * boundaries become spaces. Links are still recorded for the page's link list.
 */
function flatten(el: DomElement, page: PreparedPage): DomElement {
  const wrapper: DomElement = { type: 'tag', name: 'div', attribs: {}, children: [], parent: el.parent };
  const stack: DomNode[] = [el];
  while (stack.length > 0) {
    const node = stack.pop()!;
    if (node.type === 'text') wrapper.children.push(createText(node.data, wrapper));
    if (!isElement(node) || DROPPED.has(node.name)) continue;
    const href = node.name === 'a' || node.name === 'area' ? node.attribs.href : undefined;
    if (href !== undefined) page.hrefs.push(href);
    if (node.name === 'a' && href !== undefined) {
      collectHrefs(node, page);
      const link: DomElement = { type: 'tag', name: 'a', attribs: { href }, children: [], parent: wrapper };
      link.children.push(createText(textContent(node), link));
      wrapper.children.push(link);
      continue;
    }
    if (BLOCK_BOUNDARIES.has(node.name)) wrapper.children.push(createText(' ', wrapper));
    for (let i = node.children.length - 1; i >= 0; i--) stack.push(node.children[i]);
  }
  return wrapper;
}

const BLOCK_BOUNDARIES = new Set(['p', 'div', 'li', 'br', 'tr', 'td', 'th', 'h1', 'h2', 'h3', 'h4', 'h5', 'h6', 'section', 'article', 'blockquote']);
