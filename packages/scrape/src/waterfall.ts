import type { FallbackEvent } from '@trawl/contract';
import { recordFallback } from '@trawl/metrics';
import { scrapeBrowser, type BrowserRenderer } from './browser-scrape.ts';
import type { ContentProcessor } from './content-errors.ts';
import { scrapeLight, type LightFetcher, type ScrapeRequest } from './light-scrape.ts';
import type { ScrapedPage, ScrapeOutcome } from './outcome.ts';

export interface WaterfallDeps {
  light: LightFetcher;
  content: ContentProcessor;
  browser: BrowserRenderer | null;
}

/** Why a delivered light page is worth a browser render, or null when it is good as it is. */
export function browserReason(page: ScrapedPage): string | null {
  // A page cut down by the structural limits is a huge or hostile document, not an app shell: the browser would
  // be handed the same document, at many times the cost.
  if (page.diagnostics.content_quality.limits_applied) return null;
  const s = page.quality.signals;
  if (s.script_only || s.empty_shell) return 'script_only';
  if (page.content.markdown.trim() === '') return 'empty_content';
  if (page.quality.low_quality) return 'low_quality';
  return null;
}

/**
 * The browser's page is worse than the light one it was asked to improve: clearly less main-content text (a
 * render that lost what the server sent) or a lower quality score. Then the light page is delivered.
 */
export function browserWorse(light: ScrapedPage, browser: ScrapedPage): boolean {
  const l = light.quality;
  const b = browser.quality;
  return b.signals.text_length < l.signals.text_length * EMPTIER_RATIO || b.score < l.score;
}
/** Rendering may drop a little text the server sent (a "please enable JavaScript" note): not "emptier". */
const EMPTIER_RATIO = 0.9;

/**
 * Fetch's engine waterfall: light first; the browser only when the light page is empty, a script-only shell or
 * below the quality threshold. A failed light retrieval (SSRF refusal, size or redirect limits, network) never
 * falls back. With no browser capacity the light page is delivered, marked browser_capacity_full. The waterfall
 * never returns worse than it had: a rendered page that is emptier or of lower quality than the light page loses
 * to it, and the audit says so (an engine event from browser back to light, reason `browser_result_worse`).
 */
export async function scrapeWaterfall(deps: WaterfallDeps, req: ScrapeRequest): Promise<ScrapeOutcome> {
  const light = await scrapeLight(deps, req);
  if (!light.ok || !deps.browser) return light;
  const reason = browserReason(light.page);
  if (reason === null) return light;
  recordFallback(reason);
  const event: FallbackEvent = { kind: 'engine', from: 'light', to: 'browser', reason, at: new Date().toISOString() };
  const la = light.page.audit;
  const rendered = await scrapeBrowser(deps as { browser: BrowserRenderer; content: ContentProcessor }, {
    url: req.url,
    deadline: req.deadline,
    allowRedirect: req.allowRedirect,
  });
  const audit = (winner: string | null, blockReason: ScrapedPage['audit']['block_reason'], browserAttempts: number, quality: number) => ({
    engine_winner: winner,
    engines_attempted: ['light', 'browser'],
    fallback_reasons: [...la.fallback_reasons, reason],
    fallback_events: [...la.fallback_events, event],
    retry_stats: { total_attempts: la.retry_stats.total_attempts + browserAttempts },
    quality_score: quality,
    block_reason: blockReason,
  });
  if (rendered.ok && !browserWorse(light.page, rendered.page)) {
    const p = rendered.page;
    return { ok: true, page: { ...p, audit: audit('browser', null, p.audit.retry_stats.total_attempts, p.audit.quality_score) } };
  }
  if (rendered.ok) {
    recordFallback('browser_result_worse');
    const p = rendered.page;
    const back: FallbackEvent = { kind: 'engine', from: 'browser', to: 'light', reason: 'browser_result_worse', at: new Date().toISOString() };
    const a = audit('light', null, p.audit.retry_stats.total_attempts, la.quality_score);
    return {
      ok: true,
      page: {
        ...light.page,
        audit: { ...a, fallback_reasons: [...a.fallback_reasons, 'browser_result_worse'], fallback_events: [...a.fallback_events, back] },
        diagnostics: { ...light.page.diagnostics, browser_debug: p.diagnostics.browser_debug, browser_failure: p.diagnostics.browser_failure },
      },
    };
  }
  // The light page is still the best we have: deliver it, saying what the browser could not do.
  const f = rendered.failure;
  const capacity = f.blockReason === 'browser_capacity_full';
  return {
    ok: true,
    page: {
      ...light.page,
      status: 'low_quality',
      audit: audit('light', capacity ? 'browser_capacity_full' : null, f.audit.retry_stats.total_attempts, la.quality_score),
      diagnostics: { ...light.page.diagnostics, browser_debug: f.diagnostics.browser_debug, browser_failure: f.diagnostics.browser_failure },
    },
  };
}
