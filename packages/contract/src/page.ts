import { z } from 'zod';
import { BLOCK_REASON_NAMES } from './block-reasons.ts';
import { RunStatus, Timestamp } from './common.ts';
import { ADAPTIVE_ACTIONS } from './extraction.ts';
import { QUOTA_RESOURCE_NAMES } from './quotas.ts';

export const RUN_TYPES = ['fetch', 'browser_scrape', 'crawl'] as const;
export const RunType = z.enum(RUN_TYPES);

export const PublicRun = z
  .strictObject({
    id: z.string().meta({ description: 'Opaque, form run_<id>.' }),
    type: RunType,
    status: RunStatus,
    created_at: Timestamp,
    completed_at: Timestamp.optional(),
    cost_units: z.int().nonnegative(),
    quota: z
      .strictObject({ resource: z.enum(QUOTA_RESOURCE_NAMES), quantity_reserved: z.int().nonnegative() })
      .meta({ description: 'The monthly quota the run draws on and the units it reserved (a crawl: crawl_pages, its max_pages).' }),
  })
  .meta({ id: 'PublicRun' });
export type PublicRun = z.infer<typeof PublicRun>;

export const Artifact = z
  .strictObject({
    key: z.string().meta({ description: 'Artifact key, e.g. markdown.' }),
    url: z.string().meta({ description: 'Relative download path; follow it exactly as returned.' }),
    content_type: z.string(),
    expires_at: Timestamp.nullable(),
  })
  .meta({ id: 'Artifact' });
export type Artifact = z.infer<typeof Artifact>;

/** Block reasons defined by the contract, plus ours (documented in the README); the table is block-reasons.ts. */
export const BlockReason = z.enum(BLOCK_REASON_NAMES);
export type BlockReason = z.infer<typeof BlockReason>;

export const FallbackEvent = z
  .strictObject({
    kind: z.enum(['route', 'engine']).meta({ description: 'route: proxy to direct; engine: light to browser, or browser back to light when the render was worse (reason browser_result_worse).' }),
    from: z.string(),
    to: z.string(),
    reason: z.string(),
    at: Timestamp,
  })
  .meta({ id: 'FallbackEvent' });
export type FallbackEvent = z.infer<typeof FallbackEvent>;

export const Audit = z
  .strictObject({
    engine_winner: z.string().nullable(),
    engines_attempted: z.array(z.string()),
    fallback_reasons: z.array(z.string()),
    fallback_events: z.array(FallbackEvent),
    retry_stats: z.strictObject({ total_attempts: z.int().nonnegative() }),
    quality_score: z.number().min(0).max(1),
    block_reason: BlockReason.nullable(),
  })
  .meta({ id: 'Audit' });
export type Audit = z.infer<typeof Audit>;

export const Usage = z
  .strictObject({ cost_units: z.int().nonnegative(), budget_exhausted: z.boolean() })
  .meta({ id: 'Usage' });

export const AdaptiveExtractionDiagnostics = z.strictObject({
  enabled: z.boolean(),
  used: z.boolean(),
  // What adaptive extraction did (ADAPTIVE_ACTIONS in extraction.ts); `none` on a page without extraction.
  action: z.enum([...ADAPTIVE_ACTIONS, 'none']).meta({
    description: 'matched, reused, low_confidence, no_memory or disabled; none when the crawl asked for no extraction.',
  }),
  confidence: z.number().min(0).max(1),
});
export const BrowserDebugDiagnostics = z.strictObject({
  enabled: z.boolean(),
  network_event_count: z.int().nonnegative(),
  console_message_count: z.int().nonnegative(),
  // Present once a render read its page: how long the page took to settle (from when it was parsed, or from when
  // wait_for_selector matched) and why reading began: its content held still (`stable`), the selector's content
  // held still (`selector`), or the settle bound or deadline came first (`bound`).
  settle_ms: z.int().nonnegative().optional(),
  settle_reason: z.enum(['stable', 'selector', 'bound']).optional(),
  // Present only when browser.virtual_scroll was asked for: scrolls that moved the container, distinct rows kept.
  scroll_count: z.int().nonnegative().optional(),
  rows_collected: z.int().nonnegative().optional(),
});
export const BrowserFailureDiagnostics = z.strictObject({
  present: z.boolean(),
  category: z.string(),
  stage: z.string(),
  attempt_count: z.int().nonnegative(),
  browser_lease_acquired: z.boolean().nullable(),
  error_code: z.string().nullable(),
});
export const CONTENT_LIMITS = ['nesting_depth', 'element_count', 'link_count'] as const;
export const ContentQualityDiagnostics = z.strictObject({
  score: z.number().min(0).max(1),
  confidence: z.enum(['low', 'medium', 'high']),
  // Present only when a structural limit shaped the page (README "Content limits"): deeper elements flattened into
  // their ancestor's text, elements past the cap kept as text, links past the cap left out of content.links.
  limits_applied: z.array(z.enum(CONTENT_LIMITS)).optional(),
});

export const Diagnostics = z
  .strictObject({
    adaptive_extraction: AdaptiveExtractionDiagnostics,
    browser_debug: BrowserDebugDiagnostics,
    browser_failure: BrowserFailureDiagnostics,
    content_quality: ContentQualityDiagnostics,
  })
  .meta({ id: 'Diagnostics', description: 'Sanitized, public-safe summaries. Never raw URLs, headers or bodies.' });
export type Diagnostics = z.infer<typeof Diagnostics>;

export const PageMetadata = z
  .strictObject({
    title: z.string().nullable(),
    description: z.string().nullable(),
    language: z.string().nullable(),
    canonical_url: z.string().nullable(),
    status_code: z.int(),
    content_type: z.string().nullable(),
    open_graph: z.record(z.string(), z.string()),
    twitter: z.record(z.string(), z.string()),
  })
  .meta({ id: 'PageMetadata' });
export type PageMetadata = z.infer<typeof PageMetadata>;

export const PageContent = z
  .strictObject({
    markdown: z.string(),
    html: z.string().nullable(),
    metadata: PageMetadata,
    links: z.array(z.string()),
  })
  .meta({ id: 'PageContent' });
export type PageContent = z.infer<typeof PageContent>;

export const PublicPageResult = z
  .strictObject({
    url: z.string(),
    final_url: z.string(),
    status: RunStatus,
    title: z.string(),
    content: PageContent,
    artifacts: z.array(Artifact),
    audit: Audit,
    usage: Usage,
    diagnostics: Diagnostics,
  })
  .meta({ id: 'PublicPageResult' });
export type PublicPageResult = z.infer<typeof PublicPageResult>;

export const PageRunResponse = z
  .strictObject({ run: PublicRun, result: PublicPageResult })
  .meta({ id: 'PageRunResponse' });
export type PageRunResponse = z.infer<typeof PageRunResponse>;

export const RunResponse = z.strictObject({ run: PublicRun }).meta({ id: 'RunResponse' });
