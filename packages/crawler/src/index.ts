export { buildPlan, PlanError } from './api/plan.ts';
export {
  createCrawl,
  getCrawlJob,
  listItems,
  crawlRunSource,
  setCrawlPaused,
  type CrawlServices,
  type CreateCrawlResult,
} from './api/crawl-service.ts';
export { crawlJobView, itemView, type StoredItem } from './api/views.ts';
export {
  listCrawls,
  getCrawl,
  pauseCrawl,
  resumeCrawl,
  cancelCrawl,
  ListCrawlsInput,
  CrawlIdInput,
  type ListCrawlsQuery,
  type CrawlIdQuery,
  type CrawlListPage,
  type OperatorCrawl,
  type OperatorCrawlChange,
} from './api/operator-crawls.ts';
export { parsePageRunId, pageRunId, itemId, encodeCursor, decodeCursor } from './api/ids.ts';
export { CrawlWorker, type CrawlWorkerDeps } from './worker/crawl-worker.ts';
export { finalizeCrawl, type FinalizeDeps } from './worker/finalize.ts';
export { DEFAULT_WORKER_SETTINGS, type WorkerSettings } from './worker/settings.ts';
