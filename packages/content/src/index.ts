export { contentKindOf, type ContentKind } from './decode/content-kind.ts';
export { decodeBody } from './decode/decode-body.ts';
export { DEFAULT_CONTENT_LIMITS, type ContentLimits, type LimitApplied } from './limits.ts';
export { UnsupportedContentTypeError } from './errors.ts';
export type { PageMetadata } from './extract/metadata.ts';
export { normalizeContent, type NormalizedContent } from './normalize-content.ts';
export { QUALITY_THRESHOLD, type ContentQuality, type QualitySignals } from './quality.ts';
