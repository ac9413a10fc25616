// Round-trip checks for the Markdown we produce: the Markdown is rendered back to HTML with markdown-it
// (CommonMark + GFM tables and strikethrough) and both sides are reduced to an outline of what a reader gets:
// the visible text per block, the grid of each data table, link and image targets and code languages.
//
// Renderings we chose that the outline accounts for on the source side (documented in the Markdown modules):
// - <sup>x</sup> and <sub>x</sub> are written as that inline HTML; with HTML rendering off the tags show as text
//   and are left out of the block text, and the superscripts and subscripts are compared on the rendering with
//   HTML on;
// - a table cell's blocks and line breaks are joined with <br> (text with HTML off), list items in a cell are
//   prefixed "• " (or "3. "): <br> is a line boundary on both sides and the source outline writes the markers;
// - a table without a header row gets an empty one: an all-empty first rendered row is expected then;
// - a layout table (fewer than two columns, or headings, code, quotes or tables in its cells) is its blocks;
// - a data: image is written as its alt text;
// - blocks inside a link are written inline, a heading there as bold text;
// - a link with nothing to show (no text, no image) is left out; a line break in a link is a space.
import MarkdownIt from 'markdown-it';
import { isElement, parseHtml, type DomDocument, type DomElement, type DomNode } from '../src/dom.ts';
import { normalizeContent } from '../src/index.ts';
import { tableRows } from '../src/markdown/shape.ts';

export const PAGE_URL = 'https://example.org/guide/page.html';

const textRenderer = new MarkdownIt({ html: false, linkify: false });
const htmlRenderer = new MarkdownIt({ html: true, linkify: false });

/** The Markdown the pipeline makes of a fragment, placed as a page's whole <main>. */
export function markdownOf(fragment: string): string {
  const html = `<!doctype html><html><head><title>t</title></head><body><main>${fragment}</main></body></html>`;
  return normalizeContent({ body: Buffer.from(html), contentType: 'text/html; charset=utf-8', url: PAGE_URL }).markdown;
}

export interface Outline {
  /** Visible text of each block outside data tables, whitespace collapsed, empty blocks left out. */
  blocks: string[];
  /** Each data table as rows of cell texts, one entry per grid column. */
  tables: string[][][];
  links: string[];
  images: string[];
  /** The language of each code block, '' for none. */
  languages: string[];
  /** Each superscript and subscript with something in it, as "sup:text". */
  scripts: string[];
}

/** Every way the rendered Markdown differs from the source fragment; empty when it is faithful. */
export function roundTripDifferences(fragment: string, markdown: string, baseUrl = PAGE_URL): string[] {
  const source = sourceOutline(fragment, baseUrl);
  const rendered = renderedOutline(markdown);
  const differences: string[] = [];
  const compare = (what: string, a: unknown, b: unknown) => {
    if (JSON.stringify(a) !== JSON.stringify(b)) differences.push(`${what}: source ${JSON.stringify(a)} rendered ${JSON.stringify(b)}`);
  };
  compare('blocks', source.blocks, rendered.blocks);
  compare('tables', source.tables, rendered.tables);
  compare('links', source.links, rendered.links);
  compare('images', source.images, rendered.images);
  compare('code languages', source.languages, rendered.languages);
  compare('superscripts and subscripts', source.scripts, scriptsOf(parseHtml(htmlRenderer.render(markdown))));
  return differences;
}

/** The outline of a source fragment, as a browser would show it. */
export function sourceOutline(fragment: string, baseUrl = PAGE_URL): Outline {
  const outline = emptyOutline();
  walk(parseHtml(fragment), outline, { baseUrl, source: true });
  return outline;
}

/** The outline of Markdown rendered by markdown-it with raw HTML off. */
export function renderedOutline(markdown: string): Outline {
  const outline = emptyOutline();
  walk(parseHtml(textRenderer.render(markdown)), outline, { baseUrl: PAGE_URL, source: false });
  return outline;
}

// Element names a source element may turn into once written as Markdown and rendered (any text may also end
// up in a <p>). Names not listed map to nothing (wrappers, spans).
const RENDERED_AS: Record<string, string[]> = {
  b: ['strong'], strong: ['strong'], i: ['em'], em: ['em'], del: ['s'], s: ['s'], strike: ['s'],
  a: ['a'], img: ['img'], code: ['code'], pre: ['pre', 'code'], br: ['br'], hr: ['hr'], sup: ['sup'], sub: ['sub'],
  // a heading inside a link is written bold
  h1: ['h1', 'strong'], h2: ['h2', 'strong'], h3: ['h3', 'strong'], h4: ['h4', 'strong'], h5: ['h5', 'strong'],
  h6: ['h6', 'strong'], blockquote: ['blockquote'],
  ul: ['ul', 'li'], ol: ['ol', 'li'], li: ['li'], dt: ['strong'],
  // cells hold their blocks joined with <br>
  table: ['table', 'thead', 'tbody', 'tr', 'th', 'td', 'br'],
};

