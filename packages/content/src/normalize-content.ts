import { contentKindOf } from './content-kind.ts';
import { decodeBody } from './decode-body.ts';
import { UnsupportedContentTypeError } from './errors.ts';
import { htmlContent } from './html-content.ts';
import type { PageMetadata } from './metadata.ts';
import { jsonToMarkdown, textToMarkdown } from './plain-text.ts';
import { plainQuality, type ContentQuality } from './quality.ts';

export interface NormalizedContent {
  /** <title>, else og:title, else the first <h1>, else ''. Always '' for text and JSON. */
  title: string;
  /** Markdown of the main content. */
  markdown: string;
  /** Sanitized HTML of the same main content; null for text and JSON. */
  html: string | null;
  metadata: PageMetadata;
  /** Absolute, deduplicated http(s) links of the whole page, fragments dropped. */
  links: string[];
  quality: ContentQuality;
  charset: string;
}

/**
 * Turns a fetched body into normalized content. body: raw bytes as received; contentType: the response's
 * Content-Type header; url: the final URL after redirects. Throws only UnsupportedContentTypeError.
 */
export function normalizeContent(input: { body: Buffer; contentType: string | null; url: string }): NormalizedContent {
  const { body, contentType, url } = input;
  const kind = contentKindOf(contentType, body);
  if (kind === null) throw new UnsupportedContentTypeError(contentType);
  const { text, charset } = decodeBody(body, contentType, kind);
  if (kind === 'html') return { ...htmlContent(text, url), charset };
  const markdown = kind === 'json' ? jsonToMarkdown(text) : textToMarkdown(text);
  return {
    title: '',
    markdown,
    html: null,
    metadata: { title: null, description: null, language: null, canonical_url: null, open_graph: {}, twitter: {} },
    links: [],
    quality: plainQuality(text.trim().length),
    charset,
  };
}
