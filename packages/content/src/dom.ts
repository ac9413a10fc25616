// The typed view of the parsed page. Parsing itself is htmlparser2 (through html-parser.ts, under structural
// limits; about six times faster than parse5 on real pages, and tolerant enough for extraction); this module hands
// the node tree back typed by the small structural interfaces below, so the rest of the package does not depend on
// the parser's types.
import { parseLimited, type ParseLimits } from './html-parser.ts';

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

/** No limits: for tests and trusted snippets. Pages go through parseHtmlLimited. */
const UNLIMITED: ParseLimits = { maxDepth: Number.MAX_SAFE_INTEGER, maxElements: Number.MAX_SAFE_INTEGER };

export function parseHtml(html: string): DomDocument {
  return parseHtmlLimited(html, UNLIMITED).root;
}

export function parseHtmlLimited(html: string, limits: ParseLimits): { root: DomDocument; depthCapped: boolean; elementsCapped: boolean } {
  const r = parseLimited(html, limits);
  return { root: r.root as DomDocument, depthCapped: r.depthCapped, elementsCapped: r.elementsCapped };
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
