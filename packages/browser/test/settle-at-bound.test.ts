import { describe, expect, it } from 'vitest';
import type { DriverFrame, DriverSession } from '../src/driver.ts';
import { NetworkActivity } from '../src/network-activity.ts';
import type { ActivityProbe } from '../src/page-scripts.ts';
import { settlePage } from '../src/settle.ts';

/**
 * A page whose looks answer late (a busy machine): the settle reaches its bound before any look came back. What it
 * reports must still be the document's state, not "loaded" for want of an answer: a stalled document read as
 * finished would be delivered unflagged, and one that shows nothing would be delivered empty.
 */
const STALLED: ActivityProbe = {
  readyState: 'loading',
  ready: false,
  thin: true,
  shown: false,
  navigationDueIn: null,
  sinceMutation: 0,
  sinceGrowth: 0,
  sinceBlockingFire: Infinity,
  sinceRequest: Infinity,
  sinceNewAnswer: Infinity,
  fetching: false,
  fetchingNew: false,
  timerDueIn: null,
  framesPending: 0,
  framesSinceGrowth: 0,
  lazy: false,
  scrollable: false,
  maxScroll: 0,
};

function slowPage(delaysMs: number[], probe: ActivityProbe): { session: DriverSession; looks: () => number } {
  let calls = 0;
  const frame: DriverFrame = {
    url: () => 'http://stall.test/',
    children: () => [],
    elementInParent: async () => null,
    evaluate: <T>() => {
      const delay = delaysMs[Math.min(calls++, delaysMs.length - 1)] ?? 0;
      return new Promise<T>((resolve) => setTimeout(() => resolve(probe as T), delay));
    },
  };
  const session: DriverSession = {
    goto: async () => null,
    waitForLoad: async () => false,
    waitForSelector: async () => false,
    url: () => 'http://stall.test/',
    mainFrame: () => frame,
    screenshot: async () => Buffer.alloc(0),
    close: async () => {},
  };
  return { session, looks: () => calls };
}

describe('a settle whose looks do not answer before its bound', () => {
  it('takes one last look and reports a document still loading as incomplete and showing nothing', async () => {
    const page = slowPage([400, 10], STALLED);
    const now = Date.now();
    const r = await settlePage(page.session, new NetworkActivity(), { key: 'k', selector: null, since: now, maxMs: 5000, hardEnd: now + 100 });
    expect(r.reason).toBe('bound');
    expect(page.looks()).toBe(2);
    expect({ loadIncomplete: r.loadIncomplete, nothingShown: r.nothingShown }).toEqual({ loadIncomplete: true, nothingShown: true });
  });

  it('waits for the last look no longer than its grace, then reports what it knows', async () => {
    const page = slowPage([400, 2000], STALLED);
    const now = Date.now();
    const r = await settlePage(page.session, new NetworkActivity(), { key: 'k', selector: null, since: now, maxMs: 5000, hardEnd: now + 100 });
    expect(r.reason).toBe('bound');
    expect(Date.now() - now).toBeLessThan(1500);
    expect(r.loadIncomplete).toBe(false);
  });
});
