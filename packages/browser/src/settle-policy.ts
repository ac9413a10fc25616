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
}

/**
 * One look at the page: `read` when it may be read now, `wait` otherwise. The content must be there (not an empty
 * app root, skeleton, spinner or placeholder) and the document loaded; then either
 *   1. nothing has changed, no timer worth running fired and no request started or ended for quietMs, no content
 *      request is in flight, no timer or idle callback worth running is due within holdMs and no young
 *      animation-frame loop is pending; or
 *   2. the text has not grown for holdMs, no request to a new endpoint is young, and no timer worth running is
 *      due within holdMs: the page is busy forever, but its content holds still.
 * A timer is worth running until its callback has once run without the text growing right after.
 */
export function settleStep(input: SettleInput, policy: SettlePolicy = SETTLE_POLICY): 'read' | 'wait' {
  const { probe: p, net } = input;
  if (p === null) return net.busy || net.sinceEnd < policy.quietMs ? 'wait' : 'read';
  if (p.readyState !== 'complete' || !p.ready) return 'wait';
  const timerSoon = p.timerDueIn !== null && p.timerDueIn <= policy.holdMs;
  const framesBusy = p.framesPending > 0 && p.framesSinceGrowth < policy.idleFrames;
  const quiet = Math.min(p.sinceMutation, p.sinceBlockingFire, p.sinceRequest, net.sinceEnd, input.sinceScan);
  const busy = net.busy || p.fetching;
  const busyNew = net.busyNew || p.fetchingNew;
  if (quiet >= policy.quietMs && !busy && !timerSoon && !framesBusy) return 'read';
  if (p.sinceGrowth >= policy.holdMs && input.sinceScan >= policy.quietMs && !busyNew && !timerSoon) return 'read';
  return 'wait';
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
  let soonest = Math.min(...waits.filter((w) => w > 0));
  if (!Number.isFinite(soonest)) soonest = policy.maxTickMs;
  if (input.net.busy || p.fetching) soonest = Math.min(soonest, policy.netTickMs);
  return Math.max(policy.tickMs, Math.min(policy.maxTickMs, soonest));
}
