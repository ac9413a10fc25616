import type { RateLimitDecision } from './types.ts';

/**
 * The sliding window both backends decide with (the Redis one in `redis/lua/rate-limit-take-2.lua`, line for line):
 * requests are counted per one-second slot; a request at second `cur` sees the slots `cur - 60 … cur` (61 of them,
 * so every 60-second span ending now is covered) and is allowed while they hold fewer than the limit.
 */
export const RATE_WINDOW_SLOTS = 61;

/** One (team, class) window: slot seconds ascending, with the requests counted in each. */
export interface RateWindow {
  secs: number[];
  counts: number[];
}

export const UNLIMITED: RateLimitDecision = { allowed: true, limit: 0, remaining: 0, retry_after_s: 0, reset_s: 0, slot: null };

/** Decides and (when allowed) counts one request in `w`, dropping slots that left the window. */
export function takeFromWindow(w: RateWindow, limit: number, nowMs: number): RateLimitDecision {
  if (limit === 0) return UNLIMITED;
  const cur = Math.floor(nowMs / 1000);
  const oldest = cur - (RATE_WINDOW_SLOTS - 1);
  let drop = 0;
  while (drop < w.secs.length && w.secs[drop] < oldest) drop++;
  if (drop > 0) {
    w.secs.splice(0, drop);
    w.counts.splice(0, drop);
  }
  let total = 0;
  for (const c of w.counts) total += c;
  const leaves = (sec: number) => Math.max(1, Math.ceil(((sec + RATE_WINDOW_SLOTS) * 1000 - nowMs) / 1000));
  if (total < limit) {
    let i = w.secs.length;
    while (i > 0 && w.secs[i - 1] > cur) i--;
    if (i > 0 && w.secs[i - 1] === cur) w.counts[i - 1]++;
    else {
      w.secs.splice(i, 0, cur);
      w.counts.splice(i, 0, 1);
    }
    return { allowed: true, limit, remaining: Math.max(0, limit - total - 1), retry_after_s: 0, reset_s: leaves(w.secs[0]), slot: cur };
  }
  // Refused: the oldest slots leave one by one; the first moment fewer than `limit` remain is when one passes.
  let left = total;
  let retry = leaves(cur);
  for (let i = 0; i < w.secs.length; i++) {
    left -= w.counts[i];
    if (left < limit) {
      retry = leaves(w.secs[i]);
      break;
    }
  }
  return { allowed: false, limit, remaining: 0, retry_after_s: retry, reset_s: retry, slot: null };
}

/** Takes back one request counted in `slot`, if that slot is still in the window. */
export function refundWindow(w: RateWindow, slot: number): void {
  const i = w.secs.indexOf(slot);
  if (i >= 0 && w.counts[i] > 0) w.counts[i]--;
}
