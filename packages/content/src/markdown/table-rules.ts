// GFM tables that keep the page's grid. (Layout tables never get here: shape.ts turns them into plain
// blocks.) A GFM table needs a header row: a table without one gets an empty header row rather than its first
// data row promoted, which would change what the row means. Spanned cells are written as empty cells
// (colspan to the right, rowspan below), so no column shifts. A cell holds one line: its paragraphs, list
// items and line breaks are joined with <br> (the inline HTML GFM renders as a line break), bullets written
// as "• ", pipes escaped. The caption becomes a paragraph before the table.
import type TurndownService from 'turndown';
import { joinLines, trimLines } from './block-rules.ts';

type Node = TurndownService.Node;

// Bounds for hostile spans: a cell spans at most MAX_SPAN columns and a row is padded to MAX_COLUMNS at most.
const MAX_SPAN = 100;
const MAX_COLUMNS = 1000;

interface Layout {
  columns: number;
  header: boolean;
  /** The first row with cells: where the header (and its delimiter row) is written. */
  first: Node | null;
  /** Per cell, the empty cells written before it (columns held by rowspans from above) and its span. */
  cells: Map<Node, { before: number; span: number }>;
  /** Per row, the column after its last cell. */
  ends: Map<Node, number>;
}

const layouts = new WeakMap<Node, Layout>();
const captions = new WeakMap<Node, string>();

export function addTableRules(service: TurndownService): void {
  service.addRule('tableSection', {
    filter: ['thead', 'tbody', 'tfoot'],
    replacement: (content) => content,
  });

  service.addRule('tableCaption', {
    filter: 'caption',
    replacement: (content, node) => {
      if (node.parentNode !== null) captions.set(node.parentNode, trimLines(content));
      return '';
    },
  });

  service.addRule('tableCell', {
    filter: ['th', 'td'],
    replacement: (content, node) => {
      const table = tableOf(node);
      const place = table === null ? undefined : layoutOf(table).cells.get(node);
      const text = cellText(content);
      if (place === undefined) return ` ${text} |`;
      return `${EMPTY_CELL.repeat(place.before)} ${text} |${EMPTY_CELL.repeat(place.span - 1)}`;
    },
  });

  service.addRule('tableRow', {
    filter: 'tr',
    replacement: (content, node) => {
      const table = tableOf(node);
      if (table === null) return `\n|${content}`;
      const layout = layoutOf(table);
      const end = layout.ends.get(node);
      if (end === undefined) return ''; // no cells
      const line = `\n|${content}${EMPTY_CELL.repeat(Math.max(0, layout.columns - end))}`;
      if (node !== layout.first) return line;
      const delimiter = `\n|${' --- |'.repeat(layout.columns)}`;
      return layout.header ? line + delimiter : `\n|${EMPTY_CELL.repeat(layout.columns)}${delimiter}${line}`;
    },
  });

  service.addRule('tableGrid', {
    filter: 'table',
    replacement: (content, node) => {
      const caption = captions.get(node) ?? '';
      const rows = content.replace(/^\n+|\n+$/g, '').replace(/\n{2,}/g, '\n');
      return `\n\n${caption === '' ? '' : `${caption}\n\n`}${rows}\n\n`;
    },
  });
}

const EMPTY_CELL = '  |';

/** One line of cell text. */
function cellText(content: string): string {
  const text = joinLines(content, '<br>', '<br>', bulletLine);
  return text.indexOf('|') >= 0 ? text.replace(/\|/g, '\\|') : text;
}

// A list item's "- " becomes a bullet a cell can show; a rule ("---") has no text to keep. Text never starts
// a line with these: a leading "-" is escaped.
function bulletLine(line: string): string {
  if (line === '---') return '';
  if (line === '-' || line.startsWith('- ')) return `•${line.slice(1)}`;
  return line;
}

function tableOf(node: Node): Node | null {
  for (let current = node.parentNode, depth = 0; current !== null && depth < 3; current = current.parentNode, depth++) {
    if (current.nodeName === 'TABLE') return current;
  }
  return null;
}

const SECTIONS = new Set(['THEAD', 'TBODY', 'TFOOT']);

/** The table's own rows in order (not those of tables nested in its cells). */
function rowsOf(table: Node): Node[] {
  const rows: Node[] = [];
  for (let child = table.firstChild; child !== null; child = child.nextSibling) {
    if (child.nodeName === 'TR') rows.push(child);
    else if (SECTIONS.has(child.nodeName)) {
      for (let row = child.firstChild; row !== null; row = row.nextSibling) if (row.nodeName === 'TR') rows.push(row);
    }
  }
  return rows;
}

function cellsOf(row: Node): Node[] {
  const cells: Node[] = [];
  for (let cell = row.firstChild; cell !== null; cell = cell.nextSibling) {
    if (cell.nodeName === 'TD' || cell.nodeName === 'TH') cells.push(cell);
  }
  return cells;
}

/** The grid of a table, computed once: which columns each cell starts at, as a browser lays them out. */
function layoutOf(table: Node): Layout {
  const known = layouts.get(table);
  if (known !== undefined) return known;
  const layout: Layout = { columns: 0, header: false, first: null, cells: new Map(), ends: new Map() };
  layouts.set(table, layout);
  // Per column, how many more rows (this one included) a rowspan from above holds it; rowspans end with their
  // row group.
  let held: number[] = [];
  let section: Node | null = null;
  for (const row of rowsOf(table)) {
    if (row.parentNode !== section) {
      section = row.parentNode;
      held = [];
    }
    const cells = cellsOf(row);
    if (cells.length === 0) continue;
    if (layout.first === null) {
      layout.first = row;
      layout.header = section !== null && (section.nodeName === 'THEAD' || cells.every((cell) => cell.nodeName === 'TH'));
    }
    let column = 0;
    for (const cell of cells) {
      let before = 0;
      while (held[column] > 0) {
        before++;
        column++;
      }
      const span = spanOf(cell, 'colspan', MAX_SPAN);
      const down = spanOf(cell, 'rowspan', 65534);
      for (let c = column; c < column + span && c < MAX_COLUMNS; c++) held[c] = Math.max(held[c] ?? 0, down);
      layout.cells.set(cell, { before, span });
      column += span;
    }
    while (held[column] > 0) column++;
    layout.ends.set(row, column);
    layout.columns = Math.min(MAX_COLUMNS, Math.max(layout.columns, column));
    for (let c = 0; c < held.length; c++) if (held[c] > 0) held[c]--;
  }
  return layout;
}

function spanOf(cell: Node, name: string, max: number): number {
  const value = Number.parseInt(cell.getAttribute?.(name) ?? '', 10);
  return Number.isFinite(value) && value >= 1 ? Math.min(value, max) : 1;
}
