// The adapter around css-what (parsing) and css-select (matching): the only module importing them. css-select
// runs over our parsed tree through the small adapter below, written against @trawl/content's structural Dom
// types (parent and children only; no reliance on the parser's prev/next links, so a tree the content step has
// edited still matches correctly).
import { compile, selectAll, selectOne, type Options } from 'css-select';
import { isTraversal, parse, stringify, type Selector } from 'css-what';
import { isElement, type DomDocument, type DomElement, type DomNode } from '@trawl/content';

type Node = DomNode | DomDocument;
type Query = ((el: DomElement) => boolean) & { shouldTestNextSiblings?: boolean };

/** A selector ready to run: compiled once, or per scope when it is relative (`> a`, `:scope`, `+ b`). */
export interface CompiledSelector {
  /** Compiled once; null for a relative selector, compiled per scope from relativeTokens. */
  readonly query: Query | null;
  readonly relativeTokens: Selector[][] | null;
}

const adapter = {
  isTag: (node: Node): node is DomElement => isElement(node),
  existsOne(test: (el: DomElement) => boolean, nodes: Node[]): boolean {
    return findFirst(test, nodes) !== null;
  },
  getAttributeValue: (el: DomElement, name: string): string | undefined => (Object.hasOwn(el.attribs, name) ? el.attribs[name] : undefined),
  getChildren: (node: Node): Node[] => (node.type === 'root' || isElement(node) ? node.children : []),
  getName: (el: DomElement): string => el.name,
  getParent: (node: Node): Node | null => node.parent,
  getSiblings: (node: Node): Node[] => (node.parent === null ? [node] : node.parent.children),
  prevElementSibling(node: Node): DomElement | null {
    if (node.parent === null) return null;
    const siblings = node.parent.children;
    for (let i = indexAmongSiblings(node as DomNode, siblings) - 1; i >= 0; i--) {
      const sibling = siblings[i];
      if (isElement(sibling)) return sibling;
    }
    return null;
  },
  getText: (node: Node): string => rawText(node),
  hasAttrib: (el: DomElement, name: string): boolean => Object.hasOwn(el.attribs, name),
  removeSubsets(nodes: Node[]): Node[] {
    const given = new Set(nodes);
    const kept: Node[] = [];
    for (const node of given) {
      let nested = false;
      for (let p = node.parent; p !== null && !nested; p = p.parent) nested = given.has(p);
      if (!nested) kept.push(node);
    }
    return kept;
  },
  findAll(test: (el: DomElement) => boolean, nodes: Node[]): DomElement[] {
    const found: DomElement[] = [];
    const stack: Node[] = [];
    for (let i = nodes.length - 1; i >= 0; i--) stack.push(nodes[i]);
    while (stack.length > 0) {
      const node = stack.pop()!;
      if (!isElement(node)) continue;
      if (test(node)) found.push(node);
      const children = node.children;
      for (let i = children.length - 1; i >= 0; i--) if (isElement(children[i])) stack.push(children[i]);
    }
    return found;
  },
  findOne: (test: (el: DomElement) => boolean, nodes: Node[]): DomElement | null => findFirst(test, nodes),
};

// Positions of children in their parent, built once per parent that a sibling combinator asks about: a long
// list of siblings would otherwise be scanned once per sibling.
const positions = new WeakMap<DomNode[], Map<DomNode, number>>();

function indexAmongSiblings(node: DomNode, siblings: DomNode[]): number {
  let index = positions.get(siblings);
  if (index === undefined || index.get(node) === undefined || siblings[index.get(node)!] !== node) {
    index = new Map(siblings.map((sibling, i) => [sibling, i]));
    positions.set(siblings, index);
  }
  return index.get(node) ?? -1;
}

const OPTIONS = { adapter, xmlMode: false } as unknown as Options<Node, DomElement>;

function findFirst(test: (el: DomElement) => boolean, nodes: Node[]): DomElement | null {
  const stack: Node[] = [];
  for (let i = nodes.length - 1; i >= 0; i--) stack.push(nodes[i]);
  while (stack.length > 0) {
    const node = stack.pop()!;
    if (!isElement(node)) continue;
    if (test(node)) return node;
    const children = node.children;
    for (let i = children.length - 1; i >= 0; i--) if (isElement(children[i])) stack.push(children[i]);
  }
  return null;
}

