import type { CrawlStore, FrontierRequest, Lease, PageResult } from '@trawl/frontier';
import { hostOf, normalizeUrl, registrableDomain, whileStoreUnavailable } from '@trawl/frontier';
import type { SelectorMemoryKey, SelectorMemoryStore } from '@trawl/store';
import { BLOCK_REASONS, retryCategoryOf } from '@trawl/contract';
import {
  scrapeBrowser,
  scrapeLight,
  type BrowserRenderer,
  type ContentProcessor,
  type ExtractionTask,
  type LightFetcher,
  type ScrapedPage,
  type ScrapeFailure,
} from '@trawl/scrape';
import { encodeItem } from '../api/item-codec.ts';
import type { StoredItem } from '../api/views.ts';
import { CrawlContexts, type CrawlContext } from './crawl-context.ts';
import { endCrawl } from './finalize.ts';
import type { RobotsCache } from './robots.ts';
import { sitemapPages } from './sitemaps.ts';
import type { WorkerSettings } from './settings.ts';

export interface PageTaskDeps {
  crawls: CrawlStore;
  contexts: CrawlContexts;
  light: LightFetcher;
  browser: BrowserRenderer;
  content: ContentProcessor;
  /** Where adaptive extraction's selector memory lives (the store of the mode, shared by every worker). */
  memory: SelectorMemoryStore;
  robots: RobotsCache | null;
  settings: WorkerSettings;
  /** Called when a page of the crawl was delivered (its webhook event is due). */
  onDelivered?(crawlId: string): void;
  /** Called when a completion found the crawl has nothing left (to settle it) or had new hosts. */
  onFinished(crawlId: string): void;
  onNewHosts(crawlId: string, hosts: string[]): Promise<void>;
  /** Called with the hosts of links this worker just admitted, so idle hosts it owns ask again at once. */
  onLinksAdmitted(hosts: Set<string>): void;
  /** Called on 429/503: the host's owner pauses it for everyone. */
  onHostBackoff(host: string, untilMs: number): Promise<void>;
  /** Enforce mode: tries to move credits to the crawl; false when the team has none left. */
  topUpBudget(crawlId: string): Promise<boolean>;
}

/** The retry category of a retryable failure, or null when it should not be retried (contract's BLOCK_REASONS). */
export function retryCategory(f: ScrapeFailure): string | null {
  return f.retryable ? retryCategoryOf(f.blockReason, f.statusCode) : null;
}

/**
 * Links worth admitting: normalized, in the seed's scope, through the crawl's path filters, within depth, not already
 * submitted by this worker.
 */
export function admissibleLinks(ctx: CrawlContext, from: FrontierRequest, finalUrl: string, links: string[]): FrontierRequest[] {
  const depth = from.depth + 1;
  // sitemap: only follows no links at all: the crawl is its seeds and their sitemaps' pages.
  if (depth > ctx.plan.max_depth || ctx.plan.sitemap === 'only') return [];
  const rule = ctx.rules[from.seed];
  const out: FrontierRequest[] = [];
  const page = new Set<string>();
  for (const link of links) {
    const url = normalizeUrl(link, finalUrl);
    if (url === null || page.has(url) || ctx.submitted.has(url) || !rule.allows(url) || !ctx.paths.allows(url)) continue;
    page.add(url);
    out.push({ url, host: hostOf(url), depth, seed: from.seed, parent: from.url, attempt: 0 });
  }
  return out;
}

function storedItem(page: ScrapedPage, req: FrontierRequest, now: number): StoredItem {
  return {
    url: req.url,
    final_url: page.finalUrl,
    depth: req.depth,
    parent_url: req.parent,
    status: page.status,
    title: page.title,
    content: page.content,
    records: page.extraction?.records ?? [],
    audit: page.audit,
    diagnostics: page.diagnostics,
    created_at: new Date(now).toISOString(),
  };
}

