import { recordPage } from '@trawl/metrics';
import type { ScrapeOutcome } from './outcome.ts';

/** Counts one engine's retrieval of a page (trawl_pages_fetched_total) and hands its outcome on unchanged. */
export function countedPage(engine: 'light' | 'browser', outcome: ScrapeOutcome): ScrapeOutcome {
  if (outcome.ok) recordPage(engine, outcome.page.status, outcome.page.audit.block_reason);
  else recordPage(engine, 'failed', outcome.failure.blockReason);
  return outcome;
}
