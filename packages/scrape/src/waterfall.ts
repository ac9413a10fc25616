import type { FallbackEvent } from '@trawl/contract';
import { scrapeBrowser, type BrowserRenderer } from './browser-scrape.ts';
import type { ContentProcessor } from './content-pool.ts';
import { scrapeLight, type LightFetcher, type ScrapeRequest } from './light-scrape.ts';
import type { ScrapedPage, ScrapeOutcome } from './outcome.ts';

export interface WaterfallDeps {
  light: LightFetcher;
  content: ContentProcessor;
  browser: BrowserRenderer | null;
}

/** Why a delivered light page is worth a browser render, or null when it is good as it is. */
export function browserReason(page: ScrapedPage): string | null {
  const s = page.quality.signals;
  if (s.script_only || s.empty_shell) return 'script_only';
  if (page.content.markdown.trim() === '') return 'empty_content';
  if (page.quality.low_quality) return 'low_quality';
  return null;
}

/**
 * Fetch's engine waterfall: light first; the browser only when the light page is empty, a script-only shell or
 * below the quality threshold. A failed light retrieval (SSRF refusal, size or redirect limits, network) never
 * falls back. With no browser capacity the light page is delivered, marked browser_capacity_full.
 */
export async function scrapeWaterfall(deps: WaterfallDeps, req: ScrapeRequest): Promise<ScrapeOutcome> {
  const light = await scrapeLight(deps, req);
  if (!light.ok || !deps.browser) return light;
  const reason = browserReason(light.page);
  if (reason === null) return light;
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
  if (rendered.ok) {
    const p = rendered.page;
    return { ok: true, page: { ...p, audit: audit('browser', null, p.audit.retry_stats.total_attempts, p.audit.quality_score) } };
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
