// The only module that touches turndown. Input is the main content's subtree, sanitized (absolute URLs, safe
// attributes) and shaped for Markdown (tables, links: markdown-shape.ts) on the way into a small DOM of our own
// (markdown-dom.ts) that turndown walks directly: no HTML string, no second parse. The Markdown is meant to say
// what the page said: text is escaped so it renders as itself (markdown-escape.ts), and the rules in
// markdown-inline-rules.ts, markdown-block-rules.ts and markdown-table-rules.ts replace turndown's and the GFM
// plugin's where those lose text or structure. test/markdown-roundtrip.test.ts renders the output back.
import TurndownService from 'turndown';
import type { DomDocument, DomElement } from './dom.ts';
import { addBlockRules } from './markdown-block-rules.ts';
import { escapeMarkdownText } from './markdown-escape.ts';
import { addInlineRules, resolveLinkMarks, restoreBreak } from './markdown-inline-rules.ts';
import { markdownShaper } from './markdown-shape.ts';
import { addTableRules } from './markdown-table-rules.ts';
import { tidyMarkdown } from './markdown-tidy.ts';
import { MarkdownTreeBuilder } from './markdown-tree.ts';
import { serializeSanitized, walkSanitized, type SerializeOptions } from './sanitize-html.ts';

const service = new TurndownService({
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
service.escape = escapeMarkdownText;
// Rules added later win over earlier ones (and over turndown's own).
addBlockRules(service);
addTableRules(service);
addInlineRules(service);

function inlineCode(node: TurndownService.Node): boolean {
  return (node as { isCode?: boolean }).isCode === true;
}

/** Markdown of a content subtree; baseUrl resolves its links and images. */
export function contentToMarkdown(root: DomElement | DomDocument, baseUrl: string): string {
  const options = (): SerializeOptions => ({ baseUrl, rename: markdownShaper(), markdownAttributes: true });
  const builder = new MarkdownTreeBuilder();
  walkSanitized(root, options(), builder);
  // Markup the HTML parser would rearrange: let it (rare, see markdown-tree.ts).
  if (builder.failed) return htmlToMarkdown(serializeSanitized(root, options()));
  if (builder.root.firstChild === null) return '';
  return tidyMarkdown(resolveLinkMarks(service.turndown(builder.root)));
}

/** Markdown of an HTML string, parsed by turndown's own parser (domino): the reference the tests compare with. */
export function htmlToMarkdown(html: string): string {
  if (html.trim() === '') return '';
  return tidyMarkdown(resolveLinkMarks(service.turndown(html)));
}
