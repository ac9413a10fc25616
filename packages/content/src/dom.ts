// The only module that touches cheerio. It parses HTML with cheerio's htmlparser2 entry point (about six times
// faster than its parse5 one on real pages, and tolerant enough for extraction) and hands back the node tree typed
// by the small structural interfaces below, so the rest of the package does not depend on cheerio's types.
import { load } from 'cheerio/slim';

export interface DomText {
  type: 'text';
  data: string;
  parent: DomParent | null;
}

export interface DomElement {
  /** htmlparser2 gives script and style their own node types; every other element is 'tag'. */
  type: 'tag' | 'script' | 'style';
  /** Lower-case tag name. */
  name: string;
  /** Lower-case attribute names, entity-decoded values. */
  attribs: Record<string, string>;
  children: DomNode[];
  parent: DomParent | null;
}

/** Comments, doctype and processing instructions, CDATA: never content. */
export interface DomOther {
  type: 'comment' | 'directive' | 'cdata';
  parent: DomParent | null;
}

export interface DomDocument {
  type: 'root';
  children: DomNode[];
  parent: null;
}

export type DomNode = DomText | DomElement | DomOther;
export type DomParent = DomElement | DomDocument;

export function parseHtml(html: string): DomDocument {
  const $ = load(html);
  return $.root()[0] as unknown as DomDocument;
}

export function isElement(node: DomNode | DomDocument): node is DomElement {
  return node.type === 'tag' || node.type === 'script' || node.type === 'style';
}

/** A new text node, for the few places that replace a subtree by its text. */
export function createText(data: string, parent: DomParent | null): DomText {
  return { type: 'text', data, parent };
}

/** Concatenated text of a subtree, without recursion (documents can be thousands of levels deep). */
export function textContent(root: DomNode | DomDocument): string {
  if (root.type === 'text') return root.data;
  if (!isElement(root) && root.type !== 'root') return '';
  const parts: string[] = [];
  const stack: DomNode[] = [];
  for (let i = root.children.length - 1; i >= 0; i--) stack.push(root.children[i]);
  while (stack.length > 0) {
    const node = stack.pop()!;
    if (node.type === 'text') parts.push(node.data);
    else if (isElement(node)) for (let i = node.children.length - 1; i >= 0; i--) stack.push(node.children[i]);
  }
  return parts.join('');
}
