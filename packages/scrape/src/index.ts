export type { PageArtifact, ScrapedPage, ScrapeFailure, ScrapeOutcome } from './outcome.ts';
export { scrapeBrowser, type BrowserRenderer, type BrowserScrapeRequest } from './browser-scrape.ts';
export { scrapeWaterfall, browserReason, type WaterfallDeps } from './waterfall.ts';
export { scrapeLight, retryAfterMs, type LightFetcher, type ScrapeDeps, type ScrapeRequest } from './light-scrape.ts';
export {
  ContentTimeoutError,
  contentPoolSettings,
  createContentProcessor,
  defaultContentThreads,
  inlineContentProcessor,
  threadedContentProcessor,
  type ContentInput,
  type ContentPoolSettings,
  type ContentProcessor,
} from './content-pool.ts';
export { contentFailure } from './content-failure.ts';
export { lightDiagnostics } from './diagnostics.ts';
export type { ContentResult, ExtractionResult, ExtractionTask } from './content-step.ts';
