/**
 * The most events in any window [t, t + windowMs), for checking a rate limit from the receiving side. Callers pass
 * a window a little shorter than the limit's: an event is observed some milliseconds after it was granted, and
 * that delay varies, so two grants exactly one interval apart can be observed slightly closer together.
 */
export function maxInWindow(times: readonly number[], windowMs: number): number {
  const at = [...times].sort((a, b) => a - b);
  let best = 0;
  for (let i = 0, j = 0; i < at.length; i++) {
    while (at[i] - at[j] >= windowMs) j++;
    best = Math.max(best, i - j + 1);
  }
  return best;
}