function rawText(node: Node): string {
  if (node.type === 'text') return node.data;
  if (node.type !== 'root' && !isElement(node)) return '';
  const parts: string[] = [];
  const stack: Node[] = [node];
  while (stack.length > 0) {
    const n = stack.pop()!;
    if (n.type === 'text') parts.push(n.data);
    else if (n.type === 'root' || isElement(n)) for (let i = n.children.length - 1; i >= 0; i--) stack.push(n.children[i]);
  }
  return parts.join('');
}

/** Whether any compound starts with a combinator other than descendant, or uses :scope (anywhere). */
function isRelative(tokens: Selector[][]): boolean {
  return tokens.some((compound) => (compound.length > 0 && isTraversal(compound[0]) && compound[0].type !== 'descendant') || compound.some(usesScope));
}

function usesScope(token: Selector): boolean {
  if (token.type !== 'pseudo') return false;
  if (token.name === 'scope') return true;
  return Array.isArray(token.data) && token.data.some((compound) => compound.some(usesScope));
}

/**
 * Why a selector cannot be used, or null when it can. Messages name the rule, never the selector's text (css-what
 * and css-select errors quote it, so they are not passed on).
 */
export function selectorProblem(selector: string): string | null {
  let tokens: Selector[][];
  try {
    tokens = parse(selector);
  } catch {
    return 'is not a valid CSS selector';
  }
  if (tokens.length === 0 || tokens.some((compound) => compound.length === 0 || isTraversal(compound[compound.length - 1]))) {
    return 'is not a valid CSS selector';
  }
  try {
    compile<Node, DomElement>(tokens, OPTIONS);
  } catch {
    return 'uses a selector feature that is not supported (pseudo-elements, unknown pseudo-classes or namespaces)';
  }
  return null;
}

/** Compiles a selector checked by selectorProblem; throws on one that was not. */
export function compileSelector(selector: string): CompiledSelector {
  const problem = selectorProblem(selector);
  if (problem !== null) throw new Error(`selector ${problem}`);
  const tokens = parse(selector);
  if (isRelative(tokens)) return { query: null, relativeTokens: tokens };
  return { query: compile<Node, DomElement>(tokens, OPTIONS) as Query, relativeTokens: null };
}

function queryFor(selector: CompiledSelector, scope: DomElement | DomDocument): Query {
  // css-select's compile sorts and prefixes the token arrays in place, so each compile gets a copy.
  return selector.query ?? (compile<Node, DomElement>(structuredClone(selector.relativeTokens!), OPTIONS, scope) as Query);
}

/** Elements under scope (descendants, not scope itself) that match, in document order. */
export function selectAllIn(selector: CompiledSelector, scope: DomElement | DomDocument): DomElement[] {
  return selectAll<Node, DomElement>(queryFor(selector, scope), scope, OPTIONS);
}

/** The first element under scope that matches, or null. */
export function selectFirstIn(selector: CompiledSelector, scope: DomElement | DomDocument): DomElement | null {
  return selectOne<Node, DomElement>(queryFor(selector, scope), scope, OPTIONS);
}

/** One step of a derived selector: a tag and/or classes and attributes (exact values, or presence when null). */
export interface SimpleSelector {
  tag: string | null;
  classes: readonly string[];
  attributes: readonly (readonly [name: string, value: string | null])[];
}

/** The selector text of a chain of steps joined by child (`>`) or descendant combinators, properly escaped. */
export function selectorText(steps: readonly SimpleSelector[], combinator: 'child' | 'descendant'): string {
  const compound: Selector[] = [];
  steps.forEach((step, i) => {
    if (i > 0) compound.push({ type: combinator === 'child' ? ('child' as never) : ('descendant' as never) });
    if (step.tag !== null) compound.push({ type: 'tag' as never, name: step.tag, namespace: null });
    for (const cls of step.classes) {
      compound.push({ type: 'attribute' as never, name: 'class', action: 'element' as never, value: cls, ignoreCase: 'quirks', namespace: null });
    }
    for (const [name, value] of step.attributes) {
      compound.push({ type: 'attribute' as never, name, action: (value === null ? 'exists' : 'equals') as never, value: value ?? '', ignoreCase: null, namespace: null });
    }
    if (step.tag === null && step.classes.length === 0 && step.attributes.length === 0) compound.push({ type: 'universal' as never, namespace: null });
  });
  return stringify([compound]);
}
