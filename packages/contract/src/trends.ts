import { z } from 'zod';
import { Timestamp } from './common.ts';
import { TRENDS_CATEGORY_IDS } from './trends-categories.ts';
import { timeframeProblem, TRENDS_TIMEFRAME_PATTERN } from './trends-timeframe.ts';

export { TRENDS_CATEGORY_IDS } from './trends-categories.ts';
export { timeframeProblem, TRENDS_FIRST_DAY, TRENDS_RELATIVE_TIMEFRAMES } from './trends-timeframe.ts';

const CATEGORY_SET: ReadonlySet<number> = new Set(TRENDS_CATEGORY_IDS);
export const TRENDS_PROPERTIES = ['', 'images', 'news', 'youtube', 'froogle'] as const;
export const TRENDS_KEYWORD_MAX = 100;
const CONTROL = /\p{Cc}/u;

/** Why `tag` is not a language tag, or null. Intl knows BCP 47 well-formedness; the regex keeps it to plain tags. */
function languageTagProblem(tag: string): string | null {
  try {
    Intl.getCanonicalLocales(tag);
  } catch {
    return 'must be a language tag such as en-US';
  }
  return null;
}

/**
 * The complete search-trends query grain (spec 2.8), validated the way Google Trends validates it
 * (shared/fixtures/google-trends/README.md), so a job never spends upstream calls on a request Google rejects.
 * Every field is required; unknown fields are rejected by the gateway as unsupported_feature.
 */
export const TrendsGrain = z
  .strictObject({
    keyword: z
      .string()
      .superRefine((v, ctx) => {
        const chars = [...v].length;
        if (chars < 1 || chars > TRENDS_KEYWORD_MAX) ctx.addIssue({ code: 'custom', message: `must be 1 to ${TRENDS_KEYWORD_MAX} characters` });
        else if (v.trim() === '') ctx.addIssue({ code: 'custom', message: 'must not be blank' });
        else if (CONTROL.test(v)) ctx.addIssue({ code: 'custom', message: 'must not contain control characters' });
      })
      // The same rule as JSON Schema for the OpenAPI document: 1-100 characters (code points), not blank, no controls.
      .meta({
        description: `Search term, 1 to ${TRENDS_KEYWORD_MAX} characters, not blank, no control characters.`,
        minLength: 1,
        maxLength: TRENDS_KEYWORD_MAX,
        pattern: '^[^\\p{Cc}]*[^\\s\\p{Cc}][^\\p{Cc}]*$',
      }),
    geo: z
      .string()
      .regex(/^(?:[A-Z]{2}(?:-[A-Z0-9]{1,3})?)?$/, 'must be "" (worldwide), a country code such as US or a subdivision code such as US-CA')
      .meta({ description: '"" for worldwide, an upper-case country code (US) or subdivision code (US-CA).' }),
    timeframe: z
      .string()
      .max(40)
      .superRefine((v, ctx) => {
        const problem = timeframeProblem(v);
        if (problem) ctx.addIssue({ code: 'custom', message: problem });
      })
      .meta({
        description:
          'now 1-H, now 4-H, now 1-d, now 7-d, today 1-m, today 3-m, today 12-m, today 5-y, all, "YYYY-MM-DD YYYY-MM-DD" (from 2004-01-01) or "YYYY-MM-DDTHH YYYY-MM-DDTHH" (UTC hours, at most 7 days). Dates must be real, the end not before the start.',
        pattern: TRENDS_TIMEFRAME_PATTERN,
      }),
    category: z
      .int()
      .refine((id) => CATEGORY_SET.has(id), { message: 'is not a Google Trends category id' })
      .meta({ description: "An id of Google Trends' category tree; 0 is all categories.", enum: [...TRENDS_CATEGORY_IDS] }),
    property: z
      .enum(TRENDS_PROPERTIES)
      .meta({ description: 'Search property: "" (web search), images, news, youtube or froogle (shopping).' }),
    hl: z
      .string()
      .max(35)
      .regex(/^[A-Za-z]{2,3}(?:-[A-Za-z0-9]{1,8})*$/, 'must be a language tag such as en-US')
      .superRefine((v, ctx) => {
        const problem = languageTagProblem(v);
        if (problem) ctx.addIssue({ code: 'custom', message: problem });
      })
      .meta({ description: 'Language tag, e.g. en-US.' }),
    tz: z
      .int()
      .min(-1440)
      .max(1440)
      .meta({ description: 'Timezone offset in minutes, sign inverted as Google expects (US Central = 360).' }),
  })
  .meta({ id: 'TrendsRelatedQueriesRequest' });
