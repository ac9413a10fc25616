import { z } from 'zod';

export const Timestamp = z.iso.datetime().meta({ description: 'ISO 8601 UTC timestamp.' });

/** Run and page statuses (spec section 3). */
export const RUN_STATUSES = [
  'queued',
  'running',
  'paused',
  'completed',
  'failed',
  'low_quality',
  'budget_exhausted',
  'expired',
] as const;
export const RunStatus = z.enum(RUN_STATUSES);
export type RunStatus = z.infer<typeof RunStatus>;

export const MAX_URL_LENGTH = 8192;

/**
 * Why a string is not an acceptable target URL, or null when it is: absolute http(s), a host, no userinfo.
 * Exported so the crawl planner and link filters apply the same rule as request validation.
 */
export function targetUrlProblem(value: string): string | null {
  let url: URL;
  try {
    url = new URL(value);
  } catch {
    return 'must be an absolute URL';
  }
  if (url.protocol !== 'http:' && url.protocol !== 'https:') return 'must use the http or https scheme';
  if (url.username !== '' || url.password !== '') return 'must not contain credentials (userinfo)';
  if (url.hostname === '') return 'must have a host';
  return null;
}

export const HttpUrl = z
  .string()
  .min(1)
  .max(MAX_URL_LENGTH)
  .superRefine((value, ctx) => {
    const problem = targetUrlProblem(value);
    if (problem) ctx.addIssue({ code: 'custom', message: `URL ${problem}` });
  })
  // The pattern states the scheme and the no-userinfo rule for the OpenAPI document (targetUrlProblem decides).
  .meta({ description: 'Absolute http or https URL without userinfo.', format: 'uri', pattern: '^[Hh][Tt][Tt][Pp][Ss]?://[^/?#@]+([/?#]|$)' });
