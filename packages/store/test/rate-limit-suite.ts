import { describe, expect, it } from 'vitest';
import fc from 'fast-check';
import { RATE_LIMIT_CLASS_NAMES } from '@trawl/contract';
import { maxInWindow } from '@trawl/test-support/max-in-window.ts';
import type { Clock, MakeStore } from './store-backends.ts';

// A second boundary plus 250 ms: slot arithmetic is visible in the expected figures.
const T0 = 1_800_000_000_000 + 250;

/**
 * Rate limits on both backends, on an injected clock (Redis is given the caller's time, so both backends see the
 * same instants): never more than N grants in any 60 seconds, also with 50 callers at once; Retry-After the exact
 * whole seconds until a request passes; overrides over defaults; teams and classes apart; replays given back.
 * Run by rate-limit-conformance.test.ts (Kv stores) and rate-limit-conformance.e2e.test.ts (Redis).
 */
export function rateLimitConformance(backends: [string, MakeStore][]): void {
  describe.each(backends)('rate limit conformance: %s', (_name, make) => {
    const setup = () => {
      const clock: Clock = { t: T0 };
      return { clock, store: make(clock) };
    };

    it('allows N in a burst, refuses the next with Retry-After to the second, and counts down Remaining', async () => {
      const { clock, store } = setup();
      const seen = [];
      for (let i = 0; i < 3; i++) seen.push(await store.takeRateLimit('team_a', 'fetch', 3));
      expect(seen.map((d) => [d.allowed, d.limit, d.remaining])).toEqual([
        [true, 3, 2],
        [true, 3, 1],
        [true, 3, 0],
      ]);
      // All three sit in the slot of second T0/1000; it leaves the window 61 s after that second began.
      for (const d of seen) expect(d.reset_s).toBe(61);
      expect(seen[0].slot).toBe(Math.floor(T0 / 1000));
      clock.t += 20_000;
      const refused = await store.takeRateLimit('team_a', 'fetch', 3);
      expect(refused).toEqual({ allowed: false, limit: 3, remaining: 0, retry_after_s: 41, reset_s: 41, slot: null });
      // Retry-After is the smallest whole number of seconds after which a request passes.
      clock.t += 40_000;
      expect((await store.takeRateLimit('team_a', 'fetch', 3)).allowed).toBe(false);
      clock.t += 1_000;
      const again = await store.takeRateLimit('team_a', 'fetch', 3);
      expect(again).toMatchObject({ allowed: true, remaining: 2 });
    });

    it('Retry-After is exact for every arrival time: refused at +(R-1) s, allowed at +R s', async () => {
      await fc.assert(
        fc.asyncProperty(
          fc.integer({ min: 1, max: 5 }),
          fc.array(fc.integer({ min: 0, max: 30_000 }), { minLength: 1, maxLength: 8 }),
          fc.integer({ min: 0, max: 59_999 }),
          async (limit, gaps, wait) => {
            const { clock, store } = setup();
            const team = `team_${Math.random().toString(36).slice(2)}`;
            for (const g of gaps) {
              clock.t += g;
              await store.takeRateLimit(team, 'reads', limit);
            }
            clock.t += wait;
            const d = await store.takeRateLimit(team, 'reads', limit);
            if (d.allowed) return;
            expect(d.retry_after_s).toBeGreaterThanOrEqual(1);
            expect(d.retry_after_s).toBeLessThanOrEqual(61);
            const at = clock.t;
            clock.t = at + (d.retry_after_s - 1) * 1000;
            expect((await store.takeRateLimit(team, 'reads', limit)).allowed).toBe(false);
            clock.t = at + d.retry_after_s * 1000;
            expect((await store.takeRateLimit(team, 'reads', limit)).allowed).toBe(true);
          },
        ),
        { numRuns: 40 },
      );
    });

    it('never grants more than N in any 60 seconds, with 50 callers at once', async () => {
      const { clock, store } = setup();
      const N = 10;
      const granted: number[] = [];
      // Bursts of 50 concurrent calls at irregular times over six simulated minutes.
      let rnd = 7;
      for (let burst = 0; burst < 40; burst++) {
        rnd = (rnd * 48271) % 2147483647;
        clock.t += rnd % 17_000;
        const at = clock.t;
        const all = await Promise.all(Array.from({ length: 50 }, () => store.takeRateLimit('team_c', 'reads', N)));
        const ok = all.filter((d) => d.allowed).length;
        if (burst === 0) expect(ok).toBe(N);
        for (let i = 0; i < ok; i++) granted.push(at);
        for (const d of all.filter((x) => !x.allowed)) expect(d.retry_after_s).toBeGreaterThanOrEqual(1);
      }
      // Closed windows of exactly 60 s: at most N grants; and the limiter did let traffic through over time.
      expect(maxInWindow(granted, 60_001)).toBeLessThanOrEqual(N);
      expect(granted.length).toBeGreaterThanOrEqual(3 * N);
    });

    it('a team override wins over the default, 0 means unlimited, and null brings the default back', async () => {
      const { store } = setup();
      expect(await store.getRateLimits('team_o')).toEqual({});
      await store.setRateLimit('team_o', 'crawl_create', 2);
      await store.setRateLimit('team_o', 'reads', 0);
      expect(await store.getRateLimits('team_o')).toEqual({ crawl_create: 2, reads: 0 });
      const crawl = [];
      for (let i = 0; i < 3; i++) crawl.push(await store.takeRateLimit('team_o', 'crawl_create', 100));
      expect(crawl.map((d) => d.allowed)).toEqual([true, true, false]);
      expect(crawl[0].limit).toBe(2);
      const reads = await Promise.all(Array.from({ length: 20 }, () => store.takeRateLimit('team_o', 'reads', 1)));
      expect(reads.every((d) => d.allowed && d.limit === 0 && d.slot === null)).toBe(true);
      await store.setRateLimit('team_o', 'reads', null);
      expect(await store.getRateLimits('team_o')).toEqual({ crawl_create: 2 });
      expect((await store.takeRateLimit('team_o', 'reads', 1)).allowed).toBe(true);
      expect((await store.takeRateLimit('team_o', 'reads', 1)).allowed).toBe(false);
      // A lowered limit refuses until enough of what was counted has left.
      await store.setRateLimit('team_o', 'crawl_create', 1);
      expect((await store.takeRateLimit('team_o', 'crawl_create', 100)).retry_after_s).toBe(61);
    });

    it('keeps teams and route classes apart', async () => {
      const { store } = setup();
      expect((await store.takeRateLimit('team_x', 'fetch', 1)).allowed).toBe(true);
      expect((await store.takeRateLimit('team_x', 'fetch', 1)).allowed).toBe(false);
      expect((await store.takeRateLimit('team_y', 'fetch', 1)).allowed).toBe(true);
      for (const cls of RATE_LIMIT_CLASS_NAMES.filter((c) => c !== 'fetch')) {
        expect((await store.takeRateLimit('team_x', cls, 1)).allowed, cls).toBe(true);
      }
      await store.setRateLimit('team_x', 'browser_scrape', 5);
      expect(await store.getRateLimits('team_y')).toEqual({});
    });

    it('a refund gives back the request counted in its slot, once per request counted', async () => {
      const { clock, store } = setup();
      const a = await store.takeRateLimit('team_r', 'fetch', 2);
      const b = await store.takeRateLimit('team_r', 'fetch', 2);
      expect(b.remaining).toBe(0);
      await store.refundRateLimit('team_r', 'fetch', b.slot!);
      const c = await store.takeRateLimit('team_r', 'fetch', 2);
      expect(c).toMatchObject({ allowed: true, remaining: 0 });
      expect((await store.takeRateLimit('team_r', 'fetch', 2)).allowed).toBe(false);
      // A slot that has left the window gives nothing back (and never goes below zero).
      clock.t += 62_000;
      await store.refundRateLimit('team_r', 'fetch', a.slot!);
      await store.refundRateLimit('team_r', 'fetch', a.slot!);
      const fresh = await Promise.all(Array.from({ length: 3 }, () => store.takeRateLimit('team_r', 'fetch', 2)));
      expect(fresh.map((d) => d.allowed)).toEqual([true, true, false]);
    });
  });
}