export type TrendsGrain = z.infer<typeof TrendsGrain>;

export const TrendsRelatedQuery = z
  .strictObject({
    query: z.string(),
    value: z.int().meta({ description: 'Top: relative interest 0-100. Rising: percent increase.' }),
    formatted_value: z.string().meta({ description: 'Exactly as Google Trends wrote it: "100", "+4,650%", "Breakout".' }),
    breakout: z.boolean().meta({ description: 'True only when Google Trends reports "Breakout".' }),
    link: z.string().meta({ description: 'Absolute https://trends.google.com/trends/explore?... URL.' }),
  })
  .meta({ id: 'TrendsRelatedQuery' });
export type TrendsRelatedQuery = z.infer<typeof TrendsRelatedQuery>;

export const TrendsResult = z
  .strictObject({ top: z.array(TrendsRelatedQuery), rising: z.array(TrendsRelatedQuery) })
  .meta({ id: 'TrendsRelatedQueriesResult', description: 'At most 25 items each; [] when Google has none.' });
export type TrendsResult = z.infer<typeof TrendsResult>;

export const TRENDS_JOB_STATES = ['queued', 'running', 'completed', 'failed'] as const;
export type TrendsJobState = (typeof TRENDS_JOB_STATES)[number];

/** Why a job failed (README "Search trends"): what the last attempt met upstream, or that its workers died. */
export const TRENDS_JOB_ERROR_CODES = [
  'upstream_rate_limited',
  'upstream_blocked',
  'upstream_unavailable',
  'upstream_timeout',
  'upstream_unreachable',
  'upstream_token_rejected',
  'upstream_rejected',
  'upstream_protocol',
  'worker_lost',
  'internal_error',
] as const;
export type TrendsJobErrorCode = (typeof TRENDS_JOB_ERROR_CODES)[number];

export const TrendsJobError = z
  .strictObject({
    code: z.enum(TRENDS_JOB_ERROR_CODES),
    message: z.string(),
    retryable: z.boolean().meta({ description: 'Whether creating the same job again later may succeed.' }),
  })
  .meta({ id: 'TrendsJobError' });
export type TrendsJobError = z.infer<typeof TrendsJobError>;

export const TrendsJob = z
  .strictObject({
    id: z.string().meta({ description: 'Opaque, form job_<id>.' }),
    state: z.enum(TRENDS_JOB_STATES).meta({ description: 'queued → running → completed | failed; back to queued between attempts.' }),
    attempts: z.int().nonnegative().meta({ description: 'Attempts started so far (a worker that died counts).' }),
    created_at: Timestamp,
    updated_at: Timestamp,
    started_at: Timestamp.nullable().meta({ description: 'When the first attempt started.' }),
    completed_at: Timestamp.nullable(),
    request: TrendsGrain,
    result: TrendsResult.nullable().meta({ description: 'Set when completed.' }),
    error: TrendsJobError.nullable().meta({ description: 'Set when failed.' }),
    cached: z.boolean().meta({ description: 'True when completed from a stored result of the same grain, without calling Google.' }),
  })
  .meta({ id: 'TrendsJob' });
export type TrendsJob = z.infer<typeof TrendsJob>;

export const TrendsJobResponse = z.strictObject({ job: TrendsJob }).meta({ id: 'TrendsJobResponse' });
export type TrendsJobResponse = z.infer<typeof TrendsJobResponse>;