/**
 * Element names in the rendered Markdown (with raw HTML both off and on) that nothing in the source accounts
 * for: text read as markup (a list from "1) x", a heading from "#", a <div> from escaped "&lt;div&gt;").
 */
export function foreignElements(fragment: string, markdown: string): string[] {
  const allowed = new Set(['p']);
  for (const name of elementNames(parseHtml(fragment))) for (const rendered of RENDERED_AS[name] ?? []) allowed.add(rendered);
  const found = new Set([...elementNames(parseHtml(textRenderer.render(markdown))), ...elementNames(parseHtml(htmlRenderer.render(markdown)))]);
  return [...found].filter((name) => !allowed.has(name)).sort();
}

function elementNames(root: DomDocument): Set<string> {
  const names = new Set<string>();
  const stack: DomNode[] = [...root.children];
  while (stack.length > 0) {
    const node = stack.pop()!;
    if (!isElement(node)) continue;
    names.add(node.name);
    stack.push(...node.children);
  }
  return names;
}

function emptyOutline(): Outline {
  return { blocks: [], tables: [], links: [], images: [], languages: [], scripts: [] };
}

function scriptsOf(root: DomDocument): string[] {
  const scripts: string[] = [];
  const visitScripts = (node: DomNode) => {
    if (!isElement(node)) return;
    if (isScript(node)) scripts.push(`${node.name}:${normalizeText(textOf(node))}`);
    node.children.forEach(visitScripts);
  };
  root.children.forEach(visitScripts);
  return scripts;
}

const BLOCKS = new Set([
  'p', 'div', 'h1', 'h2', 'h3', 'h4', 'h5', 'h6', 'ul', 'ol', 'li', 'blockquote', 'pre', 'table', 'thead', 'tbody',
  'tfoot', 'tr', 'td', 'th', 'caption', 'dl', 'dt', 'dd', 'hr', 'section', 'article', 'main', 'figure',
  'figcaption', 'header', 'footer', 'aside', 'address', 'details', 'summary', 'body', 'html',
]);
const LAYOUT_IN_CELL = new Set(['table', 'h1', 'h2', 'h3', 'h4', 'h5', 'h6', 'pre', 'blockquote', 'section', 'article', 'form']);
const SAFE_SCHEME = /^(https?|mailto|tel|ftp):/i;

interface Context {
  baseUrl: string;
  source: boolean;
}

/** Text collected into blocks: a boundary ends the current block. */
class BlockText {
  readonly blocks: string[] = [];
  private current = '';

  add(text: string): void {
    this.current += text;
  }

  boundary(): void {
    // A <br> written as text (a cell's line joins, or text that says "<br>") is a line boundary too.
    for (const part of this.current.split('<br>')) {
      const text = normalizeText(part.replace(SCRIPT_TAGS, ''));
      if (text !== '') this.blocks.push(text);
    }
    this.current = '';
  }
}

const SCRIPT_TAGS = /<\/?su[pb]>/g;

/** Whitespace collapsed (no-break spaces too: turndown may move one out of a link or emphasis next to an
 * image, which doubles a space). */
function normalizeText(text: string): string {
  return text.replace(/\s+/g, ' ').trim();
}

function walk(root: DomDocument, outline: Outline, context: Context): void {
  const text = new BlockText();
  visit(root, text, outline, context, null);
  text.boundary();
  outline.blocks.push(...text.blocks);
}

/** Per enclosing cell of a data table: the markers its list items get. */
interface CellContext {
  lists: { ordered: boolean; next: number }[];
}

