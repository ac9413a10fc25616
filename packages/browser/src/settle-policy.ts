import type { NetworkState } from './network-activity.ts';
import type { ActivityProbe } from './page-scripts.ts';

/**
 * When a rendered page is worth reading: its content is there and holding still. The constants are not tuned for
 * speed: each is the shortest window that still reads every page of the render matrix whole (see README,
 * "Settling") and the page's own pending work (timers, frames, requests) is waited for explicitly, so no window
 * has to guess how long a script takes.
 */
export interface SettlePolicy {
  /**
   * The page is asked when the nearest window it waits on closes, but not sooner than tickMs nor later than
   * maxTickMs; netTickMs while a request is in flight (its end is seen here, not in the page); and every
   * shellWaitMs while the content is not there (the page answers early when it arrives).
   */
  tickMs: number;
  maxTickMs: number;
  netTickMs: number;
  shellWaitMs: number;
  /** Rule 1: no DOM change, no content request and no pending work for this long. */
  quietMs: number;
  /**
   * Rule 2: the text has not grown for this long, whatever else the page keeps doing (a clock, a carousel, an
   * animation, polling). Also the horizon of the timers worth waiting for.
   */
  holdMs: number;
  /** Rule 2 still waits for a request to a new endpoint younger than this (slow data); older ones are long polls. */
  youngRequestMs: number;
  /** Animation-frame callbacks that may run without adding text before a frame loop stops counting as work. */
  idleFrames: number;
}

export const SETTLE_POLICY: SettlePolicy = Object.freeze({
  tickMs: 20,
  maxTickMs: 500,
  netTickMs: 50,
  shellWaitMs: 250,
  quietMs: 100,
  holdMs: 1000,
  youngRequestMs: 2000,
  idleFrames: 60,
});

export type SettleReason = 'stable' | 'selector' | 'bound';

export interface SettleInput {
  /** null: the document has no tracker (an error page, or a navigation is under way). */
  probe: ActivityProbe | null;
  net: NetworkState;
  /** ms since the lazy-content scan ended (Infinity when there was none). */
  sinceScan: number;
  /** ms left until the settle bound: what a thin page's timers and a pending meta refresh may be waited for. */
  untilBoundMs: number;
  /** With process_iframes: the child frames' trackers (null: a frame without one). */
  frames?: (ActivityProbe | null)[];
}

/**
 * One look at the page: `read` when it may be read now, `wait` otherwise. The content must be there (not an empty
 * app root, skeleton, spinner or placeholder) and the document loaded; then either
 *   1. nothing has changed, no timer worth running fired and no request started or ended for quietMs, no content
 *      request is in flight, no timer or idle callback worth running is due within holdMs and no young
 *      animation-frame loop is pending; or
 *   2. the text has not grown for holdMs, no request to a new endpoint is young or answered within quietMs, and no
 *      timer worth running is due within holdMs: the page is busy forever, but its content holds still.
 * A timer is worth running until its callback has once run without the text growing right after. While the content
 * is thin, any such timer due before the settle bound is worth waiting for (a page that draws its article 2 s after
 * load shows a heading until then), and so is a meta refresh that takes the page elsewhere. With process_iframes,
 * every child frame must also have loaded and gone quiet.
 */
export function settleStep(input: SettleInput, policy: SettlePolicy = SETTLE_POLICY): 'read' | 'wait' {
  const { probe: p, net } = input;
  if (p === null) return net.busy || net.sinceEnd < policy.quietMs ? 'wait' : 'read';
  if (p.readyState !== 'complete' || !p.ready) return 'wait';
  if (p.navigationDueIn !== null && p.navigationDueIn <= input.untilBoundMs) return 'wait';
  if (input.frames?.some((f) => !frameQuiet(f, policy))) return 'wait';
  const timerSoon = p.timerDueIn !== null && p.timerDueIn <= timerHorizonMs(p, input, policy);
  const framesBusy = p.framesPending > 0 && p.framesSinceGrowth < policy.idleFrames;
  const quiet = Math.min(p.sinceMutation, p.sinceBlockingFire, p.sinceRequest, net.sinceEnd, input.sinceScan, p.sinceNewAnswer);
  const busy = net.busy || p.fetching;
  const busyNew = net.busyNew || p.fetchingNew;
  if (quiet >= policy.quietMs && !busy && !timerSoon && !framesBusy) return 'read';
  // New data that just arrived is applied next: the text holding still until then says nothing.
  const fresh = Math.min(input.sinceScan, p.sinceNewAnswer, net.sinceEndNew) < policy.quietMs;
  if (p.sinceGrowth >= policy.holdMs && !fresh && !busyNew && !timerSoon) return 'read';
  return 'wait';
}

/** How far ahead a pending timer is worth waiting for: the hold window, or the settle bound on a thin page. */
function timerHorizonMs(p: ActivityProbe, input: SettleInput, policy: SettlePolicy): number {
  return p.thin ? Math.max(policy.holdMs, input.untilBoundMs) : policy.holdMs;
}

/**
 * A child frame is quiet once loaded with nothing changing, requested or due for quietMs (its text may be empty: an
 * ad or a tracker frame is read as it is, not waited for up to the bound).
 */
function frameQuiet(f: ActivityProbe | null, policy: SettlePolicy): boolean {
  if (f === null) return true;
  if (f.readyState !== 'complete' || f.fetching) return false;
  if (f.timerDueIn !== null && f.timerDueIn <= policy.holdMs) return false;
  return Math.min(f.sinceMutation, f.sinceBlockingFire, f.sinceRequest) >= policy.quietMs;
}

/**
 * How long the next look may wait (in the page) before it can change the answer. Whatever happens meanwhile can
 * only postpone reading, except the content arriving, which ends the wait early. A round trip costs the page's
 * renderer and our event loop a few ms of CPU: asking every 20 ms costs a sixth of a core per render.
 */
export function nextLookMs(input: SettleInput, policy: SettlePolicy = SETTLE_POLICY): number {
  const p = input.probe;
  if (p === null) return policy.netTickMs;
  if (p.readyState !== 'complete' || !p.ready) return policy.shellWaitMs;
  const quiet = Math.min(p.sinceMutation, p.sinceBlockingFire, p.sinceRequest, input.net.sinceEnd, input.sinceScan);
  const waits = [policy.quietMs - quiet, policy.holdMs - p.sinceGrowth];
  if (p.timerDueIn !== null) waits.push(p.timerDueIn + 1);
  if (p.navigationDueIn !== null) waits.push(p.navigationDueIn + 1);
  if (input.frames?.length) waits.push(policy.quietMs);
  let soonest = Math.min(...waits.filter((w) => w > 0));
  if (!Number.isFinite(soonest)) soonest = policy.maxTickMs;
  if (input.net.busy || p.fetching) soonest = Math.min(soonest, policy.netTickMs);
  return Math.max(policy.tickMs, Math.min(policy.maxTickMs, soonest));
}
