// The only module that touches turndown. Input is the main content's subtree, sanitized (absolute URLs, safe
// attributes) and shaped for Markdown (tables, links: shape.ts) on the way into a small DOM of our own
// (markdown-dom.ts) that turndown walks directly: no HTML string, no second parse. The Markdown is meant to say
// what the page said: text is escaped so it renders as itself (escape.ts), and the rules in inline-rules.ts,
// block-rules.ts and table-rules.ts replace turndown's and the GFM plugin's where those lose text or structure.
// test/markdown-roundtrip.test.ts renders the output back.
import { createRequire } from 'node:module';
import type TurndownService from 'turndown';
import type { DomDocument, DomElement } from '../dom.ts';
import { addBlockRules } from './block-rules.ts';
import { escapeMarkdownText } from './escape.ts';
import { addInlineRules, resolveLinkMarks, restoreBreak } from './inline-rules.ts';
import { markdownShaper } from './shape.ts';
import { addTableRules } from './table-rules.ts';
import { tidyMarkdown } from './tidy.ts';
import { MarkdownTreeBuilder } from './tree.ts';
import { serializeSanitized, walkSanitized, type SerializeOptions } from '../sanitize/sanitize-html.ts';

let turndownService: TurndownService | undefined;

// turndown and its DOM (domino, ~50 modules) load with the first page made into Markdown: a gateway whose content
// threads do that work never loads them in its main thread.
function service(): TurndownService {
  if (turndownService) return turndownService;
  const Turndown = createRequire(import.meta.url)('turndown') as typeof TurndownService;
  const s = new Turndown({
    headingStyle: 'atx',
    hr: '---',
    bulletListMarker: '-',
    codeBlockStyle: 'fenced',
    emDelimiter: '*',
    strongDelimiter: '**',
    linkStyle: 'inlined',
    // turndown's own default, with the break a trim may have cut off (see restoreBreak).
    defaultReplacement: (content, node) => ((node as { isBlock?: boolean }).isBlock ? `\n\n${content}\n\n` : inlineCode(node) ? content : restoreBreak(content)),
  });
  s.escape = escapeMarkdownText;
  // Rules added later win over earlier ones (and over turndown's own).
  addBlockRules(s);
  addTableRules(s);
  addInlineRules(s);
  return (turndownService = s);
}

function inlineCode(node: TurndownService.Node): boolean {
  return (node as { isCode?: boolean }).isCode === true;
}

/** Markdown of a content subtree; baseUrl resolves its links and images. */
export function contentToMarkdown(root: DomElement | DomDocument, baseUrl: string): string {
  const options = (): SerializeOptions => ({ baseUrl, rename: markdownShaper(), markdownAttributes: true });
  const builder = new MarkdownTreeBuilder();
  walkSanitized(root, options(), builder);
  // Markup the HTML parser would rearrange: let it (rare, see tree.ts).
  if (builder.failed) return htmlToMarkdown(serializeSanitized(root, options()));
  if (builder.root.firstChild === null) return '';
  return tidyMarkdown(resolveLinkMarks(service().turndown(builder.root)));
}

/** Markdown of an HTML string, parsed by turndown's own parser (domino): the reference the tests compare with. */
export function htmlToMarkdown(html: string): string {
  if (html.trim() === '') return '';
  return tidyMarkdown(resolveLinkMarks(service().turndown(html)));
}
