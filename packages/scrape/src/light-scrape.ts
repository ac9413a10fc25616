import type { Audit, BlockReason } from '@trawl/contract';
import { UnsupportedContentTypeError } from '@trawl/content';
import type { LightFetchOutcome, LightFetchRequest } from '@trawl/engines';
import { lightDiagnostics, round } from './diagnostics.ts';
import type { ContentProcessor } from './content-pool.ts';
import type { ScrapeOutcome } from './outcome.ts';

export interface LightFetcher {
  fetch(req: LightFetchRequest): Promise<LightFetchOutcome>;
}

export interface ScrapeRequest {
  url: string;
  deadline: number;
  allowRedirect?: LightFetchRequest['allowRedirect'];
  signal?: AbortSignal;
}

/** HTTP statuses worth retrying later: the target may answer differently. */
function retryableStatus(code: number): boolean {
  return code === 408 || code === 425 || code === 429 || code >= 500;
}

function auditOf(r: LightFetchOutcome, qualityScore: number, blockReason: BlockReason | null): Audit {
  return {
    engine_winner: blockReason === null ? 'light' : null,
    engines_attempted: ['light'],
    fallback_reasons: [...r.fallbackReasons],
    fallback_events: r.fallbackEvents.map((e) => ({ ...e })),
    retry_stats: { total_attempts: r.attempts.length },
    quality_score: round(qualityScore),
    block_reason: blockReason,
  };
}

export interface ScrapeDeps {
  light: LightFetcher;
  content: ContentProcessor;
}

/** Light retrieval plus content normalization: the whole Fetch pipeline of one URL. */
export async function scrapeLight({ light, content }: ScrapeDeps, req: ScrapeRequest): Promise<ScrapeOutcome> {
  const r = await light.fetch({
    url: req.url,
    deadline: req.deadline,
    allowRedirect: req.allowRedirect,
    signal: req.signal,
  });
  const noQuality = { score: 0, confidence: 'high' as const };
  if (!r.ok) {
    return {
      ok: false,
      failure: {
        blockReason: r.failure === 'timeout' ? 'timeout' : r.failure,
        retryable: r.retryable,
        statusCode: r.statusCode ?? null,
        detail: null,
        retryAfterMs: null,
        audit: auditOf(r, 0, r.failure),
        diagnostics: lightDiagnostics(noQuality),
      },
    };
  }
  if (r.statusCode < 200 || r.statusCode > 299) {
    return {
      ok: false,
      failure: {
        blockReason: 'http_error',
        retryable: retryableStatus(r.statusCode),
        statusCode: r.statusCode,
        detail: `target answered HTTP ${r.statusCode}`,
        retryAfterMs: retryAfterMs(r.headers['retry-after'], Date.now()),
        audit: auditOf(r, 0, 'http_error'),
        diagnostics: lightDiagnostics(noQuality),
      },
    };
  }
  let normalized;
  try {
    normalized = await content.normalize({ body: r.body, contentType: r.contentType, url: r.finalUrl });
  } catch (err) {
    if (!(err instanceof UnsupportedContentTypeError)) throw err;
    return {
      ok: false,
      failure: {
        blockReason: 'unsupported_content_type',
        retryable: false,
        statusCode: r.statusCode,
        detail: `content type ${mediaType(r.contentType)} cannot be converted to Markdown`,
        retryAfterMs: null,
        audit: auditOf(r, 0, 'unsupported_content_type'),
        diagnostics: lightDiagnostics(noQuality),
      },
    };
  }
  const q = normalized.quality;
  return {
    ok: true,
    page: {
      url: req.url,
      finalUrl: r.finalUrl,
      statusCode: r.statusCode,
      status: q.low_quality ? 'low_quality' : 'completed',
      title: normalized.title,
      content: {
        markdown: normalized.markdown,
        html: normalized.html,
        metadata: {
          ...normalized.metadata,
          status_code: r.statusCode,
          content_type: r.contentType,
        },
        links: normalized.links,
      },
      audit: auditOf(r, q.score, null),
      diagnostics: lightDiagnostics(q),
    },
  };
}

/** Retry-After as delay-seconds or an HTTP date, capped at an hour (a hostile value must not park a host). */
export function retryAfterMs(value: string | undefined, now: number): number | null {
  if (!value) return null;
  const v = value.trim();
  let ms: number;
  if (/^\d{1,9}$/.test(v)) ms = Number(v) * 1000;
  else {
    const at = Date.parse(v);
    if (Number.isNaN(at)) return null;
    ms = at - now;
  }
  return Math.min(Math.max(ms, 0), 3_600_000);
}

/** Only the media type (never parameters, which a hostile server could fill with anything). */
function mediaType(contentType: string | null): string {
  const t = (contentType ?? '').split(';')[0].trim().toLowerCase();
  return /^[a-z0-9.+-]+\/[a-z0-9.+-]+$/.test(t) ? t : 'unknown';
}
