// The small DOM that turndown walks instead of a domino document. turndown reads only a handful of node
// properties (see the class below); building them straight from our own tree saves serializing the main content
// to HTML and parsing it again, which cost as much as the whole Markdown conversion. Private to the Markdown
// adapter: only the modules in this folder know about it.

import { collapseWhitespace } from './whitespace.ts';

const ELEMENT_NODE = 1;
const TEXT_NODE = 3;
const EMPTY: readonly MarkdownNode[] = Object.freeze([]);

// Serialized without an end tag (the HTML void elements).
const VOID_ELEMENTS = new Set(['AREA', 'BASE', 'BASEFONT', 'BGSOUND', 'BR', 'COL', 'EMBED', 'FRAME', 'HR', 'IMG', 'INPUT', 'KEYGEN', 'LINK', 'META', 'PARAM', 'SOURCE', 'TRACK', 'WBR']);

/**
 * What one tree shares: a version bumped by every mutation, and the text of the whole tree with each node's
 * span in it. turndown asks for the textContent of every node; slicing one string answers in O(1), where a walk
 * per call costs O(size) and the conversion O(size x depth).
 */
class TreeText {
  version = 0;
  indexedVersion = -1;
  text = '';

  constructor(readonly root: MarkdownNode) {}

  /** Computes every attached node's span of the tree text. */
  index(): void {
    const parts: string[] = [];
    let pos = 0;
    const version = this.version;
    const root = this.root;
    root.start = 0;
    root.stamp = version;
    let node = root.firstChild;
    while (node !== null) {
      node.stamp = version;
      node.start = pos;
      if (node.nodeType === TEXT_NODE) {
        parts.push(node.text);
        pos += node.text.length;
      } else if (node.firstChild !== null) {
        node = node.firstChild;
        continue;
      }
      node.end = pos;
      // Climb until there is a next sibling, closing the spans of the elements left behind.
      while (node !== root && node.nextSibling === null) {
        node = node.parentNode!;
        node.end = pos;
      }
      node = node === root ? null : node.nextSibling;
    }
    root.end = pos;
    this.text = parts.join('');
    this.indexedVersion = version;
  }
}

/** One element or text node. Property names follow the DOM, so turndown and its GFM plugin can read them. */
export class MarkdownNode {
  parentNode: MarkdownNode | null = null;
  firstChild: MarkdownNode | null = null;
  lastChild: MarkdownNode | null = null;
  nextSibling: MarkdownNode | null = null;
  previousSibling: MarkdownNode | null = null;
  // Set by turndown on every node it converts; declared here so that all nodes keep one shape.
  isBlock = false;
  isCode = false;
  isBlank = false;
  flankingWhitespace: unknown = null;
  /** Text of a text node. */
  text: string;
  /** Span in the tree text, valid while stamp equals the tree's version (kept by TreeText). */
  start = 0;
  end = 0;
  stamp = -1;
  private childList: MarkdownNode[] | null = null;
  private elementList: MarkdownNode[] | null = null;
  /** A root built for one conversion: turndown's copy of it is the tree itself (see cloneNode). */
  disposable = false;
  tree: TreeText;

  constructor(
    readonly nodeType: number,
    /** Upper-case tag name, or '#text'. */
    readonly nodeName: string,
    text: string,
    /** name, value, name, value... (elements only). */
    readonly attributes: string[] | null,
    tree: TreeText | null,
  ) {
    this.text = text;
    this.tree = tree ?? new TreeText(this);
  }

  get data(): string {
    return this.text;
  }

  set data(value: string) {
    this.text = value;
    this.tree.version++;
  }

  get nodeValue(): string | null {
    return this.nodeType === TEXT_NODE ? this.text : null;
  }

  set nodeValue(value: string | null) {
    if (this.nodeType === TEXT_NODE) this.data = value ?? '';
  }

  get textContent(): string {
    if (this.nodeType === TEXT_NODE) return this.text;
    const tree = this.tree;
    if (tree.indexedVersion !== tree.version) tree.index();
    if (this.stamp === tree.version) return tree.text.slice(this.start, this.end);
    return detachedText(this); // removed from the tree: not covered by the index
  }

  get childNodes(): readonly MarkdownNode[] {
    if (this.childList === null) {
      if (this.firstChild === null) return EMPTY;
      const list: MarkdownNode[] = [];
      for (let child: MarkdownNode | null = this.firstChild; child !== null; child = child.nextSibling) list.push(child);
      this.childList = list;
    }
    return this.childList;
  }

  /** Element children only. */
  get children(): readonly MarkdownNode[] {
    if (this.elementList === null) {
      const list: MarkdownNode[] = [];
      for (let child: MarkdownNode | null = this.firstChild; child !== null; child = child.nextSibling) {
        if (child.nodeType === ELEMENT_NODE) list.push(child);
      }
      this.elementList = list;
    }
    return this.elementList;
  }

  get lastElementChild(): MarkdownNode | null {
    let child = this.lastChild;
    while (child !== null && child.nodeType !== ELEMENT_NODE) child = child.previousSibling;
    return child;
  }

  get className(): string {
    return this.getAttribute('class') ?? '';
  }

  /** Table rows as domino gives them: every descendant <tr>, in document order. */
  get rows(): readonly MarkdownNode[] {
    return this.getElementsByTagName('tr');
  }

  get outerHTML(): string {
    return serialize(this);
  }

  getAttribute(name: string): string | null {
    const attributes = this.attributes;
    if (attributes === null) return null;
    for (let i = 0; i < attributes.length; i += 2) if (attributes[i] === name) return attributes[i + 1];
    return null;
  }

