// The only module that touches turndown and turndown-plugin-gfm. Input is HTML we serialized ourselves
// (sanitized, absolute URLs, tables and links already shaped for Markdown by markdown-shape.ts).
import TurndownService from 'turndown';
import gfmPlugins from 'turndown-plugin-gfm';

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

export function htmlToMarkdown(html: string): string {
  if (html.trim() === '') return '';
  return tidy(service.turndown(html));
}

function tidy(markdown: string): string {
  return markdown.replace(/[ \t]+$/gm, '').replace(/\n{3,}/g, '\n\n').trim();
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
