import type { CrawlSnapshot } from '@trawl/frontier';
import { endCrawl, finalizeCrawl } from '../worker/finalize.ts';
import type { CrawlServices } from './crawl-service.ts';

/**
 * Cancels a queued, running or paused crawl (DELETE /v1/crawl/{id} after its team check, and the operator's
 * `crawls.cancel`): status `failed`, failure `cancelled`. Its queued pages and the leases out are dropped in the
 * same atomic step, so no page completes after it; workers are told at once (they hand back what they buffered),
 * and the crawl is settled here like any ended crawl (delivered pages billed, run closed, shards unregistered,
 * retention set). Its delivered items stay readable. The crawl afterwards, or false when it had already ended.
 */
export async function cancelLiveCrawl(svc: CrawlServices, snap: CrawlSnapshot): Promise<CrawlSnapshot | false> {
  const crawlId = snap.plan.crawl_id;
  if (!(await endCrawl(svc.crawls, crawlId, 'cancelled', svc.now()))) return false;
  await svc.directory.announceWork();
  const ended = await svc.crawls.getCrawl(crawlId);
  if (!ended) return false;
  await finalizeCrawl({ store: svc.store, crawls: svc.crawls, directory: svc.directory, retentionMs: svc.crawlRetentionMs, log: svc.log }, ended);
  return (await svc.crawls.getCrawl(crawlId)) ?? false;
}
