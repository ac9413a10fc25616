// Block rules: fenced code with its language, one-line ATX headings, compact list items and definition lists.
import type TurndownService from 'turndown';

type Node = TurndownService.Node;

export function addBlockRules(service: TurndownService): void {
  // Every <pre> becomes a fence, with or without an inner <code>, labelled with its language (the sanitizer
  // gathers it from classes, data-lang and highlighter wrappers into class="language-x"); <br> inside counts
  // as a line break. The fence outgrows any backtick run in the code. In a list item the item's indentation
  // is added to every line, which keeps the fence inside the item.
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

  // An ATX heading is one line: its line breaks become <br> (inline HTML, as in table cells), blocks inside it
  // spaces. A final " #" run would be read as the closing sequence and dropped, so it is escaped.
  service.addRule('headingOneLine', {
    filter: ['h1', 'h2', 'h3', 'h4', 'h5', 'h6'],
    replacement: (content, node) => {
      const text = joinLines(content, ' ', '<br>').replace(/(^|[ \t])(#+)$/, '$1\\$2');
      if (text === '') return '\n\n';
      return `\n\n${'#'.repeat(Number(node.nodeName.charAt(1)))} ${text}\n\n`;
    },
  });

  // A list nested in an item follows the item's text on the next line, except where CommonMark would not let
  // it interrupt that text (an ordered list not starting at 1, or an empty first item): a blank line then.
  service.addRule('list', {
    filter: ['ul', 'ol'],
    replacement: (content, node) => {
      const parent = node.parentNode;
      const lastElement = (parent as { lastElementChild?: Node | null } | null)?.lastElementChild;
      if (parent !== null && parent.nodeName === 'LI' && lastElement === node && mayInterrupt(node)) return `\n${content}`;
      return `\n\n${content}\n\n`;
    },
  });

  // List items with a one-space marker ("- item", "3. item"), continuation lines indented to the item's text.
  service.addRule('listItemCompact', {
    filter: 'li',
    replacement: (content, node) => {
      const parent = node.parentNode;
      let marker = '- ';
      if (parent !== null && parent.nodeName === 'OL') marker = `${startOf(parent) + itemIndex(parent, node)}. `;
      const endsWithParagraph = /\n$/.test(content);
      const body = content.replace(/^\n+|\n+$/g, '') + (endsWithParagraph ? '\n' : '');
      const indented = body.replace(/\n/g, `\n${' '.repeat(marker.length)}`);
      return marker + indented + (node.nextSibling !== null ? '\n' : '');
    },
  });

  // Definition lists: the term as a bold line, each definition as the paragraphs that follow it. Markdown has
  // no definition list; this keeps the pairing visible without markup a renderer would print as text.
  service.addRule('definitionTerm', {
    filter: 'dt',
    replacement: (content) => {
      const text = trimLines(content);
      // A term made of blocks is left as they are; otherwise it is bold (its own <b> adds nothing), with
      // whitespace at its edges (no-break spaces) outside the delimiters, which it would keep from opening.
      const [, lead, body, trail] = /^(\s*)([\s\S]*?)(\s*)$/.exec(text)!;
      if (body === '' || /\n\n/.test(body)) return `\n\n${text}\n\n`;
      return `\n\n${lead}**${body}**${trail}\n\n`;
    },
  });

  service.addRule('definitionDescription', {
    filter: 'dd',
    replacement: (content) => `\n\n${trimLines(content)}\n\n`,
  });
}

/** Spaces, tabs and newlines trimmed, not other whitespace: a no-break space before ">" keeps it text. */
export function trimLines(text: string): string {
  // By index, not a regex: an end-anchored class tried at every whitespace run of a page's Markdown was 2% of
  // a content thread.
  let start = 0;
  let end = text.length;
  while (start < end && isLineSpace(text.charCodeAt(start))) start++;
  while (end > start && isLineSpace(text.charCodeAt(end - 1))) end--;
  return start === 0 && end === text.length ? text : text.slice(start, end);
}

/** Space, tab, newline, carriage return, form feed. */
const isLineSpace = (c: number) => c === 32 || c === 9 || c === 10 || c === 13 || c === 12;

/**
 * The lines of a Markdown fragment (its blocks, list items and hard-broken lines) joined into one line:
 * after a hard break with breakSeparator, else with separator. Indentation is dropped, blank lines skipped.
 */
export function joinLines(content: string, separator: string, breakSeparator = separator, mapLine?: (line: string) => string): string {
  if (content.indexOf('\n') < 0) return content.trim();
  let out = '';
  let broken = false;
  for (const raw of content.split('\n')) {
    let line = raw.trim();
    const hard = endsWithHardBreak(line);
    if (hard) line = line.slice(0, -1).trimEnd();
    if (mapLine !== undefined) line = mapLine(line);
    if (line !== '') {
      out += out === '' ? line : (broken ? breakSeparator : separator) + line;
      broken = false;
    }
    broken ||= hard;
  }
  return out;
}

/** An ordered list's first number; CommonMark markers are 0 to 999999999. */
function startOf(list: Node): number {
  const start = Number.parseInt(list.getAttribute?.('start') ?? '1', 10);
  return Number.isFinite(start) ? Math.min(Math.max(start, 0), 999_000_000) : 1;
}

function mayInterrupt(list: Node): boolean {
  if (list.nodeName === 'OL' && startOf(list) !== 1) return false;
  let first = list.firstChild;
  while (first !== null && first.nodeName !== 'LI') first = first.nextSibling;
  return first === null || (first.textContent ?? '').trim() !== '';
}

/** A line ending in an unescaped backslash (an odd run of them). */
function endsWithHardBreak(line: string): boolean {
  let slashes = 0;
  while (slashes < line.length && line.charCodeAt(line.length - 1 - slashes) === 92) slashes++;
  return slashes % 2 === 1;
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

const LANGUAGE = /(?:^|\s)language-(\S+)/;

/** The language class of the <pre>, else of its first element child when that is a <code>. */
function languageOf(pre: Node): string {
  const own = LANGUAGE.exec(pre.className ?? '')?.[1];
  if (own !== undefined) return own;
  let first = pre.firstChild;
  while (first !== null && first.nodeType === 3 && (first.nodeValue ?? '').trim() === '') first = first.nextSibling;
  return (first !== null && first.nodeName === 'CODE' && LANGUAGE.exec(first.className ?? '')?.[1]) || '';
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
