import { parseHtmlLimited, textContent, type DomDocument, type DomElement } from './dom.ts';
import { pageLinks } from './extract/links.ts';
import { extractMainContent } from './extract/main-content.ts';
import { pageMetadata, pageTitle, type PageMetadata } from './extract/metadata.ts';
import { pageHints } from './extract/page-hints.ts';
import { preparePage } from './extract/prepare-page.ts';
import type { ContentLimits, LimitApplied } from './limits.ts';
import { contentToMarkdown } from './markdown/markdown.ts';
import { assessQuality, type ContentQuality } from './quality.ts';
import { serializeSanitized } from './sanitize/sanitize-html.ts';
import { collapse, withoutTags } from './text.ts';
import { documentBase } from './urls.ts';

export interface HtmlContent {
  title: string;
  markdown: string;
  html: string;
  metadata: PageMetadata;
  links: string[];
  quality: ContentQuality;
  limitsApplied: LimitApplied[];
}

const JAVASCRIPT_NOTICE =
  /\b(enable|turn on|activate|allow)\s+javascript\b|\bjavascript\s+(is\s+)?(required|disabled|must be enabled|needs to be enabled|is not enabled)|\brequires?\s+javascript\b|\bneeds?\s+javascript\b/i;

/** The whole HTML path: one parse, one cleaning pass, extraction, then output of the chosen subtree only. */
export function htmlContent(source: string, finalUrl: string, limits: ContentLimits, onDocument?: DocumentHook): HtmlContent {
  try {
    return extractHtml(source, finalUrl, limits, onDocument);
  } catch {
    // Every step is iterative and defensive, so this is a bug net, not a path: callers are promised a result for
    // any HTML, so a crude text version beats an exception.
    return degradedContent(source);
  }
}

/**
 * Sees the whole parsed page once, before any of our cleaning changes it (record extraction works on the whole
 * page, not only the main content, from the same parse). It must not change the tree, and must not throw: a hook
 * that does is the caller's to report.
 */
export type DocumentHook = (root: DomDocument) => void;

/** About 250 characters of words: a sentence or two, not a page. */
const SHELL_WORDS = 40;

function extractHtml(source: string, finalUrl: string, limits: ContentLimits, onDocument?: DocumentHook): HtmlContent {
  const parsed = parseHtmlLimited(source, limits);
  onDocument?.(parsed.root);
  const page = preparePage(parsed.root);
  const baseUrl = documentBase(finalUrl, page.baseHref);
  const title = pageTitle(page);
  const metadata = pageMetadata(page, title, baseUrl);
  const { links, capped: linksCapped } = pageLinks(page.hrefs, baseUrl, limits.maxLinks);
  const limitsApplied: LimitApplied[] = [];
  if (parsed.depthCapped || page.flattened) limitsApplied.push('nesting_depth');
  if (parsed.elementsCapped) limitsApplied.push('element_count');
  if (linksCapped) limitsApplied.push('link_count');
  const main = extractMainContent(page.root, pageHints(page, finalUrl));
  const pageTextLength = main.pageTextLength;
  // Only a short page's text is searched for an "enable JavaScript" notice, so only then is it built.
  const shortPageText = pageTextLength < 1000 ? main.pageText() : '';
  const html = serializeSanitized(main.root, { baseUrl });
  const markdown = safeMarkdown(main.root, baseUrl);

  const quality = assessQuality({
    signals: {
      text_length: main.textLength,
      text_to_markup_ratio: source.length > 0 ? round(pageTextLength / source.length) : 0,
      link_density: main.words > 0 ? round(main.linkWords / main.words) : 0,
      // Outside its menus, header, footer and cookie note the page has almost nothing: scripts will draw it.
      empty_shell: (pageTextLength < 250 || main.pageWordsOutsideChrome < SHELL_WORDS) && (page.appRoot || page.scriptCount > 0),
      script_only: pageTextLength < 50 && page.scriptCount > 0,
      main_content_found: main.found,
    },
    javascriptNotice: JAVASCRIPT_NOTICE.test(page.noscriptText) || JAVASCRIPT_NOTICE.test(shortPageText),
  });
  return { title, markdown, html, metadata, links, quality, limitsApplied };
}

/** Markdown of the content; plain paragraphs if the converter gives up (it recurses, and input can be hostile). */
function safeMarkdown(root: DomElement | DomDocument, baseUrl: string): string {
  try {
    return contentToMarkdown(root, baseUrl);
  } catch {
    return collapse(textContent(root)).replace(/([\\`*_[\]#<>])/g, '\\$1');
  }
}

function degradedContent(source: string): HtmlContent {
  const text = collapse(withoutTags(source.replace(/<(script|style)\b[\s\S]*?<\/\1\s*>/gi, ' ')));
  const metadata: PageMetadata = { title: null, description: null, language: null, canonical_url: null, open_graph: {}, twitter: {} };
  const quality = assessQuality({
    signals: { text_length: text.length, text_to_markup_ratio: 0, link_density: 0, empty_shell: false, script_only: false, main_content_found: false },
    javascriptNotice: false,
  });
  const html = text === '' ? '' : `<p>${text.replace(/&/g, '&amp;').replace(/</g, '&lt;').replace(/>/g, '&gt;')}</p>`;
  return { title: '', markdown: text.replace(/([\\`*_[\]#<>])/g, '\\$1'), html, metadata, links: [], quality, limitsApplied: [] };
}

function round(value: number): number {
  return Math.round(value * 1000) / 1000;
}
