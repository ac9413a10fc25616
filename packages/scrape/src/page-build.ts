import { retryableHttpStatus, type Audit, type Diagnostics } from '@trawl/contract';
import type { ContentResult } from './content-step.ts';
import { round } from './diagnostics.ts';
import type { PageArtifact, ScrapedPage, ScrapeFailure, ScrapeOutcome } from './outcome.ts';

/** The audit of one engine's attempt, before the quality score is known. */
export type EngineAudit = Omit<Audit, 'quality_score' | 'block_reason' | 'engine_winner'>;
/** Diagnostics before content quality is known. */
export type EngineDiagnostics = Omit<Diagnostics, 'content_quality'>;

/** HTTP statuses worth retrying later: the rule http_error's `retryable: 'status'` names, beside contract's BLOCK_REASONS. */
export const retryableStatus = retryableHttpStatus;

/** A failure outcome of one engine (nothing deliverable). */
export function failed(
  f: Omit<ScrapeFailure, 'audit' | 'diagnostics'> & { audit: EngineAudit; diagnostics: EngineDiagnostics },
): ScrapeOutcome {
  return {
    ok: false,
    failure: {
      ...f,
      audit: { ...f.audit, engine_winner: null, quality_score: 0, block_reason: f.blockReason },
      diagnostics: { ...f.diagnostics, content_quality: { score: 0, confidence: 'high' } },
    },
  };
}

/** A deliverable page from normalized content, whichever engine fetched it. */
export function deliverable(input: {
  url: string;
  finalUrl: string;
  statusCode: number;
  contentType: string | null;
  normalized: ContentResult;
  engine: string;
  audit: EngineAudit;
  diagnostics: EngineDiagnostics;
  artifacts?: PageArtifact[];
}): ScrapedPage {
  const { normalized: n } = input;
  const q = n.quality;
  return {
    url: input.url,
    finalUrl: input.finalUrl,
    statusCode: input.statusCode,
    status: q.low_quality ? 'low_quality' : 'completed',
    title: n.title,
    content: {
      markdown: n.markdown,
      html: n.html,
      metadata: { ...n.metadata, status_code: input.statusCode, content_type: input.contentType },
      links: n.links,
    },
    audit: { ...input.audit, engine_winner: input.engine, quality_score: round(q.score), block_reason: null },
    diagnostics: {
      ...input.diagnostics,
      ...(n.extraction ? { adaptive_extraction: { ...n.extraction.adaptive } } : {}),
      content_quality: { score: round(q.score), confidence: q.confidence, ...(n.limitsApplied.length > 0 ? { limits_applied: [...n.limitsApplied] } : {}) },
    },
    artifacts: input.artifacts ?? [],
    quality: q,
    extraction: n.extraction,
  };
}
