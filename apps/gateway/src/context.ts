import type { TrawlConfig } from '@trawl/config';
import type { RunServices } from '@trawl/runs';
import type { LightFetcher } from '@trawl/scrape';
import type { Store } from '@trawl/store';

/** What the routes need, built once at start-up (embedded or cluster). */
export interface GatewayContext {
  config: TrawlConfig;
  store: Store;
  light: LightFetcher;
  runs: RunServices;
  now: () => number;
}