function visit(node: DomNode | DomDocument, text: BlockText, outline: Outline, context: Context, cell: CellContext | null): void {
  if (node.type === 'text') {
    text.add(node.data);
    return;
  }
  if (!isElement(node) && node.type !== 'root') return;
  const el = isElement(node) ? node : null;
  const name = el?.name ?? '';
  if (el !== null && ['script', 'style', 'template', 'noscript'].includes(name)) return;
  if (el !== null && name === 'table' && isDataTable(el, context)) {
    text.boundary();
    const caption = el.children.find((child): child is DomElement => isElement(child) && child.name === 'caption');
    if (caption !== undefined) {
      visit(caption, text, outline, context, null);
      text.boundary();
    }
    outline.tables.push(tableGrid(el, outline, context));
    return;
  }
  if (el !== null) {
    if (name === 'a' && context.source) {
      if (!isEmptyLink(el)) collectSourceLink(el, outline, context);
    } else if (name === 'a') outline.links.push(normalizeUrl(el.attribs.href ?? ''));
    if (name === 'img') {
      const src = el.attribs.src ?? '';
      if (context.source && /^\s*data:/i.test(src)) text.add(el.attribs.alt ?? '');
      else if (src !== '') outline.images.push(context.source ? normalizeUrl(resolve(src, context.baseUrl)) : normalizeUrl(src));
      return;
    }
    // A code block with no text shows nothing and is not written.
    if (name === 'pre' && normalizeText(textOf(el)) !== '') outline.languages.push(context.source ? sourceLanguage(el) : renderedLanguage(el));
    if (name === 'br') {
      if (context.source && inLink(el)) text.add(' ');
      else text.boundary();
      return;
    }
  }
  // Blocks inside a link are written inline, apart from their neighbours (a Markdown link cannot hold blocks).
  const padded = BLOCKS.has(name) && context.source && inLink(el);
  const block = BLOCKS.has(name) && !padded;
  if (block) text.boundary();
  if (padded) text.add(' ');
  if (context.source && cell !== null && (name === 'ul' || name === 'ol')) {
    cell.lists.push({ ordered: name === 'ol', next: Number.parseInt(el?.attribs.start ?? '1', 10) || 1 });
  }
  // A blank item is not written, nor its marker.
  if (context.source && cell !== null && name === 'li' && !isBlankElement(el!)) {
    const list = cell.lists[cell.lists.length - 1];
    if (list !== undefined) text.add(list.ordered ? `${list.next++}. ` : '• ');
  }
  if (context.source && el !== null && isScript(el)) outline.scripts.push(`${name}:${normalizeText(textOf(el))}`);
  for (const child of (el ?? (node as DomDocument)).children) visit(child, text, outline, context, cell);
  if (context.source && cell !== null && (name === 'ul' || name === 'ol')) cell.lists.pop();
  if (block) text.boundary();
  if (padded) text.add(' ');
}

function inLink(el: DomElement | null): boolean {
  for (let node = el?.parent ?? null; node !== null && isElement(node); node = node.parent) if (node.name === 'a') return true;
  return false;
}

function collectSourceLink(a: DomElement, outline: Outline, context: Context): void {
  const href = a.attribs.href;
  if (href === undefined || href.trim() === '') return;
  const resolved = resolve(href, context.baseUrl);
  if (SAFE_SCHEME.test(resolved)) outline.links.push(normalizeUrl(resolved));
}

/** turndown's blank elements, which it does not write: no text, no image or line break, no link or table. */
function isBlankElement(el: DomElement): boolean {
  const names = elementNames({ type: 'root', children: el.children, parent: null });
  return normalizeText(textOf(el)) === '' && !['img', 'br', 'a', 'table', 'td', 'th'].some((name) => names.has(name));
}

/** A superscript or subscript is written as such when it has text or an image. */
function isScript(el: DomElement): boolean {
  return (el.name === 'sup' || el.name === 'sub') && (normalizeText(textOf(el)) !== '' || elementNames({ type: 'root', children: el.children, parent: null }).has('img'));
}

/** A link with no text and no image is not written (its icon was dropped), line breaks in it included. */
function isEmptyLink(a: DomElement): boolean {
  return normalizeText(textOf(a)) === '' && !elementNames({ type: 'root', children: [a], parent: null }).has('img');
}

