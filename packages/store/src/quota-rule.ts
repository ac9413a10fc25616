/**
 * The monthly quota rule both backends decide with (the Redis one in `redis/lua/quota-take-2.lua` and
 * `quota-return-2.lua`, line for line): usage is counted per team, resource and calendar month (UTC); a take of N
 * units passes when the month's usage plus N stays within the team's limit (no limit: always, still counted); a
 * give-back lowers the usage, never below zero.
 */

/** Months a month's usage is kept after it ends: a crawl that ends next month still gives back to the month it began. */
export const QUOTA_USAGE_MONTHS_KEPT = 3;

/** The calendar month (UTC) of an instant, `YYYY-MM`: the key usage is counted under. */
export function quotaMonth(ms: number): string {
  return new Date(ms).toISOString().slice(0, 7);
}

/** When a month's usage (and its give-back marks) may be forgotten, ms since the epoch. */
export function quotaUsageExpiresAt(month: string): number {
  const [y, m] = month.split('-').map(Number);
  return Date.UTC(y, m - 1 + 1 + QUOTA_USAGE_MONTHS_KEPT, 1);
}

/** Whether `units` more fit: used + units <= monthly, or no limit at all. */
export function quotaAllows(used: number, monthly: number | null, units: number): boolean {
  return monthly === null || used + units <= monthly;
}

/** Usage after giving back `units` (never below zero). */
export function quotaAfterReturn(used: number, units: number): number {
  return Math.max(0, used - units);
}