/**
 * Runs a store call the page depends on; while the store is unreachable (Redis restarting) it is tried again,
 * with backoff, for up to `storeOutageMs`, then the error is thrown and the page's lease lapses (the page is
 * crawled again). Only for calls that are safe to repeat: the result writes are keyed by the exact lease, so a
 * repeat of one that did land (its reply was lost with the connection) finds the lease gone and records nothing.
 */
export function durable<T>(deps: Pick<PageTaskDeps, 'settings'>, op: () => Promise<T>): Promise<T> {
  return whileStoreUnavailable(op, { maxMs: deps.settings.storeOutageMs, delayMs: 100, maxDelayMs: 1_000 });
}

/** Runs one leased page to its end: robots, retrieval, retry or result, link admission. Never throws for page outcomes. */
export async function runPageTask(deps: PageTaskDeps, crawlId: string, lease: Lease): Promise<void> {
  const ctx = await durable(deps, () => deps.contexts.get(crawlId));
  if (!ctx) return;
  const req = lease.request;
  // A seed's sitemaps are walked beside its own page, and their pages admitted with its result, whatever it is.
  const listed = seedSitemap(deps, ctx, req);
  if (deps.robots && !(await deps.robots.allowed(req.url))) {
    await finish(deps, crawlId, lease, { kind: 'blocked', reason: 'robots_disallowed' }, await listed);
    return;
  }
  const rule = ctx.rules[req.seed];
  const deadline = Date.now() + deps.settings.fetchTimeoutMs;
  const allowRedirect = (_from: URL, to: URL) => {
    const u = normalizeUrl(to.href);
    return u !== null && rule.allows(u);
  };
  // A crawl with browser controls renders every page; pages queue for a free browser page (up to one fetch
  // timeout) rather than fail, since the crawl is asynchronous anyway, and the render's own time starts once it
  // has one: a page that waited is not cut short.
  const t = deps.settings.fetchTimeoutMs;
  const memoryKey = selectorMemoryKey(ctx, req.host);
  const extraction = ctx.plan.extraction && memoryKey ? { request: ctx.plan.extraction, memory: await readMemory(deps, memoryKey) } : undefined;
  const outcome = ctx.plan.browser
    ? await scrapeBrowser(deps, { url: req.url, deadline: deadline + t, budgetMs: t, controls: ctx.plan.browser, allowRedirect, acquireTimeoutMs: t, extraction })
    : await scrapeLight(deps, { url: req.url, deadline, allowRedirect, extraction });
  if (!outcome.ok) {
    const f = outcome.failure;
    const category = retryCategory(f);
    if (f.statusCode === 429 || f.statusCode === 503) {
      const wait = f.retryAfterMs ?? deps.settings.defaultBackoffMs * 2 ** req.attempt;
      const until = Date.now() + wait;
      await durable(deps, () => deps.onHostBackoff(req.host, until));
    }
    if (category && req.attempt + 1 < deps.settings.maxAttempts) {
      await durable(deps, () => deps.crawls.requeue(crawlId, lease, category));
      return;
    }
    const kind = BLOCK_REASONS[f.blockReason].outcome;
    await finish(deps, crawlId, lease, { kind, reason: f.blockReason }, await listed);
    return;
  }
  const learned = outcome.page.extraction?.memory;
  if (memoryKey && learned) await writeMemory(deps, memoryKey, learned);
  const links = withSitemapPages(admissibleLinks(ctx, req, outcome.page.finalUrl, outcome.page.content.links), await listed);
  const item = encodeItem(storedItem(outcome.page, req, Date.now()));
  // Only links the store actually saw may be skipped next time; a rejected completion admitted nothing.
  if (await finish(deps, crawlId, lease, { kind: 'delivered', item }, links)) {
    for (const l of links) CrawlContexts.remember(ctx, l.url);
  }
}

/**
 * The pages a seed's origin lists in its sitemaps, as requests one hop from the seed (`sitemap` include or only;
 * none for other pages, when max_depth is 0, or for an origin this worker already walked for the crawl). Scope and
 * path filters apply; admission applies max_pages and dedup as for any link.
 */
