import { describe, expect, it } from 'vitest';
import { jobErrorOf, UPSTREAM_FAILURES, UpstreamError, type UpstreamFailure } from '../src/upstream/upstream-error.ts';

/** The public job error of each upstream failure, pinned: the table must keep answering exactly this. */
const EXPECTED: Record<UpstreamFailure, { code: string; message: string; retryable: boolean }> = {
  rate_limited: { code: 'upstream_rate_limited', message: 'Google Trends kept answering 429 Too Many Requests (HTTP 429); try again later', retryable: true },
  blocked: { code: 'upstream_blocked', message: 'Google Trends redirected to its /sorry page: it is blocking requests from this server for now', retryable: true },
  unavailable: { code: 'upstream_unavailable', message: 'Google Trends answered with a server error (HTTP 429)', retryable: true },
  timeout: { code: 'upstream_timeout', message: 'Google Trends did not answer in time', retryable: true },
  unreachable: { code: 'upstream_unreachable', message: 'Google Trends could not be reached', retryable: true },
  refused: {
    code: 'upstream_unreachable',
    message: 'the configured Google Trends address is refused by the SSRF guard (see TRAWL_ALLOW_PRIVATE)',
    retryable: false,
  },
  token_rejected: { code: 'upstream_token_rejected', message: 'Google Trends rejected the widget token again after a fresh explore step (HTTP 429)', retryable: true },
  rejected: { code: 'upstream_rejected', message: 'Google Trends rejected the query (HTTP 429)', retryable: false },
  protocol: { code: 'upstream_protocol', message: 'Google Trends answered explore in a form this server cannot read', retryable: false },
};

describe('UPSTREAM_FAILURES', () => {
  it('gives every failure its job error', () => {
    for (const f of Object.keys(UPSTREAM_FAILURES) as UpstreamFailure[]) {
      expect(jobErrorOf(new UpstreamError(f, 'explore', 429)), f).toEqual(EXPECTED[f]);
    }
  });

  it('retries the failures whose job error says retryable', () => {
    for (const f of Object.keys(UPSTREAM_FAILURES) as UpstreamFailure[]) {
      expect(new UpstreamError(f, 'cookie').retryable, f).toBe(EXPECTED[f].retryable);
    }
  });

  it('omits the status when there is none', () => {
    expect(jobErrorOf(new UpstreamError('rejected', 'explore')).message).toBe('Google Trends rejected the query');
  });

  it('answers internal_error for anything else', () => {
    expect(jobErrorOf(new Error('x'))).toEqual({ code: 'internal_error', message: 'the job failed on an internal error', retryable: true });
  });
});
