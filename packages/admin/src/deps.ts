import type { RateLimitClass } from '@trawl/contract';
import type { CrawlServices } from '@trawl/crawler';
import type { Store } from '@trawl/store';
import type { TrendsJobStore } from '@trawl/trends';

/**
 * What the admin procedures need, built once by whoever mounts the router (the gateway, from its configuration).
 * No HTTP server here: the router is transport-free. A new area adds the fields it needs.
 */
export interface AdminDeps {
  store: Store;
  /** Credits a team created over admin starts with (TRAWL_TEAM_CREDITS). */
  teamCredits: number;
  /** Each route class's configured default per minute (TRAWL_RATE_LIMIT_<CLASS>_PER_MIN; 0 = unlimited). */
  rateLimitDefaults: Record<RateLimitClass, number>;
  /** The crawl services (crawl store, shard directory, runs) the crawl, worker and frontier views read. */
  crawl: CrawlServices;
  /** Search-trends jobs, for trends.list / get and retention. */
  trendsJobs: TrendsJobStore;
  /** The clock (ms since the epoch) for the timestamps procedures write. */
  now: () => number;
}
