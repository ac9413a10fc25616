import { describe, expect, it } from 'vitest';
import { endpointKey, NetworkActivity } from '../src/network-activity.ts';
import type { ActivityProbe } from '../src/page-scripts.ts';
import { SETTLE_POLICY, settleStep } from '../src/settle-policy.ts';

const idle = { busy: false, busyNew: false, sinceEnd: Infinity, sinceEndNew: Infinity };
const done: ActivityProbe = {
  readyState: 'complete',
  ready: true,
  thin: false,
  shown: true,
  navigationDueIn: null,
  sinceMutation: 500,
  sinceGrowth: 500,
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
const step = (probe: Partial<ActivityProbe> | null, net = idle, sinceScan = Infinity, more: { untilBoundMs?: number; frames?: (ActivityProbe | null)[] } = {}) =>
  settleStep({ probe: probe === null ? null : { ...done, ...probe }, net, sinceScan, untilBoundMs: more.untilBoundMs ?? 4000, frames: more.frames });

describe('settle policy', () => {
  it('reads a loaded page whose content is there and nothing is pending', () => {
    expect(step({})).toBe('read');
  });

  it('never reads an empty shell, a skeleton or a placeholder, however quiet', () => {
    expect(step({ ready: false, sinceMutation: 60_000, sinceGrowth: 60_000 })).toBe('wait');
  });

  it('never reads a document that has not finished loading', () => {
    expect(step({ readyState: 'interactive', sinceGrowth: 60_000 })).toBe('wait');
  });

  it('waits out a DOM change, a content request, a timer due soon and a young animation loop', () => {
    expect(step({ sinceMutation: SETTLE_POLICY.quietMs - 1, sinceGrowth: 0 })).toBe('wait');
    expect(step({ sinceGrowth: 0 }, { busy: true, busyNew: false, sinceEnd: Infinity, sinceEndNew: Infinity })).toBe('wait');
    expect(step({ timerDueIn: SETTLE_POLICY.holdMs, sinceGrowth: 60_000 })).toBe('wait');
    expect(step({ framesPending: 1, framesSinceGrowth: SETTLE_POLICY.idleFrames - 1, sinceGrowth: 0 })).toBe('wait');
  });

  it('waits a moment after a timer worth running fired, a request started (not reported yet) or one ended (its data not drawn yet)', () => {
    expect(step({ sinceBlockingFire: 10, sinceGrowth: 0 })).toBe('wait');
    expect(step({ sinceRequest: 10, sinceGrowth: 0 })).toBe('wait');
    expect(step({ sinceGrowth: 0 }, { ...idle, sinceEnd: 10 })).toBe('wait');
  });

  it('counts the fetch/XHR the page has started as in flight, before the network events arrive', () => {
    expect(step({ fetching: true, sinceGrowth: 0 })).toBe('wait');
    expect(step({ fetching: true, fetchingNew: true, sinceMutation: 5, sinceGrowth: 60_000 })).toBe('wait');
    expect(step({ fetching: true, sinceMutation: 5, sinceGrowth: 60_000 })).toBe('read');
  });

  it('ignores timers due later than the hold window and animation loops that stopped adding text', () => {
    expect(step({ timerDueIn: SETTLE_POLICY.holdMs + 1 })).toBe('read');
    expect(step({ framesPending: 1, framesSinceGrowth: SETTLE_POLICY.idleFrames })).toBe('read');
  });

  it('reads a page that never stops changing once its text has held still for the hold window', () => {
    const busy = { sinceMutation: 5, framesPending: 1, framesSinceGrowth: 3 };
    expect(step({ ...busy, sinceGrowth: SETTLE_POLICY.holdMs - 1 }, { busy: true, busyNew: false, sinceEnd: Infinity, sinceEndNew: Infinity })).toBe('wait');
    expect(step({ ...busy, sinceGrowth: SETTLE_POLICY.holdMs }, { busy: true, busyNew: false, sinceEnd: Infinity, sinceEndNew: Infinity })).toBe('read');
  });

  it('does not read a held-still page while a request to a new endpoint is young', () => {
    expect(step({ sinceMutation: 5, sinceGrowth: 60_000 }, { busy: true, busyNew: true, sinceEnd: Infinity, sinceEndNew: Infinity })).toBe('wait');
  });

  it('does not read a held-still page until the data of a request to a new endpoint that just answered is applied', () => {
    // A lazy page's next part: its request ended (or its body was read) a moment ago, after a scan so slow on a
    // loaded machine that the text had held still for longer than the hold window.
    const stale = { sinceMutation: 2000, sinceGrowth: 2000, sinceRequest: 1300 };
    expect(step(stale, { ...idle, sinceEnd: 0, sinceEndNew: 0 }, 260)).toBe('wait');
    expect(step({ ...stale, sinceNewAnswer: 5 }, idle, 260)).toBe('wait');
    expect(step({ ...stale, fetching: true, fetchingNew: true, sinceNewAnswer: 5 }, idle, 260)).toBe('wait');
    expect(step(stale, { ...idle, sinceEnd: SETTLE_POLICY.quietMs, sinceEndNew: SETTLE_POLICY.quietMs }, 260)).toBe('read');
    // A poll's answers (an endpoint that answered before) do not hold a busy page whose text holds still.
    const polling = { ...stale, sinceMutation: 5, sinceRequest: 5 };
    expect(step(polling, { busy: true, busyNew: false, sinceEnd: 0, sinceEndNew: 5000 }, Infinity)).toBe('read');
  });

  it('waits a quiet window after the lazy-content scan', () => {
    expect(step({}, idle, SETTLE_POLICY.quietMs - 1)).toBe('wait');
    expect(step({}, idle, SETTLE_POLICY.quietMs)).toBe('read');
  });

  it('without a tracker (an error page), reads once no content request is in flight', () => {
    expect(step(null, { busy: true, busyNew: true, sinceEnd: Infinity, sinceEndNew: Infinity })).toBe('wait');
    expect(step(null, { ...idle, sinceEnd: 10 })).toBe('wait');
    expect(step(null)).toBe('read');
  });
});

describe('network activity', () => {
  it('counts every request, but only content requests hold a render', () => {
    let now = 0;
    const net = new NetworkActivity(() => now);
    const img = {};
    const data = {};
    net.started({ token: img, kind: 'image', endpoint: 'GET http://a.test/x.png' });
    expect(net.state(2000)).toEqual({ busy: false, busyNew: false, sinceEnd: Infinity, sinceEndNew: Infinity });
    net.started({ token: data, kind: 'fetch', endpoint: 'GET http://a.test/data' });
    expect(net.state(2000)).toEqual({ busy: true, busyNew: true, sinceEnd: Infinity, sinceEndNew: Infinity });
    now = 2500;
    expect(net.state(2000)).toEqual({ busy: true, busyNew: false, sinceEnd: Infinity, sinceEndNew: Infinity }); // a long poll by now
    net.ended(data);
    now = 2600;
    expect(net.state(2000)).toEqual({ busy: false, busyNew: false, sinceEnd: 100, sinceEndNew: 100 });
    expect(net.requests).toBe(2);
  });

  it('tells a repeated request (polling) from a new one', () => {
    let now = 0;
    const net = new NetworkActivity(() => now);
    const first = {};
    net.started({ token: first, kind: 'xhr', endpoint: 'GET http://a.test/poll' });
    net.ended(first);
    const again = {};
    net.started({ token: again, kind: 'xhr', endpoint: 'GET http://a.test/poll' });
    expect(net.state(2000)).toMatchObject({ busy: true, busyNew: false });
    now = 500;
    net.ended(again);
    expect(net.state(2000)).toMatchObject({ sinceEnd: 0, sinceEndNew: 500 });
    net.started({ token: {}, kind: 'xhr', endpoint: 'GET http://a.test/poll?page=2' });
    expect(net.state(2000)).toMatchObject({ busy: true, busyNew: true });
    const other = new NetworkActivity(() => 0);
    for (const kind of ['eventsource', 'websocket', 'ping', 'media', 'font', 'image']) other.started({ token: {}, kind, endpoint: `GET http://a.test/${kind}` });
    expect(other.state(2000)).toEqual({ busy: false, busyNew: false, sinceEnd: Infinity, sinceEndNew: Infinity });
  });
});

describe('endpoint keys', () => {
  it('mask cache-busters, so a poll repeats its endpoint, but keep the page of results a request asks for', () => {
    const t = (u: string) => endpointKey('get', u);
    expect(t('http://a.test/poll?t=1795557303718')).toBe(t('http://a.test/poll?t=1795557303999'));
    expect(t('http://a.test/poll?_=1795557303718&v=3')).toBe(t('http://a.test/poll?_=1795557309999&v=3'));
    expect(t('http://a.test/poll?id=0f8e2a9c-4b1d-4c3e-9a7b-2f1e0d9c8b7a')).toBe(t('http://a.test/poll?id=9a8e2a9c-4b1d-4c3e-9a7b-2f1e0d9c8b70'));
    expect(t('http://a.test/items?from=2')).not.toBe(t('http://a.test/items?from=3'));
    expect(t('http://a.test/items')).not.toBe(endpointKey('POST', 'http://a.test/items'));
  });

  it('on a thin page (a heading, a menu) waits for a timer due before the settle bound, not only within the hold window', () => {
    const later = SETTLE_POLICY.holdMs + 1500;
    expect(step({ thin: true, timerDueIn: later, sinceGrowth: 60_000 })).toBe('wait');
    expect(step({ thin: false, timerDueIn: later, sinceGrowth: 60_000 })).toBe('read');
    // A timer the bound will not wait for is not waited for.
    expect(step({ thin: true, timerDueIn: later }, idle, Infinity, { untilBoundMs: later - 1 })).toBe('read');
  });

  it('waits for a meta refresh that takes the page elsewhere before the bound', () => {
    expect(step({ navigationDueIn: 900 })).toBe('wait');
    expect(step({ navigationDueIn: 900 }, idle, Infinity, { untilBoundMs: 800 })).toBe('read');
  });

  it('with process_iframes, waits until every child frame has loaded and gone quiet', () => {
    const quiet = { ...done, ready: false, thin: true };
    expect(step({}, idle, Infinity, { frames: [quiet, null] })).toBe('read');
    expect(step({}, idle, Infinity, { frames: [{ ...quiet, readyState: 'interactive' }] })).toBe('wait');
    expect(step({}, idle, Infinity, { frames: [{ ...quiet, timerDueIn: 300 }] })).toBe('wait');
    expect(step({}, idle, Infinity, { frames: [{ ...quiet, sinceMutation: 10 }] })).toBe('wait');
    expect(step({}, idle, Infinity, { frames: [{ ...quiet, fetching: true }] })).toBe('wait');
  });
});
