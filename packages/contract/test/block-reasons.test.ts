import { describe, expect, it } from 'vitest';
import { BLOCK_REASON_NAMES, BLOCK_REASONS, BlockReason, ERROR_CODES, retryableHttpStatus, retryCategoryOf } from '../src/index.ts';

const reasons = BLOCK_REASON_NAMES;

describe('BLOCK_REASONS', () => {
  it('is the audit enum: same names, same order', () => {
    expect(BlockReason.options).toEqual(Object.keys(BLOCK_REASONS));
  });

  it('maps every reason to a public error code of a failure status', () => {
    for (const r of reasons) {
      const code = BLOCK_REASONS[r].error_code;
      expect(ERROR_CODES[code], r).toBeDefined();
      expect(ERROR_CODES[code].status, r).toBeGreaterThanOrEqual(400);
    }
  });

  it('answers the README "Page outcomes" statuses', () => {
    const status = Object.fromEntries(reasons.map((r) => [r, ERROR_CODES[BLOCK_REASONS[r].error_code].status]));
    expect(status).toEqual({
      browser_capacity_full: 503,
      body_size_limit: 502,
      redirect_limit: 502,
      blocked_target: 403,
      unsupported_content_type: 502,
      http_error: 502,
      network_error: 502,
      timeout: 408,
      robots_disallowed: 403,
      out_of_scope_redirect: 502,
      render_failed: 502,
    });
  });

  it('agrees with the error code where the reason fixes retryable', () => {
    for (const r of reasons) {
      const row = BLOCK_REASONS[r];
      // fetch_failed's default is true but a refusal (size, redirects, type) is not worth retrying: the only override.
      if (typeof row.retryable === 'boolean' && row.error_code !== 'fetch_failed') {
        expect(row.retryable, r).toBe(ERROR_CODES[row.error_code].retryable);
      }
    }
  });

  it('retries exactly the retryable reasons, and never a blocked one', () => {
    for (const r of reasons) {
      const row = BLOCK_REASONS[r];
      expect(row.retry_category === null, r).toBe(row.retryable === false);
      if (row.outcome === 'blocked') expect(row.retry_category === null || r === 'browser_capacity_full', r).toBe(true);
    }
  });

  it('counts as failed only the retrievals that went wrong; refusals are blocked', () => {
    const failed = reasons.filter((r) => BLOCK_REASONS[r].outcome === 'failed').sort();
    expect(failed).toEqual(['http_error', 'network_error', 'render_failed', 'timeout']);
  });

  it('gives Retry-After only to the capacity refusal', () => {
    const withHeader = reasons.filter((r) => BLOCK_REASONS[r].retry_after_s !== null);
    expect(withHeader).toEqual(['browser_capacity_full']);
    expect(BLOCK_REASONS.browser_capacity_full.retry_after_s).toBe(1);
  });

  it('has a message for every reason, none naming a URL', () => {
    for (const r of reasons) {
      expect(BLOCK_REASONS[r].message.length, r).toBeGreaterThan(10);
      expect(BLOCK_REASONS[r].message, r).not.toMatch(/https?:/);
    }
  });
});

describe('retryableHttpStatus', () => {
  it('retries 408, 425, 429 and 5xx only', () => {
    const retried = [400, 401, 403, 404, 408, 410, 425, 429, 451, 499, 500, 502, 503, 599].filter(retryableHttpStatus);
    expect(retried).toEqual([408, 425, 429, 500, 502, 503, 599]);
  });
});

describe('retryCategoryOf', () => {
  it('names the crawl retry counter per reason', () => {
    expect(retryCategoryOf('browser_capacity_full', null)).toBe('browser_capacity');
    expect(retryCategoryOf('render_failed', null)).toBe('browser_crash');
    expect(retryCategoryOf('timeout', null)).toBe('timeout');
    expect(retryCategoryOf('network_error', null)).toBe('network');
    expect(retryCategoryOf('blocked_target', null)).toBeNull();
    expect(retryCategoryOf('robots_disallowed', null)).toBeNull();
  });

  it('splits HTTP errors by status', () => {
    expect(retryCategoryOf('http_error', 429)).toBe('http_429');
    expect(retryCategoryOf('http_error', 503)).toBe('http_5xx');
    expect(retryCategoryOf('http_error', 408)).toBe('http_4xx');
    expect(retryCategoryOf('http_error', null)).toBeNull();
  });
});
