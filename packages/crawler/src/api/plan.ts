import { CRAWL_LIMITS, WEBHOOK_EVENTS, type CrawlRequest } from '@trawl/contract';
import { checkExtraction } from '@trawl/extraction';
import { hostOf, normalizeUrl, type CrawlPlan, type FrontierRequest } from '@trawl/frontier';

/** A crawl request that is well-formed but cannot be planned; `field` is the offending path (e.g. `urls.3`). */
export class PlanError extends Error {
  constructor(
    readonly field: string,
    message: string,
    /** Every problem found, when there are several (extraction schemas are checked whole). */
    readonly issues: { field: string; message: string }[] = [{ field, message }],
  ) {
    super(message);
    this.name = 'PlanError';
  }
}

/**
 * Materializes a crawl: normalized, deduplicated seeds, each anchoring its own scope, and the caps with their
 * defaults. Runs before any quota is reserved.
 */
export function buildPlan(
  req: CrawlRequest,
  ids: { crawl_id: string; run_id: string; team_id: string },
  billingMode: 'shadow' | 'enforce',
  now: number,
): { plan: CrawlPlan; seeds: FrontierRequest[] } {
  const seen = new Map<string, number>();
  const seeds: FrontierRequest[] = [];
  req.urls.forEach((raw, i) => {
    const url = normalizeUrl(raw);
    if (url === null) throw new PlanError(`urls.${i}`, `urls.${i} is not a crawlable http(s) URL`);
    const first = seen.get(url);
    if (first !== undefined) {
      throw new PlanError(`urls.${i}`, `urls.${i} is the same URL as urls.${first} after normalization`);
    }
    seen.set(url, i);
    seeds.push({ url, host: hostOf(url), depth: 0, seed: i, parent: null, attempt: 0 });
  });
  if (req.extraction) {
    // What the schema cannot say (CSS that does not parse, templates naming unknown fields): before any credit.
    const issues = checkExtraction(req.extraction).map((i) => ({ field: ['extraction', ...i.path].join('.'), message: i.message }));
    if (issues.length > 0) throw new PlanError(issues[0].field, `${issues[0].field}: ${issues[0].message}`, issues);
  }
  const max_pages = req.max_pages ?? CRAWL_LIMITS.max_pages.default;
  if (seeds.length > max_pages) {
    throw new PlanError('max_pages', `max_pages (${max_pages}) is lower than the number of seeds (${seeds.length}); seeds count as pages`);
  }
  const plan: CrawlPlan = {
    ...ids,
    created_at: new Date(now).toISOString(),
    seeds: seeds.map((s) => s.url),
    scope: req.scope ?? CRAWL_LIMITS.scope.default,
    max_depth: req.max_depth ?? CRAWL_LIMITS.max_depth.default,
    max_pages,
    billing_mode: billingMode,
    ...(req.browser ? { browser: req.browser } : {}),
    ...(req.extraction ? { extraction: req.extraction } : {}),
    ...(req.include_paths?.length ? { include_paths: req.include_paths } : {}),
    ...(req.exclude_paths?.length ? { exclude_paths: req.exclude_paths } : {}),
    ...(req.sitemap && req.sitemap !== 'skip' ? { sitemap: req.sitemap } : {}),
    ...(req.webhook
      ? { webhook: { url: req.webhook.url, events: WEBHOOK_EVENTS.filter((e) => req.webhook!.events?.includes(e) ?? true), payload: req.webhook.payload ?? 'full' } }
      : {}),
  };
  return { plan, seeds };
}
