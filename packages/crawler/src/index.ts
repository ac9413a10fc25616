export { buildPlan, PlanError } from './api/plan.ts';
export {
  createCrawl,
  getCrawlJob,
  listItems,
  listWebhookDeliveries,
  crawlRunSource,
  setCrawlPaused,
  cancelTeamCrawl,
  type CancelResult,
  type CrawlServices,
  type CreateCrawlResult,
  type ListResult,
} from './api/crawl-service.ts';
export { crawlJobView, itemView, type StoredItem } from './api/views.ts';
export { openCrawlEvents, type CrawlStreamEvent, type EventStreamOptions, type EventStreamStart } from './api/events.ts';
export { exportItems, EXPORT_BATCH, type ExportOptions, type ExportStart } from './api/export.ts';
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
export { WebhookDispatcher, type DispatcherDeps, type WebhookSettings } from './webhooks/dispatcher.ts';
export { jobView } from './api/crawl-service.ts';
