import type { TrendsJobError } from '@trawl/contract';

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

/** Failures worth another attempt later: Google (or the path to it) may answer differently then. */
const RETRYABLE: ReadonlySet<UpstreamFailure> = new Set(['rate_limited', 'blocked', 'unavailable', 'timeout', 'unreachable', 'token_rejected']);

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
    return RETRYABLE.has(this.failure);
  }
}

/** The public error of a job whose last attempt ended with `err` (README "Search trends"). */
export function jobErrorOf(err: unknown): TrendsJobError {
  if (!(err instanceof UpstreamError)) {
    return { code: 'internal_error', message: 'the job failed on an internal error', retryable: true };
  }
  const http = err.status === null ? '' : ` (HTTP ${err.status})`;
  switch (err.failure) {
    case 'rate_limited':
      return { code: 'upstream_rate_limited', message: `Google Trends kept answering 429 Too Many Requests${http}; try again later`, retryable: true };
    case 'blocked':
      return { code: 'upstream_blocked', message: 'Google Trends redirected to its /sorry page: it is blocking requests from this server for now', retryable: true };
    case 'unavailable':
      return { code: 'upstream_unavailable', message: `Google Trends answered with a server error${http}`, retryable: true };
    case 'timeout':
      return { code: 'upstream_timeout', message: 'Google Trends did not answer in time', retryable: true };
    case 'unreachable':
      return { code: 'upstream_unreachable', message: 'Google Trends could not be reached', retryable: true };
    case 'refused':
      return {
        code: 'upstream_unreachable',
        message: 'the configured Google Trends address is refused by the SSRF guard (see TRAWL_ALLOW_PRIVATE)',
        retryable: false,
      };
    case 'token_rejected':
      return { code: 'upstream_token_rejected', message: `Google Trends rejected the widget token again after a fresh explore step${http}`, retryable: true };
    case 'rejected':
      return { code: 'upstream_rejected', message: `Google Trends rejected the query${http}`, retryable: false };
    case 'protocol':
      return { code: 'upstream_protocol', message: `Google Trends answered ${err.endpoint} in a form this server cannot read`, retryable: false };
  }
}
