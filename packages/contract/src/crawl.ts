import { z } from 'zod';
import { HttpUrl } from './common.ts';

export const CRAWL_SCOPES = ['same_hostname', 'same_domain', 'same_origin', 'all'] as const;
export const CrawlScope = z.enum(CRAWL_SCOPES);
export type CrawlScope = z.infer<typeof CrawlScope>;

export const CRAWL_LIMITS = {
  seeds: { min: 1, max: 100 },
  max_depth: { min: 0, max: 10, default: 2 },
  max_pages: { min: 1, max: 10_000, default: 100 },
} as const;

const CssSelector = z.string().min(1).max(1000);

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

export const ExtractionField = z.strictObject({
  name: z.string().min(1).max(200),
  selector: CssSelector,
  type: z.enum(['text', 'attribute']),
  attribute: z.string().min(1).max(200).optional(),
  transform: z.enum(['strip']).optional(),
});
export const ComputedField = z.strictObject({
  name: z.string().min(1).max(200),
  operation: z.enum(['template']),
  template: z.string().max(2000),
});
export const Extraction = z
  .strictObject({
    type: z.enum(['json_css']),
    schema: z.strictObject({
      name: z.string().min(1).max(200),
      base_selector: CssSelector,
      fields: z.array(ExtractionField).min(1).max(100),
    }),
    computed_fields: z.array(ComputedField).max(100).optional(),
  })
  .meta({ id: 'Extraction' });
export type Extraction = z.infer<typeof Extraction>;

export const CrawlRequest = z
  .strictObject({
    urls: z.array(HttpUrl).min(CRAWL_LIMITS.seeds.min).max(CRAWL_LIMITS.seeds.max),
    max_depth: z.int().min(CRAWL_LIMITS.max_depth.min).max(CRAWL_LIMITS.max_depth.max).optional(),
    max_pages: z.int().min(CRAWL_LIMITS.max_pages.min).max(CRAWL_LIMITS.max_pages.max).optional(),
    scope: CrawlScope.optional(),
    browser: BrowserControls.optional(),
    extraction: Extraction.optional(),
  })
  .meta({ id: 'CrawlRequest' });
export type CrawlRequest = z.infer<typeof CrawlRequest>;
