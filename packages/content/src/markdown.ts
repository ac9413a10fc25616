// The only module that touches turndown and turndown-plugin-gfm. Input is HTML we serialized ourselves
// (sanitized, absolute URLs, tables already shaped for GFM by sanitize-html.ts).
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
      const index = Array.prototype.indexOf.call(parent.children ?? [], node);
      marker = `${(Number.isFinite(start) ? start : 1) + Math.max(0, index)}. `;
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

function preText(pre: Node): string {
  const parts: string[] = [];
  const stack: Node[] = [pre];
  while (stack.length > 0) {
    const node = stack.pop()!;
    if (node.nodeType === 3) parts.push(node.nodeValue ?? '');
    else if (node.nodeName === 'BR') parts.push('\n');
    else for (let i = node.childNodes.length - 1; i >= 0; i--) stack.push(node.childNodes[i]);
  }
  return parts.join('');
}

function languageOf(pre: Node): string {
  const own = /language-(\S+)/.exec(pre.className ?? '')?.[1];
  if (own !== undefined) return own;
  const first = pre.firstChild;
  return (first !== null && first.nodeName === 'CODE' && /language-(\S+)/.exec(first.className ?? '')?.[1]) || '';
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
