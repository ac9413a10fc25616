/**
 * Monthly quotas: per team and calendar month (UTC), one counter per resource; a team's limit is set over admin
 * (no limit = unlimited, still counted). Over it: 429 `quota_exceeded` with `details.resource` one of these names.
 */
export const QUOTA_RESOURCES = {
  crawl_pages: { description: 'pages admitted to crawls: a crawl reserves its max_pages at creation and gets back what it did not admit' },
  scrape: { description: 'Fetch runs (POST /v1/fetch); a run that delivers nothing gives its unit back' },
  browser_scrape: { description: 'Browser scrape runs (POST /v1/browser-scrape); a run that delivers nothing gives its unit back' },
  trends: { description: 'search-trends jobs created (POST /v1/search-trends/related-queries)' },
} as const satisfies Record<string, { description: string }>;

export type QuotaResource = keyof typeof QUOTA_RESOURCES;
export const QUOTA_RESOURCE_NAMES = Object.keys(QUOTA_RESOURCES) as [QuotaResource, ...QuotaResource[]];

/** The largest monthly limit an operator may set (0 = nothing allowed; no limit at all = unlimited). */
export const MAX_QUOTA_MONTHLY = 1_000_000_000;
