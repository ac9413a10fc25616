import { randomUUID } from 'node:crypto';
import { setTimeout as delay } from 'node:timers/promises';
import { artifactDownload, artifactRefOf, type ArtifactDownload, type ArtifactRef } from './artifacts.ts';
import { TrawlApiError, TrawlNetworkError } from './errors.ts';
import { createRawClient, type RawClient } from './openapi-fetch-adapter.ts';
import { parseSse } from './sse.ts';
import type {
  BrowserScrapeRequest,
  CrawlCreateResponse,
  CrawlEvent,
  CrawlItem,
  CrawlItemsPage,
  CrawlJob,
  CrawlRequest,
  FetchRequest,
  PageRunResponse,
  PublicRun,
  TrendsJob,
  TrendsRequest,
  WebhookDeliveriesPage,
} from './types.ts';

export interface TrawlClientOptions {
  /** The API's base URL, e.g. http://127.0.0.1:8080 (paths start with /v1). */
  baseUrl: string;
  apiKey: string;
  fetch?: typeof globalThis.fetch;
  headers?: Record<string, string>;
}

export interface CreateOptions {
  /** Sent as Idempotency-Key; a random one is generated when absent (read it back from an error to retry). */
  idempotencyKey?: string;
  signal?: AbortSignal;
}

export interface ReadOptions {
  signal?: AbortSignal;
}

/** A page of a crawl's list: `limit` entries (1–100, default 100) after `cursor` (the first page without one). */
export type PageOptions = { cursor?: string; limit?: number } & ReadOptions;
const pageQuery = (o: PageOptions) => ({ limit: o.limit ?? 100, ...(o.cursor ? { cursor: o.cursor } : {}) });

export interface CrawlItemsOptions extends ReadOptions {
  /** Items per request, 1–100 (default 100). */
  limit?: number;
  /** Start after this cursor (a next_cursor seen before) instead of the first item. */
  cursor?: string;
  /** Wait between requests that brought a short page while the crawl runs (default 1000 ms). */
  pollIntervalMs?: number;
}

export interface CrawlEventsOptions extends ReadOptions {
  /** Resume after this event id (a CrawlEvent's `id`). */
  lastEventId?: string;
  /** Wait before reconnecting after a broken stream, unless the server said otherwise (default 2000 ms). */
  reconnectMs?: number;
  /** Consecutive failed reconnections before giving up with the last error (default 5). */
  maxReconnects?: number;
}

export interface WaitOptions extends ReadOptions {
  /** Between two reads (default 1000 ms). */
  intervalMs?: number;
}

export type TrawlClient = ReturnType<typeof createTrawlClient>;

const TRENDS_DONE = new Set<TrendsJob['state']>(['completed', 'failed']);

/**
 * The typed Trawl API client: one method per /v1 operation, an item iterator that follows next_cursor, artifact
 * downloads, an Idempotency-Key on every creation call, and every error answer as a TrawlApiError. `raw` is the
 * generated openapi-fetch client for anything else.
 */
