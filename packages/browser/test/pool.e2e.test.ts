import { readdirSync, readFileSync } from 'node:fs';
import { afterAll, beforeAll, describe, expect, it } from 'vitest';
import { createBrowserPool, type RenderOutcome } from '../src/index.ts';
import { startBrowserSite, type BrowserSite } from './support/browser-site.ts';
import { testGuard, within } from './setup.ts';

let site: BrowserSite;
beforeAll(async () => {
  site = await startBrowserSite();
});
afterAll(async () => {
  await site?.close();
});

/** Chromium browser processes started by this test process (Playwright spawns them as direct children). */
function chromiumChildren(): number[] {
  const pids: number[] = [];
  for (const name of readdirSync('/proc')) {
    if (!/^\d+$/.test(name)) continue;
    try {
      const stat = readFileSync(`/proc/${name}/stat`, 'utf8');
      const m = stat.match(/^\d+ \((.*)\) \S (\d+) /);
      if (m && m[1].startsWith('chromium') && Number(m[2]) === process.pid) pids.push(Number(name));
    } catch {
      // the process ended while we looked
    }
  }
  return pids;
}

describe('browser pool', () => {
  it('answers the excess of 3x capacity with browser_capacity_full at once, and keeps serving', async () => {
    const pool = createBrowserPool({ guard: testGuard(), maxPages: 2, acquireTimeoutMs: 50 });
    try {
      expect((await pool.render({ url: `${site.origin('warm.test')}/plain`, deadline: within(20_000) })).ok).toBe(true);
      const started = Date.now();
      const runs = await Promise.all(
        Array.from({ length: 6 }, (_, i) =>
          pool
            .render({ url: `${site.origin('busy.test')}/slow?ms=1500&n=${i}`, deadline: within(20_000) })
            .then((r) => ({ r, ms: Date.now() - started })),
        ),
      );
      const full = runs.filter((x) => !x.r.ok && x.r.blockReason === 'browser_capacity_full');
      const rendered = runs.filter((x) => x.r.ok);
      expect(full).toHaveLength(4);
      expect(rendered).toHaveLength(2);
      for (const { r, ms } of full) {
        expect(ms).toBeLessThan(1000);
        expect(r).toMatchObject({ ok: false, retryable: true });
        expect(r.diagnostics.browser_failure).toEqual({
          present: true,
          category: 'capacity',
          stage: 'acquire',
          attempt_count: 0,
          browser_lease_acquired: false,
          error_code: 'browser_capacity_full',
        });
      }
      // The rendered ones held their pages the whole 1.5 s: the refusals did not wait for them.
      for (const { ms } of rendered) expect(ms).toBeGreaterThanOrEqual(1500);
      expect(pool.stats()).toMatchObject({ maxPages: 2, active: 0, waiting: 0, rejectedForCapacity: 4 });
      expect((await pool.render({ url: `${site.origin('after.test')}/plain`, deadline: within(20_000) })).ok).toBe(true);
    } finally {
      await pool.close();
    }
  });

  it('retries once on a fresh Chromium when the browser is killed mid-render, and keeps serving', async () => {
    const pool = createBrowserPool({ guard: testGuard(), maxPages: 2 });
    try {
      const pending = pool.render({ url: `${site.origin('crash.test')}/hang-once?id=kill`, deadline: within(30_000) });
      await site.waitForHit('/hang-once');
      const pids = chromiumChildren();
      expect(pids.length).toBeGreaterThan(0);
      for (const pid of pids) process.kill(pid, 'SIGKILL');

      const r: RenderOutcome = await pending;
      if (!r.ok) throw new Error(`expected the retry to deliver: ${JSON.stringify(r.diagnostics.browser_failure)}`);
      expect(r.html).toContain('The page answered on the second request.');
      expect(r.diagnostics.browser_failure).toEqual({
        present: true,
        category: 'crash',
        stage: 'navigate',
        attempt_count: 2,
        browser_lease_acquired: true,
        error_code: 'browser_crashed',
      });
      expect(site.hits('/hang-once')).toBe(2);
      expect(pool.stats()).toMatchObject({ launches: 2, crashes: 1 });

      const next = await pool.render({ url: `${site.origin('crash.test')}/plain`, deadline: within(20_000) });
      expect(next.ok).toBe(true);
      expect(next.diagnostics.browser_failure).toMatchObject({ present: false, category: 'none', attempt_count: 1 });
      expect(pool.stats()).toMatchObject({ launches: 2, browsers: 1 });
    } finally {
      await pool.close();
    }
    expect(chromiumChildren()).toEqual([]);
  });

  it('recycles a browser after its quota of renders', async () => {
    const pool = createBrowserPool({ guard: testGuard(), maxPages: 1, recyclePagesPerBrowser: 2 });
    try {
      for (let i = 0; i < 3; i++) {
        expect((await pool.render({ url: `${site.origin('cycle.test')}/plain`, deadline: within(20_000) })).ok).toBe(true);
      }
      expect(pool.stats()).toMatchObject({ launches: 2, crashes: 0, renders: 3 });
    } finally {
      await pool.close();
    }
  });

  it('a Chromium that cannot start is a launch failure, not a hang', async () => {
    const pool = createBrowserPool({ guard: testGuard(), executablePath: '/nonexistent/chromium' });
    try {
      const r = await pool.render({ url: `${site.origin('x.test')}/plain`, deadline: within(10_000) });
      expect(r).toMatchObject({ ok: false, blockReason: 'render_failed', retryable: true });
      expect(r.diagnostics.browser_failure).toMatchObject({ present: true, category: 'crash', stage: 'launch', error_code: 'browser_launch_failed' });
    } finally {
      await pool.close();
    }
  });
});
