import { isElement, type DomDocument, type DomElement, type DomNode } from '../dom.ts';
import { resolveUrl } from '../urls.ts';

// Serializes a subtree to safe HTML, iteratively (pages can be very deep). Safety comes from allowlists:
// unknown attributes (event handlers, style, data-*) never pass, URL attributes are made absolute and lose
// script-capable schemes, and active elements are dropped with their content.

const DROPPED = new Set([
  'script', 'style', 'noscript', 'template', 'iframe', 'frame', 'frameset', 'object', 'embed', 'applet', 'base',
  'link', 'meta', 'title', 'head', 'svg', 'math', 'canvas', 'input', 'select', 'textarea', 'button', 'option',
  'dialog', 'portal', 'slot', 'param', 'audio', 'video', 'source', 'track',
]);

// Wrappers whose meaning we cannot keep safely; their content stays.
const UNWRAPPED = new Set(['form', 'html', 'body', 'font', 'label', 'fieldset', 'map', 'picture']);

const VOID = new Set(['area', 'br', 'col', 'hr', 'img', 'wbr']);

const ATTRIBUTES = new Set([
  'href', 'src', 'srcset', 'alt', 'title', 'lang', 'dir', 'colspan', 'rowspan', 'headers', 'scope', 'start',
  'reversed', 'value', 'datetime', 'cite', 'width', 'height', 'action', 'formaction', 'xlink:href', 'poster',
]);
const URL_ATTRIBUTES = new Set(['href', 'src', 'action', 'formaction', 'xlink:href', 'cite', 'poster']);
// Only code and pre keep a class: class="language-x", x being their language (what Markdown fences are
// labelled with), gathered from where highlighters put it: language-x, lang-x, highlight-x (Sphinx),
// highlight-source-x (GitHub), "brush: x" (SyntaxHighlighter) classes, data-lang and data-language, and for a
// <pre> the classes of the highlighter's wrappers around it (div.highlight-python > div.highlight > pre).
const LANGUAGE_CLASS = /(?:^|\s)(?:highlight-(?:source|text)-([a-z0-9_+#]+)|(?:language-|lang-|highlight-|brush:\s*)([a-z0-9_+#.-]+))/i;
const WRAPPER_CLASS = /(?:^|\s)(?:highlight-(?:source|text)-([a-z0-9_+#]+)|highlight-([a-z0-9_+#.-]+))/i;
const LANGUAGE_WORD = /^[a-z0-9_+#.-]+$/i;
// Words highlighters use for "no particular language".
const NO_LANGUAGE = new Set(['none', 'default', 'nohighlight', 'notranslate']);
const WRAPPER_LEVELS = 3;

export interface SerializeOptions {
  baseUrl: string;
  /** Renames elements on the way out; told whether a link or a <pre> encloses them. */
  rename?: (el: DomElement, context: { inLink: boolean; inPre: boolean }) => Rename;
  /** Keep only the attributes Markdown can express (href, src, alt, title, start, code language). */
  markdownAttributes?: boolean;
}

// colspan and rowspan place a table's cells in its grid.
const MARKDOWN_ATTRIBUTES = new Set(['href', 'src', 'alt', 'title', 'start', 'class', 'colspan', 'rowspan']);

/** A tag name, null to emit the children only, or either with padding: a space on both sides (a block made
 * inline must stay apart from its neighbours). */
export type Rename = string | null | { name: string | null; pad: true };

const LEAVE_LINK = Symbol('leave link');
const LEAVE_PRE = Symbol('leave pre');
const VALID_NAME = /^[a-z][a-z0-9-]*$/;

/**
 * Receives the sanitized tree as a stream of well-nested events. Text and attribute values are raw (not
 * escaped); the attribute array (name, value, name, value...) is reused between calls, so a sink copies what
 * it keeps. close is not called for void elements.
 */
export interface SanitizedSink {
  open(name: string, attributes: readonly string[], isVoid: boolean): void;
  close(name: string): void;
  text(data: string): void;
}

export function serializeSanitized(root: DomElement | DomDocument, options: SerializeOptions): string {
  const sink = new HtmlSink();
  walkSanitized(root, options, sink);
  return sink.html;
}

/** Walks the subtree as serializeSanitized would write it, telling the sink what to emit. */
export function walkSanitized(root: DomElement | DomDocument, options: SerializeOptions, sink: SanitizedSink): void {
  const stack: (DomNode | string | typeof LEAVE_LINK | typeof LEAVE_PRE)[] = [];
  const children = isElement(root) && !UNWRAPPED.has(root.name) ? [root] : root.children;
  for (let i = children.length - 1; i >= 0; i--) stack.push(children[i]);
  const attributes: string[] = [];
  const markdownOnly = options.markdownAttributes === true;
  let linkDepth = 0;
  let preDepth = 0;
  while (stack.length > 0) {
    const node = stack.pop()!;
    if (node === LEAVE_LINK) {
      linkDepth--;
      continue;
    }
    if (node === LEAVE_PRE) {
      preDepth--;
      continue;
    }
    if (typeof node === 'string') {
      // A closing tag name, or a pad (a single space, never a valid tag name).
      if (node === ' ') sink.text(node);
      else sink.close(node);
      continue;
    }
    if (node.type === 'text') {
      if (node.data !== '') sink.text(node.data);
      continue;
    }
    if (!isElement(node) || DROPPED.has(node.name)) continue;
    const renamed = options.rename === undefined ? node.name : options.rename(node, { inLink: linkDepth > 0, inPre: preDepth > 0 });
    const name = renamed !== null && typeof renamed === 'object' ? renamed.name : renamed;
    const padded = renamed !== null && typeof renamed === 'object';
    if (node.name === 'a') {
      linkDepth++;
      stack.push(LEAVE_LINK);
    } else if (node.name === 'pre') {
      preDepth++;
      stack.push(LEAVE_PRE);
    }
    if (padded) {
      sink.text(' ');
      stack.push(' ');
    }
    if (name === null || UNWRAPPED.has(name) || !VALID_NAME.test(name)) {
      for (let i = node.children.length - 1; i >= 0; i--) stack.push(node.children[i]);
      continue;
    }
    safeAttributes(node, options.baseUrl, markdownOnly, attributes);
    // Markdown writes an image without a picture as nothing; dropped here, a link around it is seen to be empty.
    if (markdownOnly && name === 'img' && !showsPicture(attributes)) continue;
    const isVoid = VOID.has(name);
    sink.open(name, attributes, isVoid);
    if (isVoid) continue;
    stack.push(name);
    for (let i = node.children.length - 1; i >= 0; i--) stack.push(node.children[i]);
  }
}

/** Writes the events as HTML text. */
class HtmlSink implements SanitizedSink {
  html = '';

  open(name: string, attributes: readonly string[]): void {
    let tag = `<${name}`;
    for (let i = 0; i < attributes.length; i += 2) tag += ` ${attributes[i]}="${escapeAttribute(attributes[i + 1])}"`;
    this.html += `${tag}>`;
  }

  close(name: string): void {
    this.html += `</${name}>`;
  }

  text(data: string): void {
    this.html += escapeText(data);
  }
}

/** Fills out with the element's safe attributes as name, value pairs. */
function safeAttributes(el: DomElement, baseUrl: string, markdownOnly: boolean, out: string[]): void {
  out.length = 0;
  const { attribs } = el;
  for (const name in attribs) {
    if (markdownOnly && !MARKDOWN_ATTRIBUTES.has(name)) continue;
    const value = attribs[name];
    let safe: string | null = null;
    if (name === 'class') safe = null; // code and pre get theirs below
    else if (!ATTRIBUTES.has(name)) safe = null;
    else if (URL_ATTRIBUTES.has(name)) safe = safeUrl(value, baseUrl, name === 'src');
    else if (name === 'srcset') safe = safeSrcset(value, baseUrl);
    // Line breaks in alt/title text would split a Markdown image or link over several lines.
    else if (name === 'alt' || name === 'title') safe = value.replace(/\s+/g, ' ').trim();
    else safe = value;
    if (safe !== null) out.push(name, safe);
  }
  if (el.name === 'img') lazySource(el, baseUrl, out);
  if (el.name === 'code' || el.name === 'pre') {
    const language = codeLanguage(el);
    if (language !== null) out.push('class', `language-${language}`);
  }
}

// Where lazy-loading scripts keep an image's real address while src holds a placeholder (or nothing) until the
// image scrolls into view. Without scripts the placeholder is all a reader would get: an empty frame, or (a data:
// image, written as its alt text in Markdown) a caption glued into the text.
// An image given only a srcset (no src) shows its first candidate.
const LAZY_SOURCES = ['data-src', 'data-lazy-src', 'data-original', 'data-lazy', 'data-srcset', 'data-lazy-srcset', 'srcset'];

// A data: image this short is a placeholder (an empty SVG frame sized for the real image, a transparent pixel):
// nothing to see, and its alt text is no text a reader saw.
const PLACEHOLDER_CHARS = 300;

/** Whether an image's (safe) attributes give it a picture: a src that is neither missing nor a placeholder. */
function showsPicture(attributes: readonly string[]): boolean {
  for (let i = 0; i < attributes.length; i += 2) {
    if (attributes[i] !== 'src') continue;
    const src = attributes[i + 1];
    return src !== '' && !(src.length < PLACEHOLDER_CHARS && /^data:/i.test(src));
  }
  return false;
}

/** Replaces a missing or data: src with the image's lazily loaded address, when the element has one. */
function lazySource(el: DomElement, baseUrl: string, out: string[]): void {
  const src = el.attribs.src?.trim() ?? '';
  if (src !== '' && !/^data:/i.test(src)) return;
  for (const name of LAZY_SOURCES) {
    const value = el.attribs[name]?.trim();
    if (!value) continue;
    const first = name.endsWith('srcset') ? value.split(/,\s+/)[0].trim().split(/\s+/)[0] : value;
    const safe = first ? safeUrl(first, baseUrl, false) : null;
    if (safe === null) continue;
    const at = out.findIndex((attribute, i) => i % 2 === 0 && attribute === 'src');
    if (at >= 0) out[at + 1] = safe;
    else out.push('src', safe);
    return;
  }
}

/** The language a code element is marked with, lower case, or null. */
function codeLanguage(el: DomElement): string | null {
  const { attribs } = el;
  let language = usable(attribs['data-language']) ?? usable(attribs['data-lang']);
  if (language === null && attribs.class !== undefined) language = classLanguage(LANGUAGE_CLASS, attribs.class);
  if (language !== null || el.name !== 'pre') return language;
  let wrapper = el.parent;
  for (let level = 0; level < WRAPPER_LEVELS && wrapper !== null && isElement(wrapper); level++, wrapper = wrapper.parent) {
    const found = usable(wrapper.attribs['data-language']) ?? usable(wrapper.attribs['data-lang']) ??
      (wrapper.attribs.class === undefined ? null : classLanguage(WRAPPER_CLASS, wrapper.attribs.class));
    if (found !== null) return found;
  }
  return null;
}

function classLanguage(pattern: RegExp, value: string): string | null {
  const match = pattern.exec(value);
  return match === null ? null : usable(match[1] ?? match[2]);
}

function usable(word: string | undefined): string | null {
  if (word === undefined) return null;
  const language = word.trim().toLowerCase();
  return LANGUAGE_WORD.test(language) && !NO_LANGUAGE.has(language) ? language : null;
}

// Schemes a published link or image may keep once resolved; anything else (javascript:, vbscript:, data:,
// file:, custom app schemes) is dropped.
const SAFE_SCHEMES = new Set(['http:', 'https:', 'mailto:', 'tel:', 'ftp:']);

/** The URL resolved to an absolute one with a safe scheme, or null; data:image URLs pass in image sources. */
export function safeUrl(value: string, baseUrl: string, imageSource: boolean): string | null {
  // Browsers ignore ASCII whitespace and control characters inside a scheme ("java\tscript:").
  const compact = value.replace(/[\u0000-\u0020\u007f]+/g, '').toLowerCase();
  if (compact.startsWith('data:')) return imageSource && compact.startsWith('data:image/') ? value.trim() : null;
  const resolved = resolveUrl(value, baseUrl);
  if (resolved === null) return null;
  return SAFE_SCHEMES.has(resolved.slice(0, resolved.indexOf(':') + 1).toLowerCase()) ? resolved : null;
}

function safeSrcset(value: string, baseUrl: string): string | null {
  const candidates: string[] = [];
  for (const candidate of value.split(/,\s+/)) {
    const [url = '', ...descriptor] = candidate.trim().split(/\s+/);
    if (url === '') continue;
    const safe = safeUrl(url, baseUrl, true);
    if (safe === null) return null; // one bad candidate: the whole attribute goes
    candidates.push([safe, ...descriptor].join(' '));
  }
  return candidates.length > 0 ? candidates.join(', ') : null;
}

// Most text has nothing to escape: native substring scans find that out much faster than the replacement.
function escapeText(text: string): string {
  if (text.indexOf('&') < 0 && text.indexOf('<') < 0 && text.indexOf('>') < 0) return text;
  return text.replace(/[&<>]/g, (c) => (c === '&' ? '&amp;' : c === '<' ? '&lt;' : '&gt;'));
}

function escapeAttribute(text: string): string {
  if (text.indexOf('&') < 0 && text.indexOf('<') < 0 && text.indexOf('>') < 0 && text.indexOf('"') < 0) return text;
  return text.replace(/[&<>"]/g, (c) => (c === '&' ? '&amp;' : c === '<' ? '&lt;' : c === '>' ? '&gt;' : '&quot;'));
}


/** An element's inner HTML (its children, not the element itself), sanitized exactly like the page html output. */
export function serializeInnerSanitized(el: DomElement, baseUrl: string): string {
  const children: DomDocument = { type: 'root', children: el.children, parent: null };
  return serializeSanitized(children, { baseUrl });
}
