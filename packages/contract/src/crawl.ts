import { z } from 'zod';
import { HttpUrl, RunStatus, Timestamp } from './common.ts';
import { CssSelector, Extraction } from './extraction.ts';
import { Artifact, Audit, Diagnostics, PageContent, PublicRun, Usage } from './page.ts';
import { PathPatterns } from './path-pattern.ts';
import { WebhookDiagnostics, WebhookRequest, WebhookView } from './webhooks.ts';

export const CRAWL_SCOPES = ['same_hostname', 'same_domain', 'same_origin', 'all'] as const;
export const CrawlScope = z.enum(CRAWL_SCOPES);
export type CrawlScope = z.infer<typeof CrawlScope>;

export const CRAWL_LIMITS = {
  seeds: { min: 1, max: 100 },
  max_depth: { min: 0, max: 10, default: 2 },
  max_pages: { min: 1, max: 10_000, default: 100 },
  /** The scope of a crawl that names none. */
  scope: { default: 'same_hostname' },
} as const;

export const BrowserControls = z
  .strictObject({
    wait_for_selector: CssSelector.optional(),
    process_iframes: z.boolean().optional(),
    flatten_shadow_dom: z.boolean().optional(),
    virtual_scroll: z
      .strictObject({ container_selector: CssSelector, scroll_count: z.int().min(1).max(1000) })
      .optional(),
  })
  .meta({ id: 'BrowserControls' });
export type BrowserControls = z.infer<typeof BrowserControls>;

export const CrawlRequest = z
  .strictObject({
    urls: z
      .array(HttpUrl)
      .min(CRAWL_LIMITS.seeds.min)
      .max(CRAWL_LIMITS.seeds.max)
      .meta({ description: 'The seeds: no two equal once normalized, and no more of them than max_pages.' }),
    // Defaults stated for the OpenAPI document (the crawl plan applies them, crawler/src/api/plan.ts).
    max_depth: z
      .int()
      .min(CRAWL_LIMITS.max_depth.min)
      .max(CRAWL_LIMITS.max_depth.max)
      .optional()
      .meta({ default: CRAWL_LIMITS.max_depth.default, description: 'Link hops from a seed (seeds are depth 0).' }),
    max_pages: z
      .int()
      .min(CRAWL_LIMITS.max_pages.min)
      .max(CRAWL_LIMITS.max_pages.max)
      .optional()
      .meta({ default: CRAWL_LIMITS.max_pages.default, description: 'Pages admitted to the crawl, seeds included; at least the number of seeds.' }),
    scope: CrawlScope.optional().meta({ default: CRAWL_LIMITS.scope.default, description: 'Which links are followed; each seed anchors its own scope.' }),
    browser: BrowserControls.optional(),
    extraction: Extraction.optional(),
    include_paths: PathPatterns.optional().meta({
      description: 'Follow only links whose path matches one of these patterns (seeds are always crawled). Default: every path.',
    }),
    exclude_paths: PathPatterns.optional().meta({ description: 'Never follow links whose path matches one of these patterns (wins over include_paths).' }),
    sitemap: z
      .enum(['include', 'only', 'skip'])
      .optional()
      .meta({
        description:
          'skip (default): links only. include: also the pages the seeds’ sitemaps list (robots.txt Sitemap: lines and /sitemap.xml, indexes and gzip followed). only: the seeds and their sitemaps’ pages, no links followed. Sitemap pages are one hop from their seed; scope, path filters and max_pages apply.',
      }),
    webhook: WebhookRequest.optional(),
  })
  .meta({ id: 'CrawlRequest' });
export type CrawlRequest = z.infer<typeof CrawlRequest>;


const Count = z.int().nonnegative();

export const CrawlJob = z
  .strictObject({
    id: z.string().meta({ description: 'Opaque, form crawl_<id>.' }),
    run_id: z.string(),
    status: RunStatus.meta({ description: 'queued, running, paused, completed, failed, budget_exhausted or expired.' }),
    created_at: Timestamp,
    started_at: Timestamp.nullable(),
    completed_at: Timestamp.nullable(),
    request: z.strictObject({
      urls: z.array(z.string()).meta({ description: 'The seeds, normalized.' }),
      scope: CrawlScope,
      max_depth: z.int(),
      max_pages: z.int(),
      browser: BrowserControls.nullable(),
      extraction: Extraction.nullable(),
      include_paths: z.array(z.string()),
      exclude_paths: z.array(z.string()),
      sitemap: z.enum(['include', 'only', 'skip']),
      webhook: WebhookView.nullable(),
    }),
    progress: z
      .strictObject({
        pages_discovered: Count,
        pages_queued: Count,
        pages_in_flight: Count,
        pages_completed: Count,
        pages_failed: Count,
        pages_blocked: Count,
        pages_dropped: Count,
        max_pages: Count,
      })
      .meta({
        description:
          'pages_discovered = queued + in_flight + completed + failed + blocked + dropped. Dropped: admitted pages left when the crawl ended early.',
      }),
    failure: z.strictObject({ code: z.string(), message: z.string() }).nullable(),
    usage: z.strictObject({ credits: Count, billing_mode: z.enum(['shadow', 'enforce']) }),
    diagnostics: z.strictObject({
      block_reasons: z.record(z.string(), Count).meta({ description: 'Blocked and failed pages per reason.' }),
      retry: z.strictObject({ categories: z.record(z.string(), Count) }),
      webhooks: WebhookDiagnostics.optional().meta({ description: 'Present when the crawl has a webhook: its deliveries, counted.' }),
    }),
  })
  .meta({ id: 'CrawlJob' });
export type CrawlJob = z.infer<typeof CrawlJob>;

export const CrawlCreateResponse = z.strictObject({ crawl: CrawlJob, run: PublicRun }).meta({ id: 'CrawlCreateResponse' });
export const CrawlResponse = z.strictObject({ crawl: CrawlJob }).meta({ id: 'CrawlResponse' });

export const CrawlItem = z
  .strictObject({
    id: z.string(),
    crawl_id: z.string(),
    page_run_id: z.string().meta({ description: 'The run id in this page’s artifact URLs.' }),
    url: z.string(),
    final_url: z.string(),
    depth: z.int().nonnegative(),
    parent_url: z.string().nullable(),
    status: RunStatus,
    title: z.string(),
    content: PageContent,
    records: z.array(z.record(z.string(), z.unknown())).meta({ description: 'Extracted records; [] without extraction.' }),
    artifacts: z.array(Artifact),
    audit: Audit,
    usage: Usage,
    diagnostics: Diagnostics,
    created_at: Timestamp,
  })
  .meta({ id: 'CrawlItem' });
export type CrawlItem = z.infer<typeof CrawlItem>;

export const CrawlItemsPage = z
  .strictObject({
    items: z.array(CrawlItem),
    next_cursor: z.string().nullable().meta({ description: 'Opaque. null when no more items exist yet and the crawl has ended.' }),
  })
  .meta({ id: 'CrawlItemsPage' });
export type CrawlItemsPage = z.infer<typeof CrawlItemsPage>;
