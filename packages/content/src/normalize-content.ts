import { contentKindOf, type ContentKind } from './decode/content-kind.ts';
import { bodyCharset, decodeWith } from './decode/decode-body.ts';
import { checkText } from './decode/text-check.ts';
import { UnsupportedContentTypeError } from './errors.ts';
import type { PageMetadata } from './extract/metadata.ts';
import { htmlContent, type DocumentHook } from './html-content.ts';
import { DEFAULT_CONTENT_LIMITS, type ContentLimits, type LimitApplied } from './limits.ts';
import { jsonToMarkdown, textToMarkdown } from './markdown/plain-text.ts';
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
  /** The structural limits (limits.ts) that shaped this page's output; empty for almost every page. */
  limitsApplied: LimitApplied[];
}

/** How much of a body the early check reads: enough to judge, little enough for the calling thread. */
const SCREEN_BYTES = 64 * 1024;

/**
 * The early, cheap part of the checks normalizeContent makes, on the head of the body only: throws the same
 * UnsupportedContentTypeError for a type we do not convert or for bytes that are not text. Callers that hand bodies
 * to other threads run it first, so a large binary body is refused at once instead of queueing behind large pages
 * for a thread it would only be refused by. The whole body is still checked by normalizeContent.
 */
export function screenBody(body: Buffer, contentType: string | null): void {
  textCharset(body.length > SCREEN_BYTES ? body.subarray(0, SCREEN_BYTES) : body, contentType);
}

/**
 * The kind of a body and the charset to read it with; throws UnsupportedContentTypeError for a type we do not
 * convert and for bytes that are not text whatever their label says (checked before decoding, so garbage is never
 * decoded into a string). Unlabelled bytes that are not UTF-8 but hold no controls are legacy text, read the way
 * browsers default.
 */
function textCharset(body: Buffer, contentType: string | null): { kind: ContentKind; charset: string } {
  const kind = contentKindOf(contentType, body);
  if (kind === null) throw new UnsupportedContentTypeError(contentType);
  const detected = bodyCharset(body, contentType, kind);
  const verdict = checkText(body, detected.charset);
  const legacy = verdict.invalidUtf8 && !detected.labelled;
  if (!verdict.text && !legacy) throw new UnsupportedContentTypeError(contentType, true);
  return { kind, charset: legacy ? 'windows-1252' : detected.charset };
}

/**
 * Turns a fetched body into normalized content. body: raw bytes as received; contentType: the response's
 * Content-Type header; url: the final URL after redirects. Throws only UnsupportedContentTypeError: for types we
 * do not convert, and for bodies that are not text whatever their label says (checked on the bytes, before
 * decoding, so garbage is never decoded into a string).
 */
export function normalizeContent(input: {
  body: Buffer;
  contentType: string | null;
  url: string;
  limits?: ContentLimits;
  /** Called with the parsed page of an HTML body (html-content.ts DocumentHook); not called for text and JSON. */
  onDocument?: DocumentHook;
}): NormalizedContent {
  const { body, contentType, url } = input;
  const { kind, charset } = textCharset(body, contentType);
  const text = decodeWith(body, charset);
  if (kind === 'html') return { ...htmlContent(text, url, input.limits ?? DEFAULT_CONTENT_LIMITS, input.onDocument), charset };
  const markdown = kind === 'json' ? jsonToMarkdown(text) : textToMarkdown(text);
  return {
    title: '',
    markdown,
    html: null,
    metadata: { title: null, description: null, language: null, canonical_url: null, open_graph: {}, twitter: {} },
    links: [],
    quality: plainQuality(text.trim().length),
    charset,
    limitsApplied: [],
  };
}
