export type { ScrapedPage, ScrapeFailure, ScrapeOutcome } from './outcome.ts';
export { scrapeLight, retryAfterMs, type LightFetcher, type ScrapeRequest } from './light-scrape.ts';
export { lightDiagnostics } from './diagnostics.ts';
