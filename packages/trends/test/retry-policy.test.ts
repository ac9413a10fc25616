import { describe, expect, it } from 'vitest';
import { retryDelayMs, shouldRetry, UpstreamError } from '../src/index.ts';

const backoff = { baseMs: 1000, maxMs: 8000 };

describe('retryDelayMs', () => {
  it('doubles per attempt with jitter over the upper half, up to the cap', () => {
    expect([1, 2, 3, 4, 5].map((a) => retryDelayMs(a, backoff, null, () => 0))).toEqual([500, 1000, 2000, 4000, 4000]);
    expect([1, 2, 3, 4, 5].map((a) => retryDelayMs(a, backoff, null, () => 1))).toEqual([1000, 2000, 4000, 8000, 8000]);
    expect(retryDelayMs(2, backoff, null, () => 0.5)).toBe(1500);
  });

  it('honours Retry-After as a floor, even past the cap', () => {
    expect(retryDelayMs(1, backoff, 30_000, () => 0)).toBe(30_000);
    expect(retryDelayMs(3, backoff, 10, () => 0)).toBe(2000);
  });
});

describe('shouldRetry', () => {
  it('retries 429, blocks, 5xx, timeouts, transport errors and a stale token; never a 400', () => {
    for (const f of ['rate_limited', 'blocked', 'unavailable', 'timeout', 'unreachable', 'token_rejected'] as const) {
      expect(shouldRetry(new UpstreamError(f, 'explore'), 1, 5), f).toBe(true);
    }
    for (const f of ['rejected', 'protocol', 'refused'] as const) expect(shouldRetry(new UpstreamError(f, 'explore', 400), 1, 5), f).toBe(false);
  });

  it('stops at the last attempt', () => {
    expect(shouldRetry(new UpstreamError('rate_limited', 'explore', 429), 4, 5)).toBe(true);
    expect(shouldRetry(new UpstreamError('rate_limited', 'explore', 429), 5, 5)).toBe(false);
  });
});
