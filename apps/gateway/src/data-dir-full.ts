import type { Runtime } from '@trawl/process';
import { serviceUnavailableError, type ApiError } from './api-error.ts';

/**
 * Seconds a caller is asked to wait when the data directory is full: space comes back as retention deletes old
 * runs and crawls (the expiry sweep runs at least once a minute), not within a second or two.
 */
export const DATA_DIR_FULL_RETRY_AFTER_S = 60;

/**
 * The answer to a creation (Fetch, Browser scrape, Crawl, trends job) while the data directory holds
 * TRAWL_DATA_MAX_BYTES: 503 `service_unavailable`, retryable (retention frees space), with Retry-After. It names
 * the reason only: no path, no figures.
 */
export function dataDirFullError(): ApiError {
  return serviceUnavailableError(
    'the data directory is full: no new work is accepted until retention frees space; reads still answer',
    'data_dir_full',
    DATA_DIR_FULL_RETRY_AFTER_S,
  );
}

/** The refusal a creation gets now, or null to go ahead (no data directory, no limit, or room left). */
export function creationRefusal(space: Runtime['space']): ApiError | null {
  return space?.full() ? dataDirFullError() : null;
}