  getElementsByTagName(name: string): MarkdownNode[] {
    const wanted = name.toUpperCase();
    const found: MarkdownNode[] = [];
    forEachDescendant(this, (node) => {
      if (node.nodeType === ELEMENT_NODE && (wanted === '*' || node.nodeName === wanted)) found.push(node);
    });
    return found;
  }

  appendChild(child: MarkdownNode): MarkdownNode {
    child.parentNode = this;
    child.previousSibling = this.lastChild;
    child.nextSibling = null;
    if (this.lastChild === null) this.firstChild = child;
    else this.lastChild.nextSibling = child;
    this.lastChild = child;
    this.changed();
    return child;
  }

  removeChild(child: MarkdownNode): MarkdownNode {
    if (child.parentNode !== this) throw new Error('removeChild: not a child of this node');
    if (child.previousSibling === null) this.firstChild = child.nextSibling;
    else child.previousSibling.nextSibling = child.nextSibling;
    if (child.nextSibling === null) this.lastChild = child.previousSibling;
    else child.nextSibling.previousSibling = child.previousSibling;
    child.parentNode = null;
    child.previousSibling = null;
    child.nextSibling = null;
    this.changed();
    return child;
  }

  cloneNode(deep = false): MarkdownNode {
    if (this.disposable && deep) {
      // turndown deep-clones its input (it rewrites texts), collapses whitespace from clone.firstChild on, then
      // converts clone.childNodes. The tree was built for this one conversion, so it is used in place; its
      // whitespace is collapsed here, as turndown would, and the view handed back has no firstChild, which makes
      // turndown's own (much slower) pass a no-op. See whitespace.ts.
      this.disposable = false;
      collapseWhitespace(this);
      const view = new MarkdownNode(this.nodeType, this.nodeName, '', null, null);
      view.childList = this.childNodes.slice();
      return view;
    }
    const copy = new MarkdownNode(this.nodeType, this.nodeName, this.text, this.attributes?.slice() ?? null, null);
    if (deep) cloneChildren(this, copy);
    return copy;
  }

  private changed(): void {
    this.childList = null;
    this.elementList = null;
    this.tree.version++;
  }
}

/** A new element belonging to parent's tree (not yet attached). */
export function createElement(parent: MarkdownNode, name: string, attributes: string[] | null): MarkdownNode {
  return new MarkdownNode(ELEMENT_NODE, name, '', attributes, parent.tree);
}

export function createText(parent: MarkdownNode, data: string): MarkdownNode {
  return new MarkdownNode(TEXT_NODE, '#text', data, null, parent.tree);
}

/** The root of a new tree, which turndown may take over without copying it. */
export function createRoot(): MarkdownNode {
  const root = new MarkdownNode(ELEMENT_NODE, 'X-TURNDOWN', '', null, null);
  root.disposable = true;
  return root;
}

export function isText(node: MarkdownNode): boolean {
  return node.nodeType === TEXT_NODE;
}

function forEachDescendant(root: MarkdownNode, visit: (node: MarkdownNode) => void): void {
  let node = root.firstChild;
  while (node !== null) {
    visit(node);
    if (node.firstChild !== null) {
      node = node.firstChild;
      continue;
    }
    while (node !== root && node.nextSibling === null) node = node.parentNode!;
    node = node === root ? null : node.nextSibling;
  }
}

function detachedText(root: MarkdownNode): string {
  let text = '';
  forEachDescendant(root, (node) => {
    if (node.nodeType === TEXT_NODE) text += node.text;
  });
  return text;
}

function cloneChildren(from: MarkdownNode, to: MarkdownNode): void {
  const stack: [MarkdownNode, MarkdownNode][] = [[from, to]];
  while (stack.length > 0) {
    const [source, target] = stack.pop()!;
    for (let child = source.firstChild; child !== null; child = child.nextSibling) {
      const copy = new MarkdownNode(child.nodeType, child.nodeName, child.text, child.attributes?.slice() ?? null, target.tree);
      target.appendChild(copy);
      if (child.firstChild !== null) stack.push([child, copy]);
    }
  }
}

// HTML as domino writes it (turndown keeps tables without a header row as HTML): lower-case tag names, these
// escapes, no end tag for void elements.
function serialize(root: MarkdownNode): string {
  let out = '';
  const stack: (MarkdownNode | string)[] = [root];
  while (stack.length > 0) {
    const node = stack.pop()!;
    if (typeof node === 'string') {
      out += node;
      continue;
    }
    if (node.nodeType === TEXT_NODE) {
      out += escapeHtml(node.text, /[&<>\u00a0]/g);
      continue;
    }
    const tag = node.nodeName.toLowerCase();
    out += `<${tag}`;
    const attributes = node.attributes ?? [];
    for (let i = 0; i < attributes.length; i += 2) out += ` ${attributes[i]}="${escapeHtml(attributes[i + 1], /[&"<>\u00a0]/g)}"`;
    out += '>';
    if (VOID_ELEMENTS.has(node.nodeName)) continue;
    stack.push(`</${tag}>`);
    for (let child = node.lastChild; child !== null; child = child.previousSibling) stack.push(child);
  }
  return out;
}

const ESCAPES: Record<string, string> = { '&': '&amp;', '<': '&lt;', '>': '&gt;', '"': '&quot;', '\u00a0': '&nbsp;' };

function escapeHtml(text: string, specials: RegExp): string {
  return text.replace(specials, (c) => ESCAPES[c]);
}
