export type { PageArtifact, ScrapedPage, ScrapeFailure, ScrapeOutcome } from './outcome.ts';
export { scrapeBrowser, type BrowserRenderer, type BrowserScrapeRequest } from './browser-scrape.ts';
export { scrapeWaterfall, browserReason, type WaterfallDeps } from './waterfall.ts';
export { scrapeLight, retryAfterMs, type LightFetcher, type ScrapeDeps, type ScrapeRequest } from './light-scrape.ts';
export {
  createContentProcessor,
  inlineContentProcessor,
  threadedContentProcessor,
  type ContentInput,
  type ContentProcessor,
} from './content-pool.ts';
export { lightDiagnostics } from './diagnostics.ts';
