import type { ScrapeFailure } from '@trawl/scrape';
import { ApiError } from './api-error.ts';

const MESSAGES: Record<string, string> = {
  blocked_target: 'the target resolves to an address that is not allowed',
  timeout: 'the page was not retrieved and processed before the deadline',
  body_size_limit: 'the response body exceeds the 10 MiB limit',
  redirect_limit: 'the target redirected more than 10 times',
  out_of_scope_redirect: 'the target redirected outside the allowed scope',
  unsupported_content_type: 'the response is not text that can be converted to Markdown',
  http_error: 'the target answered with an error status',
  network_error: 'the target could not be reached',
  robots_disallowed: "the target's robots.txt disallows this page",
  browser_capacity_full: 'no browser capacity was available; retry shortly',
  render_failed: 'the browser could not render the page',
};

/** The public error for a page run that delivered nothing (DESIGN.md "Page outcomes"). */
export function pageFailureError(f: ScrapeFailure, runId: string): ApiError {
  const details: Record<string, unknown> = { run_id: runId, block_reason: f.blockReason };
  if (f.statusCode !== null && f.blockReason === 'http_error') details.status_code = f.statusCode;
  if (f.detail) details.reason = f.detail;
  const message = MESSAGES[f.blockReason] ?? 'the page could not be retrieved';
  switch (f.blockReason) {
    case 'blocked_target':
    case 'robots_disallowed':
      return new ApiError('permission_denied', message, { details });
    case 'timeout':
      return new ApiError('timeout', message, { details, retryable: true });
    case 'browser_capacity_full':
      return new ApiError('service_unavailable', message, { details, retryable: true, headers: { 'retry-after': '1' } });
    case 'render_failed':
      return new ApiError('render_failed', message, { details, retryable: f.retryable });
    default:
      return new ApiError('fetch_failed', message, { details, retryable: f.retryable });
  }
}
