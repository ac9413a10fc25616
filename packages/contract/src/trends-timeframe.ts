/**
 * The timeframe grammar Google Trends accepts (shared/fixtures/google-trends/README.md). Checked here, before a
 * job exists, because Google answers a bad timeframe with a 400 only after the job has spent rate-limit tokens.
 */

export const TRENDS_RELATIVE_TIMEFRAMES = [
  'now 1-H',
  'now 4-H',
  'now 1-d',
  'now 7-d',
  'today 1-m',
  'today 3-m',
  'today 12-m',
  'today 5-y',
  'all',
] as const;

/** Google Trends has no data before this day. */
export const TRENDS_FIRST_DAY = '2004-01-01';
const FIRST_MS = Date.UTC(2004, 0, 1);
const MAX_HOURLY_SPAN_MS = 7 * 24 * 3600 * 1000;

const DAILY = /^(\d{4}-\d{2}-\d{2}) (\d{4}-\d{2}-\d{2})$/;
const HOURLY = /^(\d{4}-\d{2}-\d{2})T(\d{2}) (\d{4}-\d{2}-\d{2})T(\d{2})$/;

/**
 * The grammar as one JSON Schema pattern, for the OpenAPI document (the checks of real dates and spans stay in
 * timeframeProblem): every relative timeframe, or a daily or hourly range.
 */
export const TRENDS_TIMEFRAME_PATTERN = `^(?:${[...TRENDS_RELATIVE_TIMEFRAMES, DAILY.source.slice(1, -1), HOURLY.source.slice(1, -1)].join('|')})$`;

/** Epoch ms of a real calendar day (rejects 2021-02-30), or null. */
function dayMs(ymd: string): number | null {
  const [y, m, d] = ymd.split('-').map(Number);
  const ms = Date.UTC(y, m - 1, d);
  const back = new Date(ms);
  return back.getUTCFullYear() === y && back.getUTCMonth() === m - 1 && back.getUTCDate() === d ? ms : null;
}

function hourMs(ymd: string, hh: string): number | null {
  const day = dayMs(ymd);
  const h = Number(hh);
  return day === null || h > 23 ? null : day + h * 3600 * 1000;
}

/** Why `value` is not a timeframe Google accepts, or null when it is. */
export function timeframeProblem(value: string): string | null {
  if ((TRENDS_RELATIVE_TIMEFRAMES as readonly string[]).includes(value)) return null;
  const daily = DAILY.exec(value);
  const hourly = daily ? null : HOURLY.exec(value);
  if (!daily && !hourly) {
    return `must be one of ${TRENDS_RELATIVE_TIMEFRAMES.map((t) => `"${t}"`).join(', ')}, "YYYY-MM-DD YYYY-MM-DD" or "YYYY-MM-DDTHH YYYY-MM-DDTHH"`;
  }
  const start = daily ? dayMs(daily[1]) : hourMs(hourly![1], hourly![2]);
  const end = daily ? dayMs(daily[2]) : hourMs(hourly![3], hourly![4]);
  if (start === null || end === null) return 'contains a date or hour that does not exist';
  if (start < FIRST_MS) return `must not start before ${TRENDS_FIRST_DAY} (Google Trends has no earlier data)`;
  if (daily && end < start) return 'must not end before it starts';
  if (hourly && end <= start) return 'must end after it starts';
  if (hourly && end - start > MAX_HOURLY_SPAN_MS) return 'hourly ranges may span at most 7 days';
  return null;
}
