import { describe, expect, it } from 'vitest';
import { QUOTA_RESOURCE_NAMES } from '@trawl/contract';
import { QUOTA_USAGE_MONTHS_KEPT, quotaMonth, type Store } from '../src/index.ts';

export const MONTH = '2031-05';
const team = () => `team_${Math.random().toString(36).slice(2)}`;

/**
 * Monthly quotas on both backends: a take passes only while used + units stays within the limit (also with 60
 * callers at once), unlimited still counts, a give-back happens once per mark and never below zero, months, teams
 * and resources are apart, and a month's usage is forgotten QUOTA_USAGE_MONTHS_KEPT months after it ends.
 * Run by quota-conformance.test.ts (Kv stores) and quota-conformance.e2e.test.ts (Redis). Redis expires usage by
 * its own clock, so every backend runs on the real time here.
 */
export function quotaConformance(backends: [string, () => Store][]): void {
  describe.each(backends)('quota conformance: %s', (_name, make) => {
    it('takes up to the limit exactly, then refuses without counting, and reports usage and limit', async () => {
      const store = make();
      const t = team();
      await store.setQuota(t, 'scrape', 3);
      const seen = [];
      for (let i = 0; i < 4; i++) seen.push(await store.takeQuota(t, 'scrape', MONTH, 1));
      expect(seen).toEqual([
        { ok: true, used: 1, monthly: 3 },
        { ok: true, used: 2, monthly: 3 },
        { ok: true, used: 3, monthly: 3 },
        { ok: false, used: 3, monthly: 3 },
      ]);
      expect((await store.getQuotas(t, MONTH)).scrape).toEqual({ monthly: 3, used: 3 });
    });

    it('refuses a take of several units that would cross the limit, even when some would fit', async () => {
      const store = make();
      const t = team();
      await store.setQuota(t, 'crawl_pages', 10);
      expect(await store.takeQuota(t, 'crawl_pages', MONTH, 8)).toEqual({ ok: true, used: 8, monthly: 10 });
      expect(await store.takeQuota(t, 'crawl_pages', MONTH, 3)).toEqual({ ok: false, used: 8, monthly: 10 });
      expect(await store.takeQuota(t, 'crawl_pages', MONTH, 2)).toEqual({ ok: true, used: 10, monthly: 10 });
      expect((await store.takeQuota(t, 'crawl_pages', MONTH, 1)).ok).toBe(false);
    });

    it('never passes the limit with 60 takes at once, of one unit or of several', async () => {
      const store = make();
      const t = team();
      await store.setQuota(t, 'scrape', 17);
      const ones = await Promise.all(Array.from({ length: 60 }, () => store.takeQuota(t, 'scrape', MONTH, 1)));
      expect(ones.filter((d) => d.ok)).toHaveLength(17);
      expect(ones.filter((d) => d.ok).map((d) => d.used).sort((a, b) => a - b)).toEqual(Array.from({ length: 17 }, (_, i) => i + 1));
      await store.setQuota(t, 'crawl_pages', 100);
      const sevens = await Promise.all(Array.from({ length: 60 }, () => store.takeQuota(t, 'crawl_pages', MONTH, 7)));
      expect(sevens.filter((d) => d.ok)).toHaveLength(14);
      expect(await store.getQuotas(t, MONTH)).toMatchObject({ scrape: { used: 17 }, crawl_pages: { used: 98 } });
    });

    it('counts without a limit (unlimited), 0 refuses everything, and null drops the limit', async () => {
      const store = make();
      const t = team();
      for (let i = 0; i < 5; i++) expect((await store.takeQuota(t, 'trends', MONTH, 2)).ok).toBe(true);
      expect((await store.getQuotas(t, MONTH)).trends).toEqual({ monthly: null, used: 10 });
      await store.setQuota(t, 'trends', 0);
      expect(await store.takeQuota(t, 'trends', MONTH, 1)).toEqual({ ok: false, used: 10, monthly: 0 });
      // A limit lowered below what was counted refuses until the next month; raising it lets the difference through.
      await store.setQuota(t, 'trends', 12);
      expect((await store.takeQuota(t, 'trends', MONTH, 2)).ok).toBe(true);
      expect((await store.takeQuota(t, 'trends', MONTH, 1)).ok).toBe(false);
      await store.setQuota(t, 'trends', null);
      expect(await store.takeQuota(t, 'trends', MONTH, 1)).toEqual({ ok: true, used: 13, monthly: null });
    });

    it('gives back once per mark, never below zero, and only to the month named', async () => {
      const store = make();
      const t = team();
      await store.setQuota(t, 'browser_scrape', 2);
      await store.takeQuota(t, 'browser_scrape', MONTH, 1);
      await store.takeQuota(t, 'browser_scrape', MONTH, 1);
      await store.returnQuota(t, 'browser_scrape', MONTH, 1, 'run_a');
      await store.returnQuota(t, 'browser_scrape', MONTH, 1, 'run_a');
      expect((await store.getQuotas(t, MONTH)).browser_scrape.used).toBe(1);
      // The same mark on another resource is another give-back.
      await store.takeQuota(t, 'scrape', MONTH, 4);
      await store.returnQuota(t, 'scrape', MONTH, 3, 'run_a');
      expect((await store.getQuotas(t, MONTH)).scrape.used).toBe(1);
      await store.returnQuota(t, 'browser_scrape', MONTH, 5, 'run_b');
      expect((await store.getQuotas(t, MONTH)).browser_scrape).toEqual({ monthly: 2, used: 0 });
      // A month with nothing counted gets nothing (and no usage appears there).
      await store.returnQuota(t, 'browser_scrape', '2031-04', 1, 'run_c');
      expect((await store.getQuotas(t, '2031-04')).browser_scrape.used).toBe(0);
      expect((await store.takeQuota(t, 'browser_scrape', MONTH, 2)).ok).toBe(true);
    });

    it('keeps months, teams and resources apart; limits hold for every month', async () => {
      const store = make();
      const [a, b] = [team(), team()];
      await store.setQuota(a, 'scrape', 1);
      expect((await store.takeQuota(a, 'scrape', '2031-05', 1)).ok).toBe(true);
      expect((await store.takeQuota(a, 'scrape', '2031-05', 1)).ok).toBe(false);
      expect((await store.takeQuota(a, 'scrape', '2031-06', 1)).ok).toBe(true);
      expect((await store.takeQuota(b, 'scrape', '2031-05', 1)).ok).toBe(true);
      for (const r of QUOTA_RESOURCE_NAMES.filter((x) => x !== 'scrape')) expect((await store.takeQuota(a, r, '2031-05', 1)).ok, r).toBe(true);
      expect(await store.getQuotas(a, '2031-05')).toEqual({
        crawl_pages: { monthly: null, used: 1 },
        scrape: { monthly: 1, used: 1 },
        browser_scrape: { monthly: null, used: 1 },
        trends: { monthly: null, used: 1 },
      });
      expect(await store.getQuotas(b, '2031-06')).toEqual(Object.fromEntries(QUOTA_RESOURCE_NAMES.map((r) => [r, { monthly: null, used: 0 }])));
    });

    it(`forgets a month's usage ${QUOTA_USAGE_MONTHS_KEPT} months after it ends, not before`, async () => {
      const store = make();
      const t = team();
      const monthsAgo = (n: number) => {
        const d = new Date();
        return quotaMonth(Date.UTC(d.getUTCFullYear(), d.getUTCMonth() - n, 15));
      };
      const kept = monthsAgo(QUOTA_USAGE_MONTHS_KEPT - 1);
      const gone = monthsAgo(QUOTA_USAGE_MONTHS_KEPT + 1);
      await store.takeQuota(t, 'crawl_pages', kept, 5);
      await store.takeQuota(t, 'crawl_pages', gone, 5);
      expect((await store.getQuotas(t, kept)).crawl_pages.used).toBe(5);
      expect((await store.getQuotas(t, gone)).crawl_pages.used).toBe(0);
      // A crawl of a kept month still gives back to it; one of a forgotten month changes nothing.
      await store.returnQuota(t, 'crawl_pages', kept, 2, 'run_k');
      await store.returnQuota(t, 'crawl_pages', gone, 2, 'run_g');
      expect((await store.getQuotas(t, kept)).crawl_pages.used).toBe(3);
      expect((await store.getQuotas(t, gone)).crawl_pages.used).toBe(0);
    });
  });
}
