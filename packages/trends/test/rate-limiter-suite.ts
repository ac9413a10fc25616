import { describe, expect, it } from 'vitest';
import { acquire, type RateLimitSettings, type UpstreamRateLimiter } from '../src/index.ts';
import { maxInWindow } from '@trawl/test-support/max-in-window.ts';

/** The upstream bucket's rules: in process (rate-limiter-conformance.test.ts) and in Redis (.e2e.test.ts). */
export function rateLimiterConformance(backends: [string, (s: RateLimitSettings) => UpstreamRateLimiter][]): void {
  describe.each(backends)('upstream rate limiter conformance: %s', (_name, make) => {
    it('grants one request, then tells how long until the next', async () => {
      const limiter = make({ perWindow: 4, windowMs: 1000 });
      expect(await limiter.take()).toBe(0);
      const wait = await limiter.take();
      // About one interval (250 ms), less the time between the two calls.
      expect(wait).toBeGreaterThan(100);
      expect(wait).toBeLessThanOrEqual(250);
    });

    it('never grants more than perWindow in any window, however many wait at once', async () => {
      const limiter = make({ perWindow: 5, windowMs: 500 });
      const granted: number[] = [];
      await Promise.all(
        Array.from({ length: 12 }, async () => {
          await acquire(limiter);
          granted.push(performance.now());
        }),
      );
      expect(granted).toHaveLength(12);
      // 50 ms of slack for the delay between a grant and this process noticing it (see maxInWindow). Without the
      // limiter all 12 would land in the same few milliseconds.
      expect(maxInWindow(granted, 450)).toBeLessThanOrEqual(5);
    });

    it('holds every taker back after hold()', async () => {
      const limiter = make({ perWindow: 100, windowMs: 1000 });
      await limiter.hold(400);
      const wait = await limiter.take();
      // Far more than one interval (10 ms): everyone waits out the hold.
      expect(wait).toBeGreaterThan(200);
      expect(wait).toBeLessThanOrEqual(400);
    });

    it('stops waiting when aborted', async () => {
      const limiter = make({ perWindow: 1, windowMs: 60_000 });
      await acquire(limiter);
      const ctl = new AbortController();
      setTimeout(() => ctl.abort('stopping'), 50);
      await expect(acquire(limiter, ctl.signal)).rejects.toBe('stopping');
    });
  });
}
