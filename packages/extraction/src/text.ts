import { isElement, type DomElement, type DomNode } from '@trawl/content';

// Elements whose boundaries separate words: their text never glues to what precedes or follows them.
const BLOCK = new Set([
  'address', 'article', 'aside', 'blockquote', 'br', 'caption', 'dd', 'details', 'dialog', 'div', 'dl', 'dt',
  'fieldset', 'figcaption', 'figure', 'footer', 'form', 'h1', 'h2', 'h3', 'h4', 'h5', 'h6', 'header', 'hgroup',
  'hr', 'legend', 'li', 'main', 'menu', 'nav', 'ol', 'option', 'p', 'pre', 'section', 'summary', 'table', 'tbody',
  'td', 'tfoot', 'th', 'thead', 'tr', 'ul', 'img', 'input', 'select', 'textarea', 'button', 'video', 'audio', 'iframe',
]);

/** Never text: their content is code or markup for later. */
export const NOT_TEXT = new Set(['script', 'style', 'template', 'noscript']);

const SEPARATOR = Symbol('separator');

/**
 * The element's descendant text: whitespace collapsed and trimmed, a space at every block boundary and <br>, text
 * of script, style, template and noscript descendants left out (the element itself may be one: a
 * `script[type="application/ld+json"]` field gives its JSON). Iterative: pages can be thousands of levels deep.
 */
export function elementText(el: DomElement): string {
  let out = '';
  const stack: (DomNode | typeof SEPARATOR)[] = [];
  for (let i = el.children.length - 1; i >= 0; i--) stack.push(el.children[i]);
  while (stack.length > 0) {
    const node = stack.pop()!;
    if (node === SEPARATOR) {
      out += ' ';
      continue;
    }
    if (node.type === 'text') {
      out += node.data;
      continue;
    }
    if (!isElement(node) || NOT_TEXT.has(node.name)) continue;
    if (BLOCK.has(node.name)) {
      out += ' ';
      stack.push(SEPARATOR);
    }
    for (let i = node.children.length - 1; i >= 0; i--) stack.push(node.children[i]);
  }
  return collapse(out);
}

export function collapse(text: string): string {
  return text.replace(/\s+/g, ' ').trim();
}

const SHAPE_LENGTH = 12;
const CURRENCY = /\p{Sc}/u;
const LETTER = /\p{L}/u;
const PUNCTUATION = '.,:;/%-+()#@';
const NUMBER = /\p{N}/u;

/**
 * A short signature of a text's shape, never its content: runs of digits become `9`, runs of letters `a`,
 * whitespace ` `, currency symbols `$`, punctuation `.,:;/%-+()#@` as is, anything else `?`, cut to 12
 * characters. "$1,299.00" → "$9,9.9"; "Jan 3, 2024" → "a 9, 9".
 */
export function textShape(text: string): string {
  let shape = '';
  let last = '';
  for (let i = 0; i < text.length; i++) {
    const code = text.charCodeAt(i);
    let cls: string;
    if (code >= 48 && code <= 57) cls = '9';
    else if ((code >= 97 && code <= 122) || (code >= 65 && code <= 90)) cls = 'a';
    else if (code === 32) cls = ' ';
    else if (code < 128) cls = code === 36 ? '$' : PUNCTUATION.includes(text[i]) ? text[i] : '?';
    else {
      // Outside ASCII: one code point (a surrogate pair counts once), classified by Unicode property.
      const char = String.fromCodePoint(text.codePointAt(i)!);
      if (char.length === 2) i++;
      cls = LETTER.test(char) ? 'a' : CURRENCY.test(char) ? '$' : NUMBER.test(char) ? '9' : '?';
    }
    if (cls === last && (cls === '9' || cls === 'a' || cls === ' ')) continue;
    shape += cls;
    last = cls;
    if (shape.length >= SHAPE_LENGTH) break;
  }
  return shape;
}

/** 0 for 0, then 1 + floor(log2(n)), capped at 15: lengths and counts compared by order of magnitude. */
export function bucket(n: number): number {
  if (n <= 0) return 0;
  return Math.min(15, 1 + Math.floor(Math.log2(n)));
}

export function wordCount(text: string): number {
  if (text === '') return 0;
  let words = 1;
  for (let i = 0; i < text.length; i++) if (text.charCodeAt(i) === 32) words++;
  return words;
}
