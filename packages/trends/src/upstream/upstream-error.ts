import type { TrendsJobError, TrendsJobErrorCode } from '@trawl/contract';

/** The three upstream exchanges of one related-queries lookup. */
export type TrendsEndpoint = 'cookie' | 'explore' | 'relatedsearches';

/**
 * What went wrong upstream, by cause. `refused`: the SSRF guard would not let us reach the configured base URL;
 * `token_rejected`: a 401 from relatedsearches (stale or tampered widget token); `rejected`: any other 4xx (Google
 * refuses the query itself); `protocol`: an answer we cannot read.
 */
export type UpstreamFailure =
  | 'rate_limited'
  | 'blocked'
  | 'unavailable'
  | 'timeout'
  | 'unreachable'
  | 'refused'
  | 'token_rejected'
  | 'rejected'
  | 'protocol';

/**
 * The one table of upstream failures: the job's public error code, its message, and whether it is worth another
 * attempt later (Google, or the path to it, may answer differently then). `retryable` drives both the runner's
 * retries and the job error's flag. Messages never carry a URL, token, cookie or body. `satisfies` makes a new
 * failure fail to compile until every column is filled.
 */
export const UPSTREAM_FAILURES = {
  rate_limited: {
    code: 'upstream_rate_limited',
    message: ({ http }) => `Google Trends kept answering 429 Too Many Requests${http}; try again later`,
    retryable: true,
  },
  blocked: {
    code: 'upstream_blocked',
    message: () => 'Google Trends redirected to its /sorry page: it is blocking requests from this server for now',
    retryable: true,
  },
  unavailable: { code: 'upstream_unavailable', message: ({ http }) => `Google Trends answered with a server error${http}`, retryable: true },
  timeout: { code: 'upstream_timeout', message: () => 'Google Trends did not answer in time', retryable: true },
  unreachable: { code: 'upstream_unreachable', message: () => 'Google Trends could not be reached', retryable: true },
  // The same public code as unreachable, but retrying cannot help: it is this server's own configuration.
  refused: {
    code: 'upstream_unreachable',
    message: () => 'the configured Google Trends address is refused by the SSRF guard (see TRAWL_ALLOW_PRIVATE)',
    retryable: false,
  },
  token_rejected: {
    code: 'upstream_token_rejected',
    message: ({ http }) => `Google Trends rejected the widget token again after a fresh explore step${http}`,
    retryable: true,
  },
  rejected: { code: 'upstream_rejected', message: ({ http }) => `Google Trends rejected the query${http}`, retryable: false },
  protocol: {
    code: 'upstream_protocol',
    message: ({ endpoint }) => `Google Trends answered ${endpoint} in a form this server cannot read`,
    retryable: false,
  },
} as const satisfies Record<
  UpstreamFailure,
  { code: TrendsJobErrorCode; message: (m: { http: string; endpoint: TrendsEndpoint }) => string; retryable: boolean }
>;

/** Never carries a URL, token, cookie or body: the message names only the endpoint, the cause and the status. */
export class UpstreamError extends Error {
  constructor(
    readonly failure: UpstreamFailure,
    readonly endpoint: TrendsEndpoint,
    readonly status: number | null = null,
    /** From Retry-After, when Google sent one. */
    readonly retryAfterMs: number | null = null,
  ) {
    super(`trends ${endpoint}: ${failure}${status === null ? '' : ` (HTTP ${status})`}`);
    this.name = 'UpstreamError';
  }

  get retryable(): boolean {
    return UPSTREAM_FAILURES[this.failure].retryable;
  }
}

/** The public error of a job whose last attempt ended with `err` (README "Search trends"). */
export function jobErrorOf(err: unknown): TrendsJobError {
  if (!(err instanceof UpstreamError)) {
    return { code: 'internal_error', message: 'the job failed on an internal error', retryable: true };
  }
  const row = UPSTREAM_FAILURES[err.failure];
  const http = err.status === null ? '' : ` (HTTP ${err.status})`;
  return { code: row.code, message: row.message({ http, endpoint: err.endpoint }), retryable: row.retryable };
}
