export {
  BUDGET_BLOCK,
  crawlBudgetWant,
  giveBackQuota,
  PAGE_COST,
  reserveCrawlCredits,
  RUN_QUOTA_RESOURCES,
  settleCrawlCredits,
  settleCrawlQuota,
  takeQuota,
  type BillingMode,
  type LedgerDeps,
} from './billing.ts';
export { artifactUrl, crawlPageArtifacts, CONTENT_ARTIFACTS, type ContentArtifactKey } from './artifacts.ts';
export { closeCrawlRun, openCrawlRun, type CrawlRunState } from './crawl-runs.ts';
export { deliverPage, failPageRun, startPageRun, type PageRunStart, type RunServices } from './page-runs.ts';
export {
  readArtifact,
  readRun,
  type ArtifactRead,
  type CrawlPageLookup,
  type CrawlRunSource,
  type RunAccessDeps,
  type RunRead,
} from './run-access.ts';
