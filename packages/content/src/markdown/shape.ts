import { isElement, type DomElement, type DomNode } from '../dom.ts';
import type { Rename } from '../sanitize/sanitize-html.ts';

// Reshapes elements for the Markdown converter while they are serialized (the published HTML keeps the
// original shape): tables that arrange a page rather than hold data become plain blocks, and a Markdown link
// cannot span blocks, so block elements inside links are emitted inline. Wrappers that only hold blocks are
// left out, and spans too: the converter's cost grows with node count times depth, and neither changes the
// Markdown.

const BLOCK_TAGS = new Set([
  'address', 'article', 'aside', 'blockquote', 'center', 'dd', 'details', 'div', 'dl', 'dt', 'fieldset',
  'figcaption', 'figure', 'footer', 'header', 'hgroup', 'li', 'main', 'nav', 'ol', 'p', 'pre', 'section',
  'summary', 'table', 'tbody', 'td', 'tfoot', 'th', 'thead', 'tr', 'ul', 'caption',
]);
const HEADING_TAGS = new Set(['h1', 'h2', 'h3', 'h4', 'h5', 'h6']);

// Block containers with no Markdown form of their own.
const WRAPPERS = new Set([
  'div', 'section', 'article', 'main', 'header', 'footer', 'aside', 'nav', 'center', 'hgroup', 'figure',
  'address', 'details', 'fieldset', 'search',
]);
// Elements the converter renders as blocks of their own.
const OWN_BLOCKS = new Set(['p', 'ul', 'ol', 'dl', 'pre', 'blockquote', 'table', 'hr', ...HEADING_TAGS]);
// Phrasing elements we keep as they are; any other unknown tag (custom elements) is treated as a wrapper.
const PHRASING = new Set([
  'a', 'abbr', 'b', 'bdi', 'bdo', 'br', 'cite', 'code', 'data', 'del', 'dfn', 'em', 'i', 'img', 'ins', 'kbd',
  'mark', 'q', 'rp', 'rt', 'ruby', 's', 'samp', 'small', 'strike', 'strong', 'sub', 'sup', 'time', 'u', 'var',
  'wbr', 'label', 'span', 'font', 'picture', 'nobr', 'tt', 'big', 'output', 'meter', 'progress',
]);
// Phrasing elements with no Markdown form are left out (their text stays): besides saving nodes, this keeps a
// line's text in one text node, where escaping sees what starts the line ("<time>3</time>. x" is "3. x").
const UNWRAPPED_INLINE = new Set([
  'span', 'font', 'nobr', 'label', 'data', 'bdi', 'bdo', 'picture', 'abbr', 'cite', 'dfn', 'ins', 'kbd', 'mark',
  'q', 'samp', 'small', 'time', 'u', 'var', 'tt', 'big', 'output', 'meter', 'progress', 'wbr',
]);

/** A rename function for serializeSanitized; keeps per-table decisions for one serialization. */
export function markdownShaper(): (el: DomElement, context: { inLink: boolean; inPre: boolean }) => Rename {
  const layoutTables = new Set<DomElement>();
  return (el, { inLink, inPre }) => {
    if (inPre) return el.name; // code keeps its line structure; the converter reads its text
    if (inLink) {
      if (HEADING_TAGS.has(el.name)) return { name: 'strong', pad: true };
      if (BLOCK_TAGS.has(el.name)) return { name: null, pad: true };
      if (el.name === 'br' || el.name === 'hr') return { name: null, pad: true };
    }
    if (UNWRAPPED_INLINE.has(el.name)) return null;
    if (WRAPPERS.has(el.name) || !(PHRASING.has(el.name) || OWN_BLOCKS.has(el.name) || LIST_AND_TABLE.has(el.name))) {
      return holdsOnlyBlocks(el) ? null : 'div';
    }
    return tableShape(el, layoutTables);
  };
}

// Tags with their own structure rules (lists, definition lists, tables); never treated as wrappers.
const LIST_AND_TABLE = new Set([
  'li', 'dt', 'dd', 'table', 'thead', 'tbody', 'tfoot', 'tr', 'td', 'th', 'caption', 'colgroup', 'col', 'figcaption',
  'summary',
]);

const BLOCK_PARTS = new Set(['li', 'dt', 'dd', 'table']);

/** Whether every child is a block (or blank text), so leaving the element out cannot merge text across it. */
function holdsOnlyBlocks(el: DomElement): boolean {
  for (const child of el.children) {
    if (child.type === 'text') {
      if (child.data.trim() !== '') return false;
    } else if (isElement(child)) {
      const name = child.name;
      if (PHRASING.has(name) || (LIST_AND_TABLE.has(name) && !BLOCK_PARTS.has(name))) return false;
    }
  }
  return true;
}

const TABLE_PARTS = new Set(['table', 'thead', 'tbody', 'tfoot', 'tr', 'td', 'th', 'caption']);
// Lists and paragraphs fit in a GFM cell (joined with <br>); these do not.
const LAYOUT_MARKERS = new Set(['table', 'h1', 'h2', 'h3', 'h4', 'h5', 'h6', 'pre', 'blockquote', 'section', 'article', 'form']);
const LAYOUT_CELL_CHARS = 400;

/**
 * Tables used for layout (a single column or cell; nested tables, headings, code or long text in cells) are
 * emitted as plain blocks. Data tables stay tables, header row or not (table-rules.ts).
 */
function tableShape(el: DomElement, layoutTables: Set<DomElement>): string | null {
  if (!TABLE_PARTS.has(el.name)) return el.name;
  if (el.name === 'table') {
    if (!isLayoutTable(el)) return 'table';
    layoutTables.add(el);
    return 'div';
  }
  const table = enclosingTable(el);
  if (table !== null && layoutTables.has(table)) {
    return el.name === 'thead' || el.name === 'tbody' || el.name === 'tfoot' ? null : 'div';
  }
  return el.name;
}

function enclosingTable(el: DomElement): DomElement | null {
  for (let node = el.parent; node !== null && isElement(node); node = node.parent) if (node.name === 'table') return node;
  return null;
}

/** A table's own rows, in order, through thead/tbody/tfoot (not rows of tables nested in its cells). */
export function tableRows(table: DomElement): DomElement[] {
  const rows: DomElement[] = [];
  for (const child of table.children) {
    if (!isElement(child)) continue;
    if (child.name === 'tr') rows.push(child);
    else if (child.name === 'thead' || child.name === 'tbody' || child.name === 'tfoot') {
      for (const row of child.children) if (isElement(row) && row.name === 'tr') rows.push(row);
    }
  }
  return rows;
}

function isLayoutTable(table: DomElement): boolean {
  const rows = tableRows(table);
  if (rows.length === 0) return true;
  let maxCells = 0;
  for (const row of rows) {
    let cells = 0;
    for (const cell of row.children) {
      if (!isElement(cell) || (cell.name !== 'td' && cell.name !== 'th')) continue;
      cells++;
      if (holdsLayout(cell)) return true;
    }
    maxCells = Math.max(maxCells, cells);
  }
  return maxCells < 2;
}

/** Nested tables, headings, lists or long text in a cell: the table arranges a page, it does not hold data. */
function holdsLayout(cell: DomElement): boolean {
  let chars = 0;
  const stack: DomNode[] = [...cell.children];
  while (stack.length > 0) {
    const node = stack.pop()!;
    if (node.type === 'text') chars += node.data.length;
    if (!isElement(node)) continue;
    if (LAYOUT_MARKERS.has(node.name)) return true;
    stack.push(...node.children);
  }
  return chars > LAYOUT_CELL_CHARS;
}