export function createTrawlClient(opts: TrawlClientOptions) {
  const baseUrl = opts.baseUrl.replace(/\/+$/, '');
  const raw: RawClient = createRawClient({ ...opts, baseUrl });

  /** The data of a success answer; a TrawlApiError for an error answer, a TrawlNetworkError for no answer. */
  async function call<T>(
    request: () => Promise<{ data?: T; error?: unknown; response: Response }>,
    idempotencyKey: string | null = null,
  ): Promise<{ data: T; response: Response }> {
    let result;
    try {
      result = await request();
    } catch (err) {
      if ((err as Error)?.name === 'AbortError') throw err;
      throw new TrawlNetworkError(baseUrl, err, idempotencyKey);
    }
    const { data, error, response } = result;
    if (!response.ok || data === undefined) throw new TrawlApiError(response.status, error, response.headers, idempotencyKey);
    return { data, response };
  }
  const idem = (o: CreateOptions) => o.idempotencyKey ?? randomUUID();
  const crawlPath = (crawlId: string) => ({ params: { path: { crawl_id: crawlId } } });

  const client = {
    raw,
    baseUrl,

    /** POST /v1/fetch: one page, synchronously. */
    async fetchPage(body: FetchRequest, o: CreateOptions = {}): Promise<PageRunResponse> {
      const key = idem(o);
      return (await call(() => raw.POST('/v1/fetch', { body, params: { header: { 'idempotency-key': key } }, signal: o.signal }), key)).data;
    },

    /** POST /v1/browser-scrape: one page rendered in Chromium. */
    async browserScrape(body: BrowserScrapeRequest, o: CreateOptions = {}): Promise<PageRunResponse> {
      const key = idem(o);
      return (await call(() => raw.POST('/v1/browser-scrape', { body, params: { header: { 'idempotency-key': key } }, signal: o.signal }), key))
        .data;
    },

    /** POST /v1/crawl: starts a crawl. */
    async createCrawl(body: CrawlRequest, o: CreateOptions = {}): Promise<CrawlCreateResponse> {
      const key = idem(o);
      return (await call(() => raw.POST('/v1/crawl', { body, params: { header: { 'idempotency-key': key } }, signal: o.signal }), key)).data;
    },

    async getCrawl(crawlId: string, o: ReadOptions = {}): Promise<CrawlJob> {
      return (await call(() => raw.GET('/v1/crawl/{crawl_id}', { ...crawlPath(crawlId), signal: o.signal }))).data.crawl;
    },

    async pauseCrawl(crawlId: string, o: ReadOptions = {}): Promise<CrawlJob> {
      return (await call(() => raw.POST('/v1/crawl/{crawl_id}/pause', { ...crawlPath(crawlId), signal: o.signal }))).data.crawl;
    },

    async resumeCrawl(crawlId: string, o: ReadOptions = {}): Promise<CrawlJob> {
      return (await call(() => raw.POST('/v1/crawl/{crawl_id}/resume', { ...crawlPath(crawlId), signal: o.signal }))).data.crawl;
    },

    /** One page of items after `cursor` (the first page without one). */
    async crawlItemsPage(crawlId: string, o: PageOptions = {}): Promise<CrawlItemsPage> {
      return (await call(() => raw.GET('/v1/crawl/{crawl_id}/items', { params: { path: { crawl_id: crawlId }, query: pageQuery(o) }, signal: o.signal }))).data;
    },

    /** One page of the crawl's webhook events, each with its delivery status and last outcome (GET …/webhooks). */
    async crawlWebhookDeliveries(crawlId: string, o: PageOptions = {}): Promise<WebhookDeliveriesPage> {
      return (await call(() => raw.GET('/v1/crawl/{crawl_id}/webhooks', { params: { path: { crawl_id: crawlId }, query: pageQuery(o) }, signal: o.signal }))).data;
    },

    /**
     * Every item of a crawl, once each, in delivery order: follows next_cursor while the crawl runs (waiting
     * between short pages) and ends when the crawl has ended and every item was read. A paused crawl never ends.
     */
    async *crawlItems(crawlId: string, o: CrawlItemsOptions = {}): AsyncGenerator<CrawlItem, void, undefined> {
      const limit = o.limit ?? 100;
      let cursor = o.cursor;
      for (;;) {
        const page = await client.crawlItemsPage(crawlId, { cursor, limit, signal: o.signal });
        yield* page.items;
        if (page.next_cursor === null) return;
        cursor = page.next_cursor;
        if (page.items.length < limit) await delay(o.pollIntervalMs ?? 1000, undefined, { signal: o.signal });
      }
    },

    /**
     * The crawl's live events (GET /v1/crawl/{id}/events) until its `end` event: reconnects after a broken stream
     * with the last event id, so nothing is missed and nothing repeated.
     */
    async *crawlEvents(crawlId: string, o: CrawlEventsOptions = {}): AsyncGenerator<CrawlEvent, void, undefined> {
      let lastId = o.lastEventId;
      let wait = o.reconnectMs ?? 2000;
      let failures = 0;
      for (;;) {
        try {
          let response: Response;
          try {
            ({ response } = await raw.GET('/v1/crawl/{crawl_id}/events', {
              params: { path: { crawl_id: crawlId }, header: lastId ? { 'last-event-id': lastId } : {} },
              parseAs: 'stream',
              signal: o.signal,
            }));
          } catch (err) {
            if ((err as Error)?.name === 'AbortError') throw err;
            throw new TrawlNetworkError(baseUrl, err, null);
          }
          // 204: the last event seen was the end.
          if (response.status === 204) return;
          if (!response.ok || !response.body) throw new TrawlApiError(response.status, await response.json().catch(() => null), response.headers, null);
          for await (const e of parseSse(response.body, (ms) => (wait = ms))) {
            failures = 0;
            if (e.id !== null) lastId = e.id;
            if (e.event !== 'status' && e.event !== 'progress' && e.event !== 'end') continue;
            yield { id: e.id, event: e.event, data: JSON.parse(e.data) } as CrawlEvent;
            if (e.event === 'end') return;
          }
        } catch (err) {
          if ((err as Error)?.name === 'AbortError' || o.signal?.aborted) throw err;
          // An API error is an answer (not found, refused): not worth repeating.
          if (err instanceof TrawlApiError && !err.retryable) throw err;
          if (++failures > (o.maxReconnects ?? 5)) throw err;
        }
        await delay(wait, undefined, { signal: o.signal });
      }
    },

    async getRun(runId: string, o: ReadOptions = {}): Promise<PublicRun> {
      return (await call(() => raw.GET('/v1/runs/{run_id}', { params: { path: { run_id: runId } }, signal: o.signal }))).data.run;
    },

    /** An artifact by its URL as returned (`artifacts[].url`) or by run id and key; free of charge. */
    async downloadArtifact(ref: string | ArtifactRef, o: ReadOptions = {}): Promise<ArtifactDownload> {
      const { runId, key, crawlId } = typeof ref === 'string' ? artifactRefOf(ref, baseUrl) : ref;
      const { data, response } = await call(() =>
        raw.GET('/v1/runs/{run_id}/artifacts/{key}', {
          params: { path: { run_id: runId, key }, query: crawlId ? { crawl_id: crawlId } : {} },
          parseAs: 'arrayBuffer',
          signal: o.signal,
        }),
      );
      return artifactDownload(response.headers.get('content-type') ?? 'application/octet-stream', data);
    },

    /** POST /v1/search-trends/related-queries: a durable job for one complete grain. */
    async createTrendsJob(body: TrendsRequest, o: CreateOptions = {}): Promise<TrendsJob> {
      const key = idem(o);
      return (
        await call(
          () => raw.POST('/v1/search-trends/related-queries', { body, params: { header: { 'idempotency-key': key } }, signal: o.signal }),
          key,
        )
      ).data.job;
    },

    async getTrendsJob(jobId: string, o: ReadOptions = {}): Promise<TrendsJob> {
      return (await call(() => raw.GET('/v1/search-trends/jobs/{job_id}', { params: { path: { job_id: jobId } }, signal: o.signal }))).data.job;
    },

    /** Polls a trends job until it is completed or failed. */
    async waitForTrendsJob(jobId: string, o: WaitOptions = {}): Promise<TrendsJob> {
      for (;;) {
        const job = await client.getTrendsJob(jobId, o);
        if (TRENDS_DONE.has(job.state)) return job;
        await delay(o.intervalMs ?? 1000, undefined, { signal: o.signal });
      }
    },
  };
  return client;
}
