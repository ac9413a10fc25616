// The only module that touches turndown and turndown-plugin-gfm. Input is the main content's subtree, sanitized
// (absolute URLs, safe attributes) and shaped for Markdown (tables, links: markdown-shape.ts) on the way into a
// small DOM of our own (markdown-dom.ts) that turndown walks directly: no HTML string, no second parse.
import TurndownService from 'turndown';
import gfmPlugins from 'turndown-plugin-gfm';
import type { DomDocument, DomElement } from './dom.ts';
import { markdownShaper } from './markdown-shape.ts';
import { MarkdownTreeBuilder } from './markdown-tree.ts';
import { serializeSanitized, walkSanitized, type SerializeOptions } from './sanitize-html.ts';

type Node = TurndownService.Node;

const service = new TurndownService({
  headingStyle: 'atx',
  hr: '---',
  bulletListMarker: '-',
  codeBlockStyle: 'fenced',
  emDelimiter: '_',
  strongDelimiter: '**',
  linkStyle: 'inlined',
});
service.use(gfmPlugins.gfm);

// turndown escapes every text node with 13 regular expressions in a row (escape() is its documented hook).
// Text that has none of the characters they look for (most text) comes back unchanged from all 13, so it skips
// them.
const escapeAll = service.escape.bind(service);
const ESCAPED_AT_START = /^[-+=#~>0-9]/;
service.escape = (text) => (mayNeedEscapes(text) ? escapeAll(text) : text);

// Native substring scans: several are still much cheaper than one character-class regular expression.
function mayNeedEscapes(text: string): boolean {
  return (
    text.indexOf('\\') >= 0 || text.indexOf('*') >= 0 || text.indexOf('`') >= 0 || text.indexOf('[') >= 0 ||
    text.indexOf(']') >= 0 || text.indexOf('_') >= 0 || ESCAPED_AT_START.test(text)
  );
}

// Rules added later win over earlier ones (and over the plugin's).

// Every <pre> becomes a fence, with or without an inner <code>, labelled with the language class when there is
// one; <br> inside counts as a line break. The fence outgrows any backtick run in the code.
service.addRule('preformatted', {
  filter: 'pre',
  replacement: (_content, node) => {
    const code = preText(node).replace(/^\n+|\s+$/g, '');
    if (code === '') return '';
    const language = languageOf(node);
    let longest = 0;
    for (const run of code.match(/`+/g) ?? []) longest = Math.max(longest, run.length);
    const fence = '`'.repeat(Math.max(3, longest + 1));
    return `\n\n${fence}${language}\n${code}\n${fence}\n\n`;
  },
});

// GFM cells hold one line: block content inside a cell is joined with spaces and pipes are escaped.
service.addRule('tableCellOneLine', {
  filter: ['th', 'td'],
  replacement: (content, node) => {
    const text = content.replace(/\s*\n+\s*/g, ' ').replace(/\|/g, '\\|').trim();
    return isFirstCell(node) ? `| ${text} |` : ` ${text} |`;
  },
});

// List items with a one-space marker ("- item", "3. item"), continuation lines indented to the item's text.
service.addRule('listItemCompact', {
  filter: 'li',
  replacement: (content, node) => {
    const parent = node.parentNode;
    let marker = '- ';
    if (parent !== null && parent.nodeName === 'OL') {
      const start = Number(parent.getAttribute?.('start') ?? '1');
      marker = `${(Number.isFinite(start) ? start : 1) + itemIndex(parent, node)}. `;
    }
    const endsWithParagraph = /\n$/.test(content);
    const body = content.replace(/^\n+|\n+$/g, '') + (endsWithParagraph ? '\n' : '');
    const indented = body.replace(/\n/g, `\n${' '.repeat(marker.length)}`);
    return marker + indented + (node.nextSibling !== null ? '\n' : '');
  },
});

// Inline data: images would put kilobytes of base64 into the Markdown; keep their alt text only.
service.addRule('dataImage', {
  filter: (node) => node.nodeName === 'IMG' && /^\s*data:/i.test(node.getAttribute?.('src') ?? ''),
  replacement: (_content, node) => node.getAttribute?.('alt') ?? '',
});

// A link with nothing to show (its icon or button was dropped) would print as "[](url)".
service.addRule('emptyLink', {
  filter: (node) => node.nodeName === 'A' && (node.textContent ?? '').trim() === '' && !hasImage(node),
  replacement: () => '',
});

/** Markdown of a content subtree; baseUrl resolves its links and images. */
export function contentToMarkdown(root: DomElement | DomDocument, baseUrl: string): string {
  const options = (): SerializeOptions => ({ baseUrl, rename: markdownShaper(), markdownAttributes: true });
  const builder = new MarkdownTreeBuilder();
  walkSanitized(root, options(), builder);
  // Markup the HTML parser would rearrange: let it (rare, see markdown-tree.ts).
  if (builder.failed) return htmlToMarkdown(serializeSanitized(root, options()));
  if (builder.root.firstChild === null) return '';
  return tidy(service.turndown(builder.root));
}

/** Markdown of an HTML string, parsed by turndown's own parser (domino): the reference the tests compare with. */
export function htmlToMarkdown(html: string): string {
  if (html.trim() === '') return '';
  return tidy(service.turndown(html));
}

/** Trailing spaces and tabs of every line dropped, at most one blank line in a row, ends trimmed. */
function tidy(markdown: string): string {
  // Line by line, the same as the two replacements of the fallback, which try a match at every space of the
  // text. The fallback stays for text with CR, U+2028 or U+2029, which end lines for $ too.
  if (markdown.indexOf('\r') >= 0 || markdown.indexOf('\u2028') >= 0 || markdown.indexOf('\u2029') >= 0) return markdown.replace(/[ \t]+$/gm, '').replace(/\n{3,}/g, '\n\n').trim();
  let out = '';
  let breaks = 0;
  for (let start = 0; start <= markdown.length; ) {
    let end = markdown.indexOf('\n', start);
    if (end < 0) end = markdown.length;
    let last = end;
    while (last > start && (markdown.charCodeAt(last - 1) === 32 || markdown.charCodeAt(last - 1) === 9)) last--;
    if (last > start) {
      out += (breaks === 0 ? '' : breaks === 1 ? '\n' : '\n\n') + markdown.slice(start, last);
      breaks = 0;
    }
    if (end < markdown.length) breaks++;
    start = end + 1;
  }
  return out.trim();
}

// Highlighters often put each code line in its own block element instead of ending it with a newline.
const LINE_ELEMENTS = new Set(['DIV', 'P', 'LI', 'TR']);
const LINE_END = Symbol('line end');

/** The code's text: <br> and the end of a line element count as line breaks. */
function preText(pre: Node): string {
  let text = '';
  const stack: (Node | typeof LINE_END)[] = [pre];
  while (stack.length > 0) {
    const node = stack.pop()!;
    if (node === LINE_END) {
      if (text !== '' && !text.endsWith('\n')) text += '\n';
    } else if (node.nodeType === 3) text += node.nodeValue ?? '';
    else if (node.nodeName === 'BR') text += '\n';
    else {
      if (LINE_ELEMENTS.has(node.nodeName)) stack.push(LINE_END);
      for (let i = node.childNodes.length - 1; i >= 0; i--) stack.push(node.childNodes[i]);
    }
  }
  return text;
}

function languageOf(pre: Node): string {
  const own = /language-(\S+)/.exec(pre.className ?? '')?.[1];
  if (own !== undefined) return own;
  const first = pre.firstChild;
  return (first !== null && first.nodeName === 'CODE' && /language-(\S+)/.exec(first.className ?? '')?.[1]) || '';
}

// Item positions per ordered list, computed once per list (indexOf per item would be quadratic).
const itemIndexes = new WeakMap<Node, Map<Node, number>>();

function itemIndex(list: Node, item: Node): number {
  let indexes = itemIndexes.get(list);
  if (indexes === undefined) {
    indexes = new Map();
    const children = list.children ?? [];
    for (let i = 0; i < children.length; i++) indexes.set(children[i], i);
    itemIndexes.set(list, indexes);
  }
  return indexes.get(item) ?? 0;
}

function hasImage(node: Node): boolean {
  const stack: Node[] = [node];
  while (stack.length > 0) {
    const current = stack.pop()!;
    if (current.nodeName === 'IMG') return true;
    for (let i = 0; i < current.childNodes.length; i++) stack.push(current.childNodes[i]);
  }
  return false;
}

function isFirstCell(cell: Node): boolean {
  const siblings = cell.parentNode?.childNodes;
  if (siblings === undefined) return true;
  for (let i = 0; i < siblings.length; i++) {
    const sibling = siblings[i];
    if (sibling.nodeName === 'TD' || sibling.nodeName === 'TH') return sibling === cell;
  }
  return true;
}
