import type { ErrorCode } from './errors.ts';

/**
 * How a crawl page's retry is counted: one category per cause, so the crawl's counters say why pages came back.
 * `http_status` is not a category itself: it expands to http_429 / http_5xx / http_4xx by the status (see
 * `retryCategoryOf`), since the status, not the reason, says what the target meant.
 */
export type RetryCategoryRule = 'browser_capacity' | 'browser_crash' | 'timeout' | 'network' | 'http_status' | null;

/** What a crawl records for a page that delivered nothing: a policy's refusal or a retrieval that failed. */
export type PageFailureKind = 'blocked' | 'failed';

interface BlockReasonRow {
  /** The public error a page run (Fetch, Browser Scrape) answers with; its HTTP status comes from ERROR_CODES. */
  error_code: ErrorCode;
  message: string;
  /** What a crawl records for the page once it is not retried (the frontier's page result kind). */
  outcome: PageFailureKind;
  /** Which crawl retry counter a retryable failure goes to; null: never retried. */
  retry_category: RetryCategoryRule;
  /**
   * Whether trying later may help. `status`: decided by the HTTP status (`retryableHttpStatus`); `cause`: the
   * engine decides per failure (a crash is retried, a closed pool is not).
   */
  retryable: boolean | 'status' | 'cause';
  /** Seconds for the page run's Retry-After header, when the error carries one. */
  retry_after_s: number | null;
}

/**
 * The one table of block reasons (README "Page outcomes"): the public error, message, crawl outcome, retry
 * category and retryability of each. Keys are the contract's wire values, in the order of the audit's enum.
 * `satisfies` makes a new reason fail to compile until every column is filled.
 */
export const BLOCK_REASONS = {
  browser_capacity_full: {
    error_code: 'service_unavailable',
    message: 'no browser capacity was available; retry shortly',
    outcome: 'blocked',
    retry_category: 'browser_capacity',
    retryable: true,
    retry_after_s: 1,
  },
  body_size_limit: {
    error_code: 'fetch_failed',
    message: 'the response body exceeds the 10 MiB limit',
    outcome: 'blocked',
    retry_category: null,
    retryable: false,
    retry_after_s: null,
  },
  redirect_limit: {
    error_code: 'fetch_failed',
    message: 'the target redirected more than 10 times',
    outcome: 'blocked',
    retry_category: null,
    retryable: false,
    retry_after_s: null,
  },
  blocked_target: {
    error_code: 'permission_denied',
    message: 'the target resolves to an address that is not allowed',
    outcome: 'blocked',
    retry_category: null,
    retryable: false,
    retry_after_s: null,
  },
  unsupported_content_type: {
    error_code: 'fetch_failed',
    message: 'the response is not text that can be converted to Markdown',
    outcome: 'blocked',
    retry_category: null,
    retryable: false,
    retry_after_s: null,
  },
  http_error: {
    error_code: 'fetch_failed',
    message: 'the target answered with an error status',
    outcome: 'failed',
    retry_category: 'http_status',
    retryable: 'status',
    retry_after_s: null,
  },
  network_error: {
    error_code: 'fetch_failed',
    message: 'the target could not be reached',
    outcome: 'failed',
    retry_category: 'network',
    retryable: true,
    retry_after_s: null,
  },
  timeout: {
    error_code: 'timeout',
    message: 'the page was not retrieved and processed before the deadline',
    outcome: 'failed',
    retry_category: 'timeout',
    retryable: true,
    retry_after_s: null,
  },
  robots_disallowed: {
    error_code: 'permission_denied',
    message: "the target's robots.txt disallows this page",
    outcome: 'blocked',
    retry_category: null,
    retryable: false,
    retry_after_s: null,
  },
  out_of_scope_redirect: {
    error_code: 'fetch_failed',
    message: 'the target redirected outside the allowed scope',
    outcome: 'blocked',
    retry_category: null,
    retryable: false,
    retry_after_s: null,
  },
  render_failed: {
    error_code: 'render_failed',
    message: 'the browser could not render the page',
    outcome: 'failed',
    retry_category: 'browser_crash',
    retryable: 'cause',
    retry_after_s: null,
  },
} as const satisfies Record<string, BlockReasonRow>;

/** The names; `BlockReason` (page.ts) is the zod enum over them, the audit's wire values. */
type Reason = keyof typeof BLOCK_REASONS;
export const BLOCK_REASON_NAMES = Object.keys(BLOCK_REASONS) as [Reason, ...Reason[]];

/**
 * Why a page delivered nothing when no block reason applies: its task threw (our fault, not the target's). A failed
 * page run and a crawl's failure counters record it beside the block reasons; the audit never shows it.
 */
export const INTERNAL_FAILURE = 'internal_error';
/** Every reason a page (run or crawl page) can fail for. */
export type PageFailureReason = Reason | typeof INTERNAL_FAILURE;

/** HTTP statuses worth retrying later: the target may answer differently. */
export function retryableHttpStatus(code: number): boolean {
  return code === 408 || code === 425 || code === 429 || code >= 500;
}

/** The crawl retry category of a failure already judged retryable, or null when it has none. */
export function retryCategoryOf(reason: Reason, statusCode: number | null): string | null {
  const rule: RetryCategoryRule = BLOCK_REASONS[reason].retry_category;
  if (rule !== 'http_status') return rule;
  if (statusCode === null) return null;
  if (statusCode === 429) return 'http_429';
  if (statusCode >= 500) return 'http_5xx';
  return 'http_4xx';
}
