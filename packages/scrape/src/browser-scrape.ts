import type { BrowserControls } from '@trawl/contract';
import type { RenderOutcome, RenderRequest } from '@trawl/browser';
import type { ContentProcessor } from './content-errors.ts';
import type { ExtractionTask } from './content-step.ts';
import { contentFailure } from './content-failure.ts';
import type { ScrapeOutcome } from './outcome.ts';
import { deliverable, failed, retryableStatus, type EngineAudit, type EngineDiagnostics } from './page-build.ts';
import { countedPage } from './page-metrics.ts';

export interface BrowserRenderer {
  render(req: RenderRequest): Promise<RenderOutcome>;
}

export interface BrowserScrapeRequest {
  url: string;
  deadline: number;
  controls?: BrowserControls;
  screenshot?: boolean;
  record?: boolean;
  allowRedirect?: (from: URL, to: URL) => boolean;
  /** How long to wait for a free browser page (default: the pool's short bound). */
  acquireTimeoutMs?: number;
  /** The render's own time, counted from when it gets a browser page (RenderRequest.budgetMs). */
  budgetMs?: number;
  /** Records to extract from the rendered page (crawls with `extraction`). */
  extraction?: ExtractionTask;
}

const NO_ADAPTIVE = { enabled: false, used: false, action: 'none', confidence: 0 } as const;

/** The browser engine end to end: render, then the same content normalization as the light engine. */
export async function scrapeBrowser(
  deps: { browser: BrowserRenderer; content: ContentProcessor },
  req: BrowserScrapeRequest,
): Promise<ScrapeOutcome> {
  return countedPage('browser', await renderPage(deps, req));
}

async function renderPage(
  { browser, content }: { browser: BrowserRenderer; content: ContentProcessor },
  req: BrowserScrapeRequest,
): Promise<ScrapeOutcome> {
  const r = await browser.render({
    url: req.url,
    deadline: req.deadline,
    controls: req.controls,
    screenshot: req.screenshot,
    record: req.record,
    allowNavigation: req.allowRedirect,
    acquireTimeoutMs: req.acquireTimeoutMs,
    budgetMs: req.budgetMs,
  });
  const diagnostics: EngineDiagnostics = { adaptive_extraction: { ...NO_ADAPTIVE }, ...r.diagnostics };
  const audit: EngineAudit = {
    engines_attempted: ['browser'],
    fallback_reasons: [],
    fallback_events: [],
    retry_stats: { total_attempts: Math.max(1, r.diagnostics.browser_failure.attempt_count) },
  };
  if (!r.ok) {
    return failed({ blockReason: r.blockReason, retryable: r.retryable, statusCode: null, detail: null, retryAfterMs: null, audit, diagnostics });
  }
  if (r.statusCode < 200 || r.statusCode > 299) {
    return failed({
      blockReason: 'http_error',
      retryable: retryableStatus(r.statusCode),
      statusCode: r.statusCode,
      detail: `target answered HTTP ${r.statusCode}`,
      retryAfterMs: null,
      audit,
      diagnostics,
    });
  }
  let normalized;
  try {
    normalized = await content.normalize({ body: Buffer.from(r.html, 'utf8'), contentType: 'text/html; charset=utf-8', url: r.finalUrl, deadline: req.deadline, extraction: req.extraction });
  } catch (err) {
    // The rendered DOM is always labelled HTML: name the type the target sent, which is what a caller can act on.
    const f = contentFailure(err, r.responseContentType);
    if (!f) throw err;
    return failed({ ...f, statusCode: r.statusCode, retryAfterMs: null, audit, diagnostics });
  }
  const page = deliverable({
    url: req.url,
    finalUrl: r.finalUrl,
    statusCode: r.statusCode,
    contentType: r.responseContentType,
    normalized,
    engine: 'browser',
    audit,
    diagnostics,
    artifacts: r.artifacts.map((a) => ({ key: a.key, contentType: a.contentType, body: a.body })),
  });
  return { ok: true, page };
}
