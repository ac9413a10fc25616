import { afterAll, beforeAll, describe, expect, it } from 'vitest';
import { chromium, type Browser, type Page } from 'playwright-core';
import { chromiumArgs, DEFAULT_CHROMIUM_PATH } from '../src/browser-defaults.ts';
import { activityInit, type ActivityProbe } from '../src/page-scripts.ts';

/**
 * What the activity tracker counts as work still to come, when the renderer is starved of CPU (as on a loaded
 * machine). A page that draws in slices scheduled through a MessageChannel (as React's scheduler does) was once read after
 * its sixth slice of forty: on a loaded machine the renderer went without CPU between two slices for longer than
 * the quiet window, and nothing marked the posted message as work still to run. activity.js now counts a message
 * posted to a port of the page and not yet handled, as it counts a timer that is due.
 */
const KEY = '__trawl_test_activity';
let browser: Browser;
let page: Page;

beforeAll(async () => {
  browser = await chromium.launch({ executablePath: DEFAULT_CHROMIUM_PATH, headless: true, args: chromiumArgs(undefined) });
  page = await browser.newPage();
  await page.addInitScript({ content: activityInit(KEY) });
  // Served by interception (init scripts run in navigated documents, not in setContent's).
  await page.route('http://activity.test/', (route) => route.fulfill({ contentType: 'text/html', body: '<main id="root"><h1>Slices</h1></main>' }));
  await page.goto('http://activity.test/');
}, 30_000);
afterAll(async () => {
  await browser?.close();
});

/** Starts a chain of `slices` messages (each adding text if `grow`) and probes in the same task as the first post. */
async function probeDuringChain(p: Page, slices: number, grow: boolean): Promise<ActivityProbe> {
  return p.evaluate(
    ({ key, slices, grow }) => {
      const ch = new MessageChannel();
      const root = document.getElementById('root')!;
      let i = 0;
      ch.port1.onmessage = () => {
        if (grow) root.insertAdjacentHTML('beforeend', `<p>Slice ${i} of the harbour log, with enough words to count as growth.</p>`);
        if (++i < slices) ch.port2.postMessage(0);
      };
      ch.port2.postMessage(0);
      const tracker = (window as unknown as Record<string, { look: (s: null, y: number, w: number) => ActivityProbe }>)[key]!;
      return tracker.look(null, 2000, 0);
    },
    { key: KEY, slices, grow },
  );
}

const look = (p: Page) =>
  p.evaluate((key) => (window as unknown as Record<string, { look: (s: null, y: number, w: number) => ActivityProbe }>)[key]!.look(null, 2000, 0), KEY);

describe('activity tracker and MessageChannel schedulers', () => {
  it('counts a message posted to a port of the page and not yet handled as work due now', async () => {
    const during = await probeDuringChain(page, 5, true);
    expect(during.timerDueIn).toBe(0);
    await page.waitForFunction(() => document.querySelectorAll('#root p').length === 5);
    expect((await look(page)).timerDueIn).toBeNull();
  });

  it('stops counting a chain whose handler has run without adding text (a ticking scheduler)', async () => {
    await probeDuringChain(page, 200, false);
    await page.waitForTimeout(50);
    expect((await look(page)).timerDueIn).toBeNull();
  });

  it('keeps onmessage readable as the page set it, and a removed listener no longer runs', async () => {
    const result = await page.evaluate(() => {
      const ch = new MessageChannel();
      const fn = () => undefined;
      ch.port1.onmessage = fn;
      let calls = 0;
      const listener = () => void calls++;
      ch.port2.addEventListener('message', listener);
      ch.port2.start();
      ch.port2.removeEventListener('message', listener);
      ch.port1.postMessage(0);
      return new Promise<{ same: boolean; calls: number }>((resolve) => setTimeout(() => resolve({ same: ch.port1.onmessage === fn, calls }), 50));
    });
    expect(result).toEqual({ same: true, calls: 0 });
  });
});

describe('activity tracker and callbacks slowed down', () => {
  it('owes the growth to a timer callback whose change lands long after it began, so its next run is still waited for', async () => {
    await page.goto('http://activity.test/');
    await page.evaluate(() => {
      const root = document.getElementById('root')!;
      let i = 0;
      // Each run spends 120 ms before adding its chunk (a starved renderer looks the same from inside).
      const chunk = () => {
        const t = performance.now();
        while (performance.now() - t < 120) {
          /* busy */
        }
        root.insertAdjacentHTML('beforeend', `<p>Chunk ${i} of the slow article, with words enough to count as growth.</p>`);
        if (++i < 3) setTimeout(chunk, 400);
      };
      setTimeout(chunk, 0);
    });
    await page.waitForFunction(() => document.querySelectorAll('#root p').length >= 1);
    const probe = await look(page);
    expect(probe.timerDueIn).not.toBeNull();
    expect(probe.timerDueIn!).toBeLessThanOrEqual(400);
  });
});

describe('activity tracker and the answers of requests', () => {
  it('counts a response body the page is still reading as a request in flight, and notes when new data arrived', async () => {
    await page.route('http://activity.test/data?part=*', (route) => route.fulfill({ contentType: 'application/json', body: '{"html":"<p>Part</p>"}' }));
    await page.goto('http://activity.test/');
    const seen = await page.evaluate(async (key) => {
      const tracker = (window as unknown as Record<string, { look: (s: null, y: number, w: number) => ActivityProbe }>)[key]!;
      const read = async (url: string) => {
        const res = await fetch(url);
        const body = res.json();
        const reading = tracker.look(null, 2000, 0);
        await body;
        return { reading, after: tracker.look(null, 2000, 0) };
      };
      const first = await read('/data?part=2');
      await new Promise((r) => setTimeout(r, 300));
      // The same endpoint again: a poll, whose answer is not new data.
      const again = await read('/data?part=2');
      return { first, again };
    }, KEY);
    expect(seen.first.reading).toMatchObject({ fetching: true, fetchingNew: true });
    expect(seen.first.after).toMatchObject({ fetching: false, fetchingNew: false });
    expect(seen.first.after.sinceNewAnswer).toBeLessThan(250);
    expect(seen.again.reading).toMatchObject({ fetching: true, fetchingNew: false });
    expect(seen.again.after.sinceNewAnswer).toBeGreaterThanOrEqual(300);
  });
});
