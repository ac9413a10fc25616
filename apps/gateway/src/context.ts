import type { TrawlConfig } from '@trawl/config';
import type { CrawlServices } from '@trawl/crawler';
import type { Runtime } from '@trawl/process';
import type { RunAccessDeps, RunServices } from '@trawl/runs';
import type { BrowserRenderer, ContentProcessor, LightFetcher } from '@trawl/scrape';
import type { ApiKeyRecord, Store } from '@trawl/store';
import type { TrendsJobStore } from '@trawl/trends';

/** What the routes need, built once at start-up (embedded or cluster). */
export interface GatewayContext {
  config: TrawlConfig;
  store: Store;
  light: LightFetcher;
  browser: BrowserRenderer;
  content: ContentProcessor;
  runs: RunServices;
  crawl: CrawlServices;
  /** Reading runs and downloading artifacts, with ownership checks (`@trawl/runs` run-access). */
  runAccess: RunAccessDeps;
  trends: TrendsJobStore;
  /** Called after a trends job is created, so in-process runners take it without waiting for their poll. */
  onTrendsJobCreated: () => void;
  now: () => number;
  /** Embedded mode on disk: the data directory's space against TRAWL_DATA_MAX_BYTES (creations refused when full). */
  space: Runtime['space'];
  /**
   * Recreates the configured bootstrap key when a request presents it and the store has lost it (Redis came back
   * empty); null for any other secret.
   */
  recoverKey?: (secret: string) => Promise<ApiKeyRecord | null>;
}
