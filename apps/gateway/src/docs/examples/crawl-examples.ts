import type {
  CrawlCreateResponse,
  CrawlEndEventData,
  CrawlItemsPage,
  CrawlJob,
  CrawlProgressEventData,
  CrawlRequest,
  CrawlResponse,
  CrawlStatusEventData,
  WebhookDeliveriesPage,
} from '@trawl/contract';
import type { z } from 'zod';
import { EXAMPLE_SITE, exampleArtifacts, PAGE_RESULT } from './page-examples.ts';

/**
 * Crawl examples, from a real crawl of the demo site (8 pages, depth 2): the job as created, running, ended and
 * paused, and one page of its items (the first item is the Fetch example's page, so both show the same content).
 */
const CRAWL_ID = 'crawl_G3lL_-wyeFX6tPEZpHm4Gw';
const CRAWL_RUN_ID = 'run_ZXEHajzUJdQ-qc_tfq2VQw';
const CREATED_AT = '2026-11-27T09:20:11.402Z';

export const CRAWL_REQUEST: z.input<typeof CrawlRequest> = { urls: [`${EXAMPLE_SITE}/`], scope: 'same_hostname', max_depth: 2, max_pages: 20 };

export const CRAWL_EXTRACTION_REQUEST: z.input<typeof CrawlRequest> = {
  urls: [`${EXAMPLE_SITE}/species/`],
  max_depth: 0,
  extraction: {
    type: 'json_css',
    schema: {
      name: 'species',
      base_selector: 'section.species-card',
      fields: [
        { name: 'name', selector: '.name', type: 'text' },
        { name: 'latin', selector: '.latin', type: 'text', transform: 'strip' },
        { name: 'status', selector: '.status', type: 'text', transform: 'lowercase' },
      ],
    },
    computed_fields: [{ name: 'label', operation: 'template', template: '{name} ({latin})' }],
  },
};

const QUEUED: z.output<typeof CrawlJob> = {
  id: CRAWL_ID,
  run_id: CRAWL_RUN_ID,
  status: 'queued',
  created_at: CREATED_AT,
  started_at: null,
  completed_at: null,
  request: {
    urls: [`${EXAMPLE_SITE}/`],
    scope: 'same_hostname',
    max_depth: 2,
    max_pages: 20,
    browser: null,
    extraction: null,
    include_paths: [],
    exclude_paths: [],
    sitemap: 'skip',
    webhook: null,
  },
  progress: { pages_discovered: 1, pages_queued: 1, pages_in_flight: 0, pages_completed: 0, pages_failed: 0, pages_blocked: 0, pages_dropped: 0, max_pages: 20 },
  failure: null,
  usage: { credits: 0, billing_mode: 'shadow' },
  diagnostics: { block_reasons: {}, retry: { categories: {} } },
};

export const CRAWL_CREATED: z.output<typeof CrawlCreateResponse> = {
  crawl: QUEUED,
  run: { id: CRAWL_RUN_ID, type: 'crawl', status: 'queued', created_at: CREATED_AT, cost_units: 0, quota: { resource: 'crawl_pages', quantity_reserved: 20 } },
};

export const CRAWL_RUNNING: z.output<typeof CrawlResponse> = {
  crawl: {
    ...QUEUED,
    status: 'running',
    started_at: '2026-11-27T09:20:11.477Z',
    progress: { ...QUEUED.progress, pages_discovered: 8, pages_queued: 4, pages_in_flight: 2, pages_completed: 2 },
    usage: { credits: 2, billing_mode: 'shadow' },
  },
};

export const CRAWL_COMPLETED: z.output<typeof CrawlResponse> = {
  crawl: {
    ...CRAWL_RUNNING.crawl,
    status: 'completed',
    completed_at: '2026-11-27T09:20:13.089Z',
    progress: { ...QUEUED.progress, pages_discovered: 8, pages_queued: 0, pages_completed: 8 },
    usage: { credits: 8, billing_mode: 'shadow' },
  },
};

export const CRAWL_PAUSED: z.output<typeof CrawlResponse> = { crawl: { ...CRAWL_RUNNING.crawl, status: 'paused' } };

const PAGE_RUN_ID = 'run_pY3Jhd2xfRzNsTF8td3llRlg2dFBFWnBIbTRHdy41';

export const CRAWL_ITEMS: z.output<typeof CrawlItemsPage> = {
  items: [
    {
      id: 'item_Y3Jhd2xfRzNsTF8td3llRlg2dFBFWnBIbTRHdy41',
      crawl_id: CRAWL_ID,
      page_run_id: PAGE_RUN_ID,
      url: PAGE_RESULT.url,
      final_url: PAGE_RESULT.final_url,
      depth: 1,
      parent_url: `${EXAMPLE_SITE}/`,
      status: 'completed',
      title: PAGE_RESULT.title,
      content: PAGE_RESULT.content,
      records: [],
      artifacts: exampleArtifacts(PAGE_RUN_ID, ['markdown', 'html'], CRAWL_ID),
      audit: PAGE_RESULT.audit,
      usage: PAGE_RESULT.usage,
      diagnostics: PAGE_RESULT.diagnostics,
      created_at: '2026-11-27T09:20:12.204Z',
    },
  ],
  next_cursor: 'YzE6Ng',
};

