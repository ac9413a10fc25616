import { ARTIFACT_CONTENT_TYPES, type BlockReason } from '@trawl/contract';
import type { Example } from './error-examples.ts';
import {
  CRAWL_CANCELLED,
  CRAWL_COMPLETED,
  CRAWL_CREATED,
  CRAWL_EVENT_STREAM,
  CRAWL_EXTRACTION_REQUEST,
  CRAWL_ITEMS,
  CRAWL_ITEMS_JSONL,
  CRAWL_OPTIONS_REQUEST,
  CRAWL_PAUSED,
  CRAWL_REQUEST,
  CRAWL_RUNNING,
  CRAWL_WEBHOOK_DELIVERIES,
} from './examples/crawl-examples.ts';
import { BROWSER_SCRAPE_RESPONSE, EXAMPLE_SITE, FETCH_RESPONSE, HAR_EXAMPLE, PAGE_HTML, PAGE_MARKDOWN } from './examples/page-examples.ts';
import { TRENDS_GRAIN, TRENDS_JOB_COMPLETED, TRENDS_JOB_FAILED, TRENDS_JOB_QUEUED } from './examples/trends-examples.ts';

/**
 * What the OpenAPI document says of each operation beyond its schemas: a description (Markdown), request examples,
 * and each success answer's description and examples (by media type; JSON unless said). Error answers get theirs
 * from error-examples.ts. apps/gateway/test/openapi-examples.e2e.test.ts fails on an operation missing here.
 */
export interface ResponseDoc {
  description: string;
  examples: Record<string, Record<string, Example>>;
}

export interface OperationDoc {
  description: string;
  request?: Record<string, Example>;
  responses: Record<number, ResponseDoc>;
  /** Page outcomes this operation answers as errors (Fetch, Browser scrape), each an example of its error status. */
  pageOutcomes?: readonly BlockReason[];
}

const json = (examples: Record<string, Example>) => ({ 'application/json': examples });

const LIGHT_OUTCOMES: BlockReason[] = ['blocked_target', 'body_size_limit', 'redirect_limit', 'unsupported_content_type', 'http_error', 'network_error', 'timeout'];

