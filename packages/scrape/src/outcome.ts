import type { ExtractionResult } from './content-step.ts';
import type { Audit, BlockReason, Diagnostics, PageContent } from '@trawl/contract';
import type { ContentQuality } from '@trawl/content';

/** A file produced with a page besides its Markdown and HTML (a screenshot, a HAR). */
export interface PageArtifact {
  key: string;
  contentType: string;
  body: Buffer;
}

/** A page worth delivering (status completed or low_quality). */
export interface ScrapedPage {
  url: string;
  finalUrl: string;
  statusCode: number;
  status: 'completed' | 'low_quality';
  title: string;
  content: PageContent;
  audit: Audit;
  diagnostics: Diagnostics;
  artifacts: PageArtifact[];
  /** The measured quality behind `status` (internal: decides the browser fallback; not delivered as such). */
  quality: ContentQuality;
  /** Records and selector memory when extraction was asked for (crawls), else null. */
  extraction: ExtractionResult | null;
}

/** No deliverable page; `blockReason` says why, `retryable` whether trying later may help. */
export interface ScrapeFailure {
  blockReason: BlockReason;
  retryable: boolean;
  statusCode: number | null;
  /** Public-safe extra context (never URLs, headers or bodies). */
  detail: string | null;
  /** From the target's Retry-After on a 429/503, in milliseconds; null when absent or unparseable. */
  retryAfterMs: number | null;
  audit: Audit;
  diagnostics: Diagnostics;
}

export type ScrapeOutcome = { ok: true; page: ScrapedPage } | { ok: false; failure: ScrapeFailure };
