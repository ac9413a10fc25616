import type { TrendsGrain, TrendsJobResponse, TrendsRelatedQuery } from '@trawl/contract';

/**
 * Search-trends examples: the grain and answer recorded from Google Trends for "pizza" in 2021 (the same recording
 * apps/trends-simulator serves), first three items of each list.
 */
export const TRENDS_GRAIN: TrendsGrain = {
  keyword: 'pizza',
  geo: '',
  timeframe: '2021-01-01 2021-12-31',
  category: 0,
  property: '',
  hl: 'en-US',
  tz: 360,
};

const item = (query: string, value: number, formatted: string): TrendsRelatedQuery => ({
  query,
  value,
  formatted_value: formatted,
  breakout: formatted === 'Breakout',
  link: `https://trends.google.com/trends/explore?q=${query.replaceAll(' ', '+')}&date=2021-01-01+2021-12-31`,
});

const CREATED_AT = '2026-11-27T09:31:40.512Z';

export const TRENDS_JOB_QUEUED: TrendsJobResponse = {
  job: {
    id: 'job_5cWm0KqX8hRt2YvLp3NaZg',
    state: 'queued',
    attempts: 0,
    created_at: CREATED_AT,
    updated_at: CREATED_AT,
    started_at: null,
    completed_at: null,
    request: TRENDS_GRAIN,
    result: null,
    error: null,
    cached: false,
  },
};

export const TRENDS_JOB_COMPLETED: TrendsJobResponse = {
  job: {
    ...TRENDS_JOB_QUEUED.job,
    state: 'completed',
    attempts: 1,
    updated_at: '2026-11-27T09:31:42.873Z',
    started_at: '2026-11-27T09:31:40.590Z',
    completed_at: '2026-11-27T09:31:42.873Z',
    result: {
      top: [item('pizza hut', 100, '100'), item('pizza near me', 68, '68'), item('pizza pizza near me', 65, '65')],
      rising: [item('licorice pizza', 8550, 'Breakout'), item('history of pizza', 400, '+400%'), item('stoned pizza', 300, '+300%')],
    },
  },
};

export const TRENDS_JOB_FAILED: TrendsJobResponse = {
  job: {
    ...TRENDS_JOB_QUEUED.job,
    state: 'failed',
    attempts: 5,
    updated_at: '2026-11-27T09:52:10.004Z',
    started_at: '2026-11-27T09:31:40.590Z',
    completed_at: '2026-11-27T09:52:10.004Z',
    error: { code: 'upstream_rate_limited', message: 'Google Trends kept answering 429 Too Many Requests (HTTP 429); try again later', retryable: true },
  },
};