export const OPERATION_DOCS: Record<string, OperationDoc> = {
  fetchPage: {
    description: `Retrieves one URL and answers in the same response with the page as Markdown and sanitized HTML, its metadata and links, the audit of how it was retrieved, and usage.

The light engine goes first (through the configured proxy, then once directly after a proxy or transport failure); when the page is empty, a script-only app shell or below the quality threshold, the browser engine renders it. A page that is delivered answers 200 even when \`status\` is \`low_quality\`; a page that could not be delivered answers an error whose \`details\` carry \`run_id\` and \`block_reason\`. Each call creates a run (\`type: fetch\`) and costs 1 credit when a page is delivered.

Targets that resolve to private, loopback or link-local addresses are refused (403, \`block_reason: blocked_target\`) unless the operator allows them with \`TRAWL_ALLOW_PRIVATE\`.`,
    request: { article: { summary: 'A page', value: { url: `${EXAMPLE_SITE}/journal/spring-count.html` } } },
    responses: { 200: { description: 'The page: the run and its result.', examples: json({ delivered: { summary: 'A delivered page', value: FETCH_RESPONSE } }) } },
    pageOutcomes: LIGHT_OUTCOMES,
  },
  browserScrape: {
    description: `Renders one URL in Chromium and answers like Fetch (\`run.type: browser_scrape\`), with the browser controls applied: wait for a selector, inline iframes, flatten shadow DOM, collect a virtual-scroll list. \`screenshot: true\` adds a full-page PNG artifact and \`record: true\` a HAR artifact (no bodies; cookies and credentials redacted).

When no browser page is free the answer is 503 with \`Retry-After\` at once, rather than a queue.`,
    request: {
      controls: {
        summary: 'Wait for the article, with a screenshot and a HAR',
        value: { url: `${EXAMPLE_SITE}/journal/spring-count.html`, browser: { wait_for_selector: 'article h1' }, screenshot: true, record: true },
      },
    },
    responses: { 200: { description: 'The rendered page: the run and its result.', examples: json({ rendered: { summary: 'A rendered page', value: BROWSER_SCRAPE_RESPONSE } }) } },
    pageOutcomes: [...LIGHT_OUTCOMES, 'browser_capacity_full', 'render_failed'],
  },
  createCrawl: {
    description: `Starts an asynchronous crawl of 1 to 100 seeds and answers 202 at once with the crawl and its run; follow it with \`GET /v1/crawl/{crawl_id}\` and read its pages with \`GET /v1/crawl/{crawl_id}/items\`.

Links are followed within \`scope\` (each seed anchors its own) up to \`max_depth\` hops, and never more than \`max_pages\` pages are admitted, seeds included (so \`max_pages\` must be at least the number of seeds). Seeds are normalized before duplicates are refused. robots.txt is honoured. The plan is validated before any credit or quota is reserved; \`max_pages\` units of the monthly \`crawl_pages\` quota are reserved at creation and what was not used is given back when the crawl ends. 1 credit per delivered page; failed pages are free.`,
    request: {
      site: { summary: 'A site, two hops deep', value: CRAWL_REQUEST },
      extraction: { summary: 'Records from a listing (json_css)', value: CRAWL_EXTRACTION_REQUEST },
      options: { summary: 'Sitemaps, path filters and a webhook', value: CRAWL_OPTIONS_REQUEST },
    },
    responses: { 202: { description: 'The crawl is accepted: the crawl job and its run.', examples: json({ accepted: { summary: 'A queued crawl', value: CRAWL_CREATED } }) } },
  },
  getCrawl: {
    description:
      'The crawl as it stands: status, progress counters (one atomic snapshot), failure, usage and diagnostics. An ended crawl is kept for `TRAWL_CRAWL_RETENTION_S`, then answers 404 `crawl_not_found` (its run stays).',
    responses: {
      200: {
        description: 'The crawl.',
        examples: json({ running: { summary: 'A running crawl', value: CRAWL_RUNNING }, completed: { summary: 'An ended crawl', value: CRAWL_COMPLETED } }),
      },
    },
  },
  listCrawlItems: {
    description:
      'Delivered pages of a crawl in delivery order, `limit` at a time. Pass `next_cursor` back as `cursor` to go on; a cursor stays valid while the crawl runs and after it ends, and `next_cursor` is `null` only when the crawl has ended and every item was read. Artifact URLs of an item carry `crawl_id`: follow them exactly as returned.',
    responses: { 200: { description: 'One page of items.', examples: json({ page: { summary: 'A page of one item', value: CRAWL_ITEMS } }) } },
  },
  listCrawlWebhookDeliveries: {
    description:
      "Every event of the crawl's webhook (see `webhook` on `POST /v1/crawl`) in the order it was queued, `limit` at a time, each with how its delivery went: `status` (`pending` while queued, in flight or waiting for a retry; `delivered` on a 2xx answer; `failed` once given up), `attempts`, when the last attempt started and, while pending, when the next is due, and the last finished attempt's outcome (`reason` `none` or a failure reason as in `diagnostics.webhooks.failure_reasons`, the receiver's HTTP status, the attempt's duration). `id` is the event id sent for deduplication; a `crawl.page` event names its item. Never the URL, the secret, a signature, a header or a body. A crawl without a webhook answers an empty list. The cursor stays valid while events are queued; `next_cursor` is `null` once every event was read and none will be queued. Kept as long as the crawl.",
    responses: {
      200: {
        description: 'One page of events with their delivery outcomes.',
        examples: json({ page: { summary: 'Delivered after a retry, refused, waiting for a retry, in flight', value: CRAWL_WEBHOOK_DELIVERIES } }),
      },
    },
  },
  pauseCrawl: {
    description: 'Pauses a queued or running crawl: no new page is leased until it is resumed (pages in flight finish). Any other status: 400 `invalid_request`.',
    responses: { 200: { description: 'The paused crawl.', examples: json({ paused: { summary: 'A paused crawl', value: CRAWL_PAUSED } }) } },
  },
  resumeCrawl: {
    description: 'Resumes a paused crawl. Any other status: 400 `invalid_request`.',
    responses: { 200: { description: 'The resumed crawl.', examples: json({ resumed: { summary: 'The crawl running again', value: CRAWL_RUNNING } }) } },
  },
  cancelCrawl: {
    description:
      'Cancels a queued, running or paused crawl: it ends `failed` with `failure.code: cancelled`, its queued pages and the pages leased to workers are dropped in the same atomic step (`pages_dropped`), and the pages delivered before stay readable as items and are billed. Repeating it answers 200 with the same crawl; on a crawl that ended otherwise: 400 `invalid_request`.',
    responses: { 200: { description: 'The cancelled crawl.', examples: json({ cancelled: { summary: 'A crawl cancelled after two pages', value: CRAWL_CANCELLED } }) } },
  },
  exportCrawlItems: {
    description:
      'Every delivered item as JSON Lines (one `CrawlItem` per line, delivery order), streamed a batch at a time, so an export holds the same memory whatever the crawl\'s size. `follow=true` keeps the stream open while the crawl runs and ends it once the crawl has ended and every item was sent. Resume a broken download with `after` (the id of the last complete line) or an items `cursor`. A transfer that did not end cleanly is incomplete.',
    responses: { 200: { description: 'One CrawlItem per line.', examples: { 'application/jsonl': { one: { summary: 'One item (one line)', value: CRAWL_ITEMS_JSONL } } } } },
  },
  crawlEvents: {
    description:
      'Live progress as Server-Sent Events: `status` first and on every change, `progress` whenever a counter moves (with `pages_per_second` and, once `max_pages` bounds the crawl, `eta_s`), and `end` once the crawl has ended, after which the stream closes. Each event has an id: reconnect with `Last-Event-ID` to receive only what changed since; after the end event the answer is 204. Each `data:` line is one JSON object: `status` {crawl_id, status, previous_status, failure, at}, `progress` {crawl_id, status, progress, pages_per_second, eta_s, at}, `end` {crawl_id, status, failure, completed_at, progress, at}.',
    responses: {
      200: {
        description: 'text/event-stream; each data line is one of these objects.',
        examples: { 'text/event-stream': { stream: { summary: 'A short crawl from running to its end', value: CRAWL_EVENT_STREAM } } },
      },
    },
  },
  createRelatedQueriesJob: {
    description: `Starts a durable job for the Top and Rising related queries of one complete query grain, and answers 202 at once; poll \`GET /v1/search-trends/jobs/{job_id}\` until \`state\` is \`completed\` or \`failed\`.

Every field is required and the grain is checked as a whole, the way Google Trends checks it, before a job exists. A team asking again for an identical grain within \`TRAWL_TRENDS_CACHE_S\` gets a job completed from the stored result (\`cached: true\`). Jobs take one unit of the monthly \`trends\` quota and are free of credit.`,
    request: { grain: { summary: 'pizza, worldwide, 2021', value: TRENDS_GRAIN } },
    responses: { 202: { description: 'The job is accepted.', examples: json({ accepted: { summary: 'A queued job', value: TRENDS_JOB_QUEUED } }) } },
  },
  getTrendsJob: {
    description: 'A search-trends job: state, attempts, timestamps, and once completed the Top and Rising related queries (at most 25 each, in Google\'s order); once failed, why. A settled job stays readable for `TRAWL_TRENDS_JOB_RETENTION_S`.',
    responses: {
      200: {
        description: 'The job.',
        examples: json({
          completed: { summary: 'A completed job', value: TRENDS_JOB_COMPLETED },
          failed: { summary: 'A job that failed on every attempt', value: TRENDS_JOB_FAILED },
        }),
      },
    },
  },
  getRun: {
    description: "A run of your team (a Fetch, a Browser scrape or a crawl's run): status, cost and quota. Another team's run is 404 `run_not_found`.",
    responses: { 200: { description: 'The run.', examples: json({ fetch: { summary: 'A completed fetch run', value: { run: FETCH_RESPONSE.run } } }) } },
  },
  downloadArtifact: {
    description: `Downloads an artifact listed in a result or a crawl item (\`artifacts[].url\`), free of charge, with the Content-Type listed there: \`markdown\` and \`html\` for every page, \`screenshot\` (PNG) and \`har\` (JSON) from Browser scrape when asked for. Crawl-page URLs carry \`crawl_id\`: follow them exactly as returned. Artifacts are served to the owning team only (anyone else: 404); past \`TRAWL_ARTIFACT_RETENTION_S\` the URL answers 410 \`artifact_expired\` for seven more days, then 404.`,
    responses: {
      200: {
        description: 'The artifact bytes.',
        examples: {
          [ARTIFACT_CONTENT_TYPES.markdown]: { markdown: { summary: 'The page as Markdown', value: PAGE_MARKDOWN } },
          [ARTIFACT_CONTENT_TYPES.html]: { html: { summary: 'The page as sanitized HTML', value: PAGE_HTML } },
          [ARTIFACT_CONTENT_TYPES.har]: { har: { summary: 'A HAR recording (Browser scrape, record: true)', value: HAR_EXAMPLE } },
        },
      },
    },
  },
};

/** Descriptions of path and query parameters by name, for those whose schema carries none. */
export const PARAMETER_DESCRIPTIONS: Record<string, string> = {
  run_id: 'A run id (`run_…`) as returned: `run.id`, or the run in an artifact URL.',
  crawl_id: 'The crawl id (`crawl_…`) returned when the crawl was created.',
  job_id: 'The job id (`job_…`) returned when the job was created.',
  key: 'The artifact key as listed: markdown, html, screenshot or har.',
  cursor: 'Opaque cursor from a previous page\'s `next_cursor`; absent for the first page.',
  limit: 'Entries per page, 1 to 100 (default 20).',
};
