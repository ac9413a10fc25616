import { UnsupportedContentTypeError } from '@trawl/content';
import { ContentTimeoutError } from './content-errors.ts';
import { mediaType } from './media-type.ts';
import type { ScrapeFailure } from './outcome.ts';

/**
 * The page outcome of a content step that produced nothing: the deadline passed while the page was queued or being
 * processed (timeout, retryable: the same page may fit another time), a type we do not convert, or a body that is
 * not text whatever its label says (unsupported_content_type, not retryable). Null for anything else (a bug,
 * left to the caller's error path). The detail is public: it never names the URL or shows the body.
 */
export function contentFailure(err: unknown, contentType: string | null): Pick<ScrapeFailure, 'blockReason' | 'retryable' | 'detail'> | null {
  if (err instanceof ContentTimeoutError) {
    return { blockReason: 'timeout', retryable: true, detail: 'the page could not be processed before the deadline' };
  }
  if (err instanceof UnsupportedContentTypeError) {
    const detail = err.notText
      ? `the body is not text (binary data served as ${mediaType(contentType)})`
      : `content type ${mediaType(contentType)} cannot be converted to Markdown`;
    return { blockReason: 'unsupported_content_type', retryable: false, detail };
  }
  return null;
}
