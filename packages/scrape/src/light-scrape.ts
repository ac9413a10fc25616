import type { LightFetchOutcome, LightFetchRequest } from '@trawl/light-engine';
import type { ContentProcessor } from './content-errors.ts';
import type { ExtractionTask } from './content-step.ts';
import { contentFailure } from './content-failure.ts';
import { lightDiagnostics } from './diagnostics.ts';
import type { ScrapeOutcome } from './outcome.ts';
import { deliverable, failed, retryableStatus, type EngineAudit } from './page-build.ts';
import { countedPage } from './page-metrics.ts';

export interface LightFetcher {
  fetch(req: LightFetchRequest): Promise<LightFetchOutcome>;
}

export interface ScrapeRequest {
  url: string;
  deadline: number;
  allowRedirect?: LightFetchRequest['allowRedirect'];
  signal?: AbortSignal;
  /** Records to extract from the page (crawls with `extraction`). */
  extraction?: ExtractionTask;
}

export interface ScrapeDeps {
  light: LightFetcher;
  content: ContentProcessor;
}

function auditOf(r: LightFetchOutcome): EngineAudit {
  return {
    engines_attempted: ['light'],
    fallback_reasons: [...r.fallbackReasons],
    fallback_events: r.fallbackEvents.map((e) => ({ ...e })),
    retry_stats: { total_attempts: r.attempts.length },
  };
}

/** Light retrieval plus content normalization: the whole Fetch pipeline of one URL without a browser. */
export async function scrapeLight(deps: ScrapeDeps, req: ScrapeRequest): Promise<ScrapeOutcome> {
  return countedPage('light', await retrieveLight(deps, req));
}

async function retrieveLight({ light, content }: ScrapeDeps, req: ScrapeRequest): Promise<ScrapeOutcome> {
  const r = await light.fetch({ url: req.url, deadline: req.deadline, allowRedirect: req.allowRedirect, signal: req.signal });
  const { content_quality: _, ...diagnostics } = lightDiagnostics({ score: 0, confidence: 'high' });
  const audit = auditOf(r);
  if (!r.ok) {
    return failed({ blockReason: r.failure, retryable: r.retryable, statusCode: r.statusCode ?? null, detail: null, retryAfterMs: null, audit, diagnostics });
  }
  if (r.statusCode < 200 || r.statusCode > 299) {
    return failed({
      blockReason: 'http_error',
      retryable: retryableStatus(r.statusCode),
      statusCode: r.statusCode,
      detail: `target answered HTTP ${r.statusCode}`,
      retryAfterMs: retryAfterMs(r.headers['retry-after'], Date.now()),
      audit,
      diagnostics,
    });
  }
  try {
    // The content step gets what is left of the request's deadline.
    const normalized = await content.normalize({ body: r.body, contentType: r.contentType, url: r.finalUrl, deadline: req.deadline, extraction: req.extraction });
    const page = deliverable({ url: req.url, finalUrl: r.finalUrl, statusCode: r.statusCode, contentType: r.contentType, normalized, engine: 'light', audit, diagnostics });
    return { ok: true, page };
  } catch (err) {
    const f = contentFailure(err, r.contentType);
    if (!f) throw err;
    return failed({ ...f, statusCode: r.statusCode, retryAfterMs: null, audit, diagnostics });
  }
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

export { mediaType } from './media-type.ts';
