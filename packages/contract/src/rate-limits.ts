/**
 * Rate limits on /v1: every authenticated route counts against one class, per team. The limit of a class is N
 * requests in any 60 seconds (a team's override, else the configured default; 0 = unlimited).
 */
export const RATE_LIMIT_CLASSES = {
  fetch: { description: 'POST /v1/fetch' },
  browser_scrape: { description: 'POST /v1/browser-scrape' },
  crawl_create: { description: 'POST /v1/crawl' },
  trends_create: { description: 'POST /v1/search-trends/related-queries' },
  reads: { description: 'every other authenticated /v1 route: reads, crawl pause/resume/cancel, events, exports, artifact downloads' },
} as const satisfies Record<string, { description: string }>;

export type RateLimitClass = keyof typeof RATE_LIMIT_CLASSES;
export const RATE_LIMIT_CLASS_NAMES = Object.keys(RATE_LIMIT_CLASSES) as [RateLimitClass, ...RateLimitClass[]];

/** The largest per-minute limit a default or an override may set (0 = unlimited). */
export const MAX_RATE_LIMIT_PER_MINUTE = 1_000_000;

/**
 * Every authenticated /v1 route (`METHOD /path` as the gateway registers it) and the class it counts against. Each
 * route's config names the same class (`rateClass`); the gateway's tests check the two agree both ways, and the
 * gateway refuses to register an authenticated route without a class.
 */
export const V1_ROUTE_RATE_CLASSES = {
  'POST /v1/fetch': 'fetch',
  'POST /v1/browser-scrape': 'browser_scrape',
  'POST /v1/crawl': 'crawl_create',
  'GET /v1/crawl/:crawl_id': 'reads',
  'GET /v1/crawl/:crawl_id/items': 'reads',
  'GET /v1/crawl/:crawl_id/webhooks': 'reads',
  'POST /v1/crawl/:crawl_id/pause': 'reads',
  'POST /v1/crawl/:crawl_id/resume': 'reads',
  'DELETE /v1/crawl/:crawl_id': 'reads',
  'GET /v1/crawl/:crawl_id/items.jsonl': 'reads',
  'GET /v1/crawl/:crawl_id/events': 'reads',
  'POST /v1/search-trends/related-queries': 'trends_create',
  'GET /v1/search-trends/jobs/:job_id': 'reads',
  'GET /v1/runs/:run_id': 'reads',
  'GET /v1/runs/:run_id/artifacts/:key': 'reads',
} as const satisfies Record<string, RateLimitClass>;

export type V1Route = keyof typeof V1_ROUTE_RATE_CLASSES;
