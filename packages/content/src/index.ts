export { contentKindOf, type ContentKind } from './decode/content-kind.ts';
export { decodeBody } from './decode/decode-body.ts';
export { isElement, parseHtml, type DomDocument, type DomElement, type DomNode, type DomParent, type DomText } from './dom.ts';
export { DEFAULT_CONTENT_LIMITS, type ContentLimits, type LimitApplied } from './limits.ts';
export { UnsupportedContentTypeError } from './errors.ts';
export type { PageMetadata } from './extract/metadata.ts';
export { normalizeContent, type NormalizedContent } from './normalize-content.ts';
export { QUALITY_THRESHOLD, type ContentQuality, type QualitySignals } from './quality.ts';
export { serializeInnerSanitized } from './sanitize/sanitize-html.ts';