function tableGrid(table: DomElement, outline: Outline, context: Context): string[][] {
  const rows = tableRows(table);
  const grid: string[][] = [];
  const held: number[] = [];
  let width = 0;
  let section: DomNode | null = null;
  for (const row of rows) {
    if (row.parent !== section) {
      section = row.parent as DomNode;
      held.length = 0;
    }
    const line: string[] = [];
    let column = 0;
    for (const cell of row.children) {
      if (!isElement(cell) || (cell.name !== 'td' && cell.name !== 'th')) continue;
      while (held[column] > 0) line[column++] = '';
      const cellText = new BlockText();
      const cellContext: CellContext | null = context.source ? { lists: [] } : null;
      for (const child of cell.children) visit(child, cellText, outline, context, cellContext);
      cellText.boundary();
      const span = context.source ? Math.max(1, Number.parseInt(cell.attribs.colspan ?? '1', 10) || 1) : 1;
      const down = context.source ? Math.max(1, Number.parseInt(cell.attribs.rowspan ?? '1', 10) || 1) : 1;
      line[column] = cellText.blocks.join(' / ');
      for (let c = column; c < column + span; c++) {
        if (c > column) line[c] = '';
        held[c] = Math.max(held[c] ?? 0, down);
      }
      column += span;
    }
    while (held[column] > 0) line[column++] = '';
    for (let c = 0; c < held.length; c++) if (held[c] > 0) held[c]--;
    if (line.length === 0) continue;
    width = Math.max(width, line.length);
    grid.push(line);
  }
  for (const line of grid) while (line.length < width) line.push('');
  // A table without a header row is written with an empty one (its first row is data, not a header).
  if (context.source && grid.length > 0 && !hasHeaderRow(table)) grid.unshift(new Array<string>(width).fill(''));
  return grid;
}

/** Whether a table's first row is a header: in a <thead>, or made of <th> cells only. */
function hasHeaderRow(table: DomElement): boolean {
  const first = tableRows(table).find((row) => row.children.some((cell) => isElement(cell) && (cell.name === 'td' || cell.name === 'th')));
  if (first === undefined) return false;
  if (isElement(first.parent as DomNode) && (first.parent as DomElement).name === 'thead') return true;
  return first.children.every((cell) => !isElement(cell) || cell.name === 'th');
}

/** Source tables that stay tables: at least two columns and no page layout inside their cells. */
function isDataTable(table: DomElement, context: Context): boolean {
  if (!context.source) return true;
  let columns = 0;
  for (const row of tableRows(table)) {
    let cells = 0;
    for (const cell of row.children) {
      if (!isElement(cell) || (cell.name !== 'td' && cell.name !== 'th')) continue;
      cells++;
      const names = elementNames({ type: 'root', children: cell.children, parent: null });
      if ([...names].some((name) => LAYOUT_IN_CELL.has(name)) || normalizeText(textOf(cell)).length > 400) return false;
    }
    columns = Math.max(columns, cells);
  }
  return columns >= 2;
}

function textOf(node: DomNode): string {
  if (node.type === 'text') return node.data;
  if (!isElement(node)) return '';
  if (node.name === 'br') return ' ';
  return node.children.map(textOf).join('');
}

const SOURCE_LANGUAGE = /(?:^|\s)(?:highlight-(?:source|text)-([a-z0-9_+#]+)|(?:language-|lang-|highlight-)([a-z0-9_+#.-]+))/i;

/** A code block's language where pages put it: data-lang(uage), classes, or a highlighter wrapper's class. */
function sourceLanguage(pre: DomElement): string {
  const code = pre.children.find((child): child is DomElement => isElement(child) && child.name === 'code');
  for (const el of [pre, code]) {
    if (el === undefined) continue;
    const language = el.attribs['data-language'] ?? el.attribs['data-lang'] ?? classLanguage(el.attribs.class);
    if (language) return language.toLowerCase();
  }
  let wrapper = pre.parent;
  for (let level = 0; level < 3 && wrapper !== null && isElement(wrapper); level++, wrapper = wrapper.parent) {
    const language = /(?:^|\s)highlight-(?:(?:source|text)-)?([a-z0-9_+#]+)/i.exec(wrapper.attribs.class ?? '')?.[1];
    if (language) return language.toLowerCase();
  }
  return '';
}

function classLanguage(value: string | undefined): string | undefined {
  const match = SOURCE_LANGUAGE.exec(value ?? '');
  return match === null ? undefined : (match[1] ?? match[2]);
}

function renderedLanguage(pre: DomElement): string {
  const code = pre.children.find((child): child is DomElement => isElement(child) && child.name === 'code');
  return /(?:^|\s)language-(\S+)/.exec(code?.attribs.class ?? '')?.[1] ?? '';
}

function resolve(href: string, baseUrl: string): string {
  try {
    return new URL(href.trim(), baseUrl).href;
  } catch {
    return href;
  }
}

/** URLs compared as parsed: markdown-it percent-encodes what the URL parser may leave as it is. */
function normalizeUrl(url: string): string {
  try {
    return decodeURI(new URL(url).href);
  } catch {
    return url;
  }
}
