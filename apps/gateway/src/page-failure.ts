import { BLOCK_REASONS } from '@trawl/contract';
import type { ScrapeFailure } from '@trawl/scrape';
import { ApiError } from './api-error.ts';

/** The public error for a page run that delivered nothing (README "Page outcomes"; the table is contract's BLOCK_REASONS). */
export function pageFailureError(f: Pick<ScrapeFailure, 'blockReason' | 'retryable' | 'statusCode' | 'detail'>, runId: string): ApiError {
  const row = BLOCK_REASONS[f.blockReason];
  const details: Record<string, unknown> = { run_id: runId, block_reason: f.blockReason };
  if (f.statusCode !== null && f.blockReason === 'http_error') details.status_code = f.statusCode;
  if (f.detail) details.reason = f.detail;
  // `status` and `cause`: the failure itself already carries the verdict its engine reached.
  const retryable = typeof row.retryable === 'boolean' ? row.retryable : f.retryable;
  const headers = row.retry_after_s === null ? undefined : { 'retry-after': String(row.retry_after_s) };
  return new ApiError(row.error_code, row.message, { details, retryable, ...(headers ? { headers } : {}) });
}
