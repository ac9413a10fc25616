// turndown 7.2.5 ships no type declarations; these cover the part of its API that markdown.ts uses.
declare module 'turndown' {
  namespace TurndownService {
    /** The DOM node turndown hands to rules (a domino node in Node.js); only what our rules read. */
    interface Node {
      nodeName: string;
      nodeType: number;
      nodeValue: string | null;
      textContent: string | null;
      className?: string;
      childNodes: ArrayLike<Node>;
      /** Element children only. */
      children?: ArrayLike<Node>;
      firstChild: Node | null;
      lastChild: Node | null;
      nextSibling: Node | null;
      previousSibling: Node | null;
      parentNode: Node | null;
      getAttribute?(name: string): string | null;
    }
    interface Options {
      headingStyle?: 'setext' | 'atx';
      hr?: string;
      bulletListMarker?: '-' | '+' | '*';
      codeBlockStyle?: 'indented' | 'fenced';
      fence?: '```' | '~~~';
      emDelimiter?: '_' | '*';
      strongDelimiter?: '__' | '**';
      linkStyle?: 'inlined' | 'referenced';
      br?: string;
      defaultReplacement?: (content: string, node: Node, options: Options) => string;
    }
    type Filter = string | string[] | ((node: Node, options: Options) => boolean);
    interface Rule {
      filter: Filter;
      replacement: (content: string, node: Node, options: Options) => string;
    }
    type Plugin = (service: TurndownService) => void;
  }
  class TurndownService {
    constructor(options?: TurndownService.Options);
    /** An HTML string, or a node whose children are converted (turndown works on a deep clone of it). */
    turndown(input: string | TurndownService.Node): string;
    addRule(key: string, rule: TurndownService.Rule): this;
    remove(filter: TurndownService.Filter): this;
    keep(filter: TurndownService.Filter): this;
    use(plugins: TurndownService.Plugin | TurndownService.Plugin[]): this;
    escape(text: string): string;
  }
  export = TurndownService;
}
