import { Readability } from '@mozilla/readability';
import { JSDOM, VirtualConsole } from 'jsdom';
import { normalizeContent } from '@trawl/content';
import { isElement, parseHtml, type DomNode } from '../../packages/content/src/dom.ts';

/** The extractors compared by bench/content-quality.bench.ts: each turns a page into a prediction file's text. */
export interface Extractor {
  name: string;
  /** File extension the scorer reads it as: .md is stripped of Markdown first, .txt scored as is. */
  ext: 'md' | 'txt';
  run(html: string, url: string): string;
}

export const trawl: Extractor = {
  name: 'Trawl',
  ext: 'md',
  run: (html, url) => normalizeContent({ body: Buffer.from(html), contentType: 'text/html; charset=utf-8', url }).markdown,
};

const quiet = new VirtualConsole();

export const readability: Extractor = {
  name: 'Mozilla Readability',
  ext: 'txt',
  run(html, url) {
    const dom = new JSDOM(html, { url, virtualConsole: quiet });
    try {
      return new Readability(dom.window.document).parse()?.textContent ?? '';
    } finally {
      dom.window.close();
    }
  },
};

const INVISIBLE = new Set(['script', 'style', 'noscript', 'template', 'svg', 'math', 'iframe', 'object', 'head', 'title']);

/** The floor: every visible text of the page (what an API scores if it returns the whole page). */
export const wholePage: Extractor = {
  name: 'whole page',
  ext: 'txt',
  run(html) {
    const parts: string[] = [];
    const stack: DomNode[] = [...parseHtml(html).children].reverse();
    while (stack.length > 0) {
      const node = stack.pop()!;
      if (node.type === 'text') parts.push(node.data);
      else if (isElement(node) && !INVISIBLE.has(node.name)) {
        parts.push(' ');
        for (let i = node.children.length - 1; i >= 0; i--) stack.push(node.children[i]);
      }
    }
    return parts.join('').replace(/\s+/g, ' ').trim();
  },
};