/** Issue 17 items 4-7: a crawl with filters, sitemaps and a webhook; a cancelled crawl; its events and its export. */
export const CRAWL_OPTIONS_REQUEST: z.input<typeof CrawlRequest> = {
  urls: [`${EXAMPLE_SITE}/`],
  max_pages: 50,
  sitemap: 'include',
  include_paths: ['/journal/**', '/species/*'],
  exclude_paths: ['/journal/drafts/**'],
  webhook: { url: 'https://hooks.example.net/trawl', secret: 'whsec_3f9c2a7d51e84b06', events: ['crawl.page', 'crawl.completed', 'crawl.failed'], payload: 'thin' },
};

export const CRAWL_CANCELLED: z.output<typeof CrawlResponse> = {
  crawl: {
    ...CRAWL_RUNNING.crawl,
    status: 'failed',
    completed_at: '2026-11-27T09:20:12.310Z',
    failure: { code: 'cancelled', message: 'the crawl was cancelled (by its team or an operator)' },
    progress: { ...QUEUED.progress, pages_discovered: 8, pages_queued: 0, pages_in_flight: 0, pages_completed: 2, pages_dropped: 6 },
  },
};

export const CRAWL_ITEMS_JSONL = `${JSON.stringify(CRAWL_ITEMS.items[0])}\n`;

const CRAWL_STATUS_EVENT: CrawlStatusEventData = {
  crawl_id: CRAWL_ID,
  status: 'running',
  previous_status: 'queued',
  failure: null,
  at: '2026-11-27T09:20:11.500Z',
};
const CRAWL_PROGRESS_EVENT: CrawlProgressEventData = {
  crawl_id: CRAWL_ID,
  status: 'running',
  progress: CRAWL_RUNNING.crawl.progress,
  pages_per_second: 4.2,
  eta_s: null,
  at: '2026-11-27T09:20:12.000Z',
};
const CRAWL_END_EVENT: CrawlEndEventData = {
  crawl_id: CRAWL_ID,
  status: 'completed',
  failure: null,
  completed_at: CRAWL_COMPLETED.crawl.completed_at,
  progress: CRAWL_COMPLETED.crawl.progress,
  at: '2026-11-27T09:20:13.100Z',
};

/** The stream of GET …/events for this crawl (ids shortened). */
export const CRAWL_EVENT_STREAM = [
  'retry: 2000\n',
  `id: ZTE6c3RhdHVz\nevent: status\ndata: ${JSON.stringify(CRAWL_STATUS_EVENT)}\n`,
  `id: ZTE6cHJvZ3Jl\nevent: progress\ndata: ${JSON.stringify(CRAWL_PROGRESS_EVENT)}\n`,
  `id: ZTE6ZW5kOmNv\nevent: end\ndata: ${JSON.stringify(CRAWL_END_EVENT)}\n`,
].join('\n');

/**
 * GET …/webhooks of this crawl run with CRAWL_OPTIONS_REQUEST's webhook, while it runs: the first page event
 * delivered on its second attempt (the first answered 503), the second refused for good (410), the third waiting
 * for its retry after a network failure (connection reset), the fourth in flight.
 */
const EVENT = (seq: number) => `evt_G3lL_-wyeFX6tPEZpHm4Gw_p${seq}`;
const ITEM = (seq: number) => `item_Y3Jhd2xfRzNsTF8td3llRlg2dFBFWnBIbTRHdy4${'wxyz'[seq]}`;
export const CRAWL_WEBHOOK_DELIVERIES: z.output<typeof WebhookDeliveriesPage> = {
  deliveries: [
    {
      id: EVENT(0),
      event: 'crawl.page',
      created_at: '2026-11-27T09:20:11.802Z',
      status: 'delivered',
      attempts: 2,
      last_attempt_at: '2026-11-27T09:20:12.617Z',
      next_attempt_at: null,
      last_outcome: { reason: 'none', http_status: 200, duration_ms: 38 },
      item_id: ITEM(0),
    },
    {
      id: EVENT(1),
      event: 'crawl.page',
      created_at: '2026-11-27T09:20:12.204Z',
      status: 'failed',
      attempts: 1,
      last_attempt_at: '2026-11-27T09:20:12.206Z',
      next_attempt_at: null,
      last_outcome: { reason: 'http_4xx', http_status: 410, duration_ms: 21 },
      item_id: ITEM(1),
    },
    {
      id: EVENT(2),
      event: 'crawl.page',
      created_at: '2026-11-27T09:20:12.377Z',
      status: 'pending',
      attempts: 1,
      last_attempt_at: '2026-11-27T09:20:12.379Z',
      next_attempt_at: '2026-11-27T09:20:13.164Z',
      last_outcome: { reason: 'network', http_status: null, duration_ms: 3 },
      item_id: ITEM(2),
    },
    {
      id: EVENT(3),
      event: 'crawl.page',
      created_at: '2026-11-27T09:20:12.540Z',
      status: 'pending',
      attempts: 1,
      last_attempt_at: '2026-11-27T09:20:12.541Z',
      next_attempt_at: null,
      last_outcome: null,
      item_id: ITEM(3),
    },
  ],
  next_cursor: 'dzE6NA',
};
