import type { Log } from '@trawl/contract';
import type { CrawlSnapshot, CrawlStatus } from '@trawl/frontier';

/**
 * The crawl lifecycle as operators read it: one info line per transition, logged where the store reported that this
 * very call made it (creation, the lease call that started the crawl, the pause or resume that won its compare and
 * set, the finisher that marked it finalized), so a line appears once whatever the number of workers.
 */
export type CrawlEvent = 'created' | 'started' | 'paused' | 'resumed' | 'completed' | 'failed' | 'budget_exhausted' | 'expired';

const MESSAGES = {
  created: 'crawl created',
  started: 'crawl started',
  paused: 'crawl paused',
  resumed: 'crawl resumed',
  completed: 'crawl completed',
  failed: 'crawl failed',
  budget_exhausted: 'crawl budget exhausted',
  expired: 'crawl expired',
} satisfies Record<CrawlEvent, string>;

/**
 * Ids, status and counts only: never a seed, a URL or a host. `status` is the one the transition made (the
 * snapshot, read just after, may already be further on); the counts are the snapshot's.
 */
export function logCrawlEvent(log: Log, event: CrawlEvent, snap: CrawlSnapshot, status: CrawlStatus = snap.status): void {
  const c = snap.counters;
  log.info(
    {
      event: `crawl_${event}`,
      crawl_id: snap.plan.crawl_id,
      team_id: snap.plan.team_id,
      status,
      pages: { discovered: c.discovered, queued: c.queued, in_flight: c.in_flight, completed: c.completed, failed: c.failed, blocked: c.blocked, dropped: c.dropped },
      ...(snap.failure ? { failure_code: snap.failure.code } : {}),
    },
    MESSAGES[event],
  );
}