async function seedSitemap(deps: PageTaskDeps, ctx: CrawlContext, req: FrontierRequest): Promise<FrontierRequest[]> {
  if (!ctx.plan.sitemap || req.parent !== null || req.depth !== 0 || ctx.plan.max_depth < 1) return [];
  const origin = new URL(req.url).origin;
  let walk = ctx.sitemaps.get(origin);
  if (!walk) {
    const rule = ctx.rules[req.seed];
    const accept = (raw: string) => {
      const url = normalizeUrl(raw);
      return url !== null && rule.allows(url) && ctx.paths.allows(url) ? url : null;
    };
    walk = (deps.robots ? deps.robots.sitemaps(origin) : Promise.resolve([]))
      .then((robotsSitemaps) =>
        sitemapPages(origin, { light: deps.light, robotsSitemaps, deadline: Date.now() + deps.settings.fetchTimeoutMs, max: ctx.plan.max_pages, accept }),
      )
      .catch(() => []);
    ctx.sitemaps.set(origin, walk);
  }
  const urls = await walk;
  return urls.map((url) => ({ url, host: hostOf(url), depth: 1, seed: req.seed, parent: req.url, attempt: 0 }));
}

/** Page links first, then sitemap pages not among them (the store expects each URL once per call). */
function withSitemapPages(links: FrontierRequest[], listed: FrontierRequest[]): FrontierRequest[] {
  if (listed.length === 0) return links;
  const have = new Set(links.map((l) => l.url));
  return [...links, ...listed.filter((l) => !have.has(l.url))];
}

/** Selector memory is kept per team, registrable domain (the host itself when it has none) and schema. */
function selectorMemoryKey(ctx: CrawlContext, host: string): SelectorMemoryKey | null {
  if (ctx.schemaKey === null) return null;
  return { team_id: ctx.plan.team_id, domain: registrableDomain(host) ?? host, schema_key: ctx.schemaKey };
}

// Selector memory only makes extraction faster or able to recover from a redesign: an unreachable store means
// extracting without it (or not saving what was learned), never a failed page.
async function readMemory(deps: PageTaskDeps, key: SelectorMemoryKey): Promise<ExtractionTask['memory']> {
  try {
    return await deps.memory.getSelectorMemory(key, deps.settings.selectorMemoryTtlS);
  } catch {
    return null;
  }
}
async function writeMemory(deps: PageTaskDeps, key: SelectorMemoryKey, value: string): Promise<void> {
  try {
    await deps.memory.putSelectorMemory(key, value, deps.settings.selectorMemoryTtlS);
  } catch {
    // relearned from a later page
  }
}

/** Records the page's result; true when the store accepted it (links were considered for admission). */
async function finish(deps: PageTaskDeps, crawlId: string, lease: Lease, result: PageResult, links: FrontierRequest[]): Promise<boolean> {
  // The page was fetched at a cost: its result outlives a short outage of the store (see durable).
  let r = await durable(deps, () => deps.crawls.complete(crawlId, lease, result, links, Date.now()));
  while (r.needBudget) {
    // Not repeated on an outage: a reservation is not idempotent (a lost reply would reserve twice).
    if (!(await deps.topUpBudget(crawlId))) {
      // No credit left: the crawl ends; this page's lease is dropped with the rest of its work.
      await durable(deps, () => endCrawl(deps.crawls, crawlId, 'budget_exhausted', Date.now()));
      deps.onFinished(crawlId);
      return false;
    }
    r = await durable(deps, () => deps.crawls.complete(crawlId, lease, result, links, Date.now()));
  }
  const newHosts = r.newHosts;
  if (newHosts.length > 0) await durable(deps, () => deps.onNewHosts(crawlId, newHosts));
  if (r.accepted && result.kind === 'delivered') deps.onDelivered?.(crawlId);
  if (r.accepted && links.length > 0) deps.onLinksAdmitted(new Set(links.map((l) => l.host)));
  if (r.finished) deps.onFinished(crawlId);
  return r.accepted;
}
