// HTML whitespace collapsing exactly as turndown 7.2.5 does it before converting (its collapseWhitespace, from
// collapse-whitespace): same walk, same rules, same results, including the empty text nodes it leaves behind at
// block boundaries, which later rules can see. turndown's own pass runs a regular expression replacement over
// every text and a " $" test over the previous text for each one, a quarter of the whole conversion; this one
// looks at the ends of the texts only and rewrites a text only when it has a run to collapse.
import type { MarkdownNode } from './markdown-dom.ts';

// turndown's block and void element lists.
const BLOCK = new Set([
  'ADDRESS', 'ARTICLE', 'ASIDE', 'AUDIO', 'BLOCKQUOTE', 'BODY', 'CANVAS', 'CENTER', 'DD', 'DIR', 'DIV', 'DL', 'DT',
  'FIELDSET', 'FIGCAPTION', 'FIGURE', 'FOOTER', 'FORM', 'FRAMESET', 'H1', 'H2', 'H3', 'H4', 'H5', 'H6', 'HEADER',
  'HGROUP', 'HR', 'HTML', 'ISINDEX', 'LI', 'MAIN', 'MENU', 'NAV', 'NOFRAMES', 'NOSCRIPT', 'OL', 'OUTPUT', 'P', 'PRE',
  'SECTION', 'TABLE', 'TBODY', 'TD', 'TFOOT', 'TH', 'THEAD', 'TR', 'UL',
]);
const VOID = new Set([
  'AREA', 'BASE', 'BR', 'COL', 'COMMAND', 'EMBED', 'HR', 'IMG', 'INPUT', 'KEYGEN', 'LINK', 'META', 'PARAM', 'SOURCE',
  'TRACK', 'WBR',
]);
const TEXT_NODE = 3;
const SPACE = 32;

/** Whether turndown treats an element of this (upper-case) name as a block. */
export function isBlockName(name: string): boolean {
  return BLOCK.has(name);
}

/**
 * Collapses the whitespace of root's subtree in place. Text outside <pre> has its runs of spaces, tabs and line
 * breaks made one space; a space is dropped at the start of a line box (after a block, a <br> or the start) and
 * after a space; a text left empty is removed. Elements are visited on the way down and again on the way up.
 */
export function collapseWhitespace(root: MarkdownNode): void {
  if (root.firstChild === null || root.nodeName === 'PRE') return;
  let prevText: MarkdownNode | null = null;
  let keepLeadingSpace = false;

  const visitElement = (el: MarkdownNode): void => {
    if (BLOCK.has(el.nodeName) || el.nodeName === 'BR') {
      if (prevText !== null) prevText.text = withoutTrailingSpace(prevText.text);
      prevText = null;
      keepLeadingSpace = false;
    } else if (VOID.has(el.nodeName) || el.nodeName === 'PRE') {
      prevText = null;
      keepLeadingSpace = true; // spaces around an image or an inline <pre> stay
    } else if (prevText !== null) {
      keepLeadingSpace = false;
    }
  };

  // The node after node in the walk, visiting on the way up every element left; null at the end of root.
  const following = (node: MarkdownNode): MarkdownNode | null => {
    let current = node;
    while (current.nextSibling === null) {
      const parent = current.parentNode;
      if (parent === null || parent === root) return null;
      visitElement(parent);
      current = parent;
    }
    return current.nextSibling;
  };

  let node: MarkdownNode | null = root.firstChild;
  while (node !== null) {
    if (node.nodeType === TEXT_NODE) {
      let text = collapseRuns(node.text);
      const afterSpace = prevText === null || prevText.text.charCodeAt(prevText.text.length - 1) === SPACE;
      if (afterSpace && !keepLeadingSpace && text.charCodeAt(0) === SPACE) text = text.slice(1);
      if (text === '') {
        const next = following(node);
        node.parentNode!.removeChild(node);
        node = next;
        continue;
      }
      node.text = text;
      prevText = node;
      node = following(node);
      continue;
    }
    visitElement(node);
    if (node.firstChild !== null && node.nodeName !== 'PRE') node = node.firstChild;
    else node = following(node);
  }
  if (prevText !== null) {
    const last: MarkdownNode = prevText;
    last.text = withoutTrailingSpace(last.text);
    if (last.text === '') last.parentNode!.removeChild(last);
  }
}

function withoutTrailingSpace(text: string): string {
  return text.charCodeAt(text.length - 1) === SPACE ? text.slice(0, -1) : text;
}

/** Runs of spaces, tabs, CR and LF made one space. */
function collapseRuns(text: string): string {
  // Most texts have single spaces only: four native scans are much cheaper than the replacement.
  if (text.indexOf('\n') < 0 && text.indexOf('\t') < 0 && text.indexOf('\r') < 0 && text.indexOf('  ') < 0) return text;
  return text.replace(/[ \r\n\t]+/g, ' ');
}
