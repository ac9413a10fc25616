import { KvCrawlStore } from '@trawl/frontier';
import type { LightFetcher, ScrapeFailure } from '@trawl/scrape';
import { describe, expect, it } from 'vitest';
import { CrawlContexts } from '../src/worker/crawl-context.ts';
import { retryCategory, runPageTask, type PageTaskDeps } from '../src/worker/page-task.ts';
import { seedCrawl, settings } from './support.ts';
import { memoryKv } from '@trawl/test-support/backends.ts';

type LightFetchOutcome = Awaited<ReturnType<LightFetcher['fetch']>>;

const failure = (f: Partial<ScrapeFailure>): ScrapeFailure =>
  ({ blockReason: 'http_error', retryable: true, statusCode: null, detail: null, retryAfterMs: null, ...f }) as ScrapeFailure;

describe('retryCategory', () => {
  it.each<[Partial<ScrapeFailure>, string | null]>([
    [{ blockReason: 'network_error' }, 'network'],
    [{ blockReason: 'timeout' }, 'timeout'],
    [{ blockReason: 'http_error', statusCode: 429 }, 'http_429'],
    [{ blockReason: 'http_error', statusCode: 503 }, 'http_5xx'],
    [{ blockReason: 'http_error', statusCode: 408 }, 'http_4xx'],
    [{ blockReason: 'http_error', statusCode: null }, null],
    [{ blockReason: 'browser_capacity_full' }, 'browser_capacity'],
    [{ blockReason: 'render_failed' }, 'browser_crash'],
    [{ blockReason: 'blocked_target' }, null],
    [{ blockReason: 'network_error', retryable: false }, null],
    [{ blockReason: 'http_error', statusCode: 503, retryable: false }, null],
  ])('%o → %s', (f, category) => {
    expect(retryCategory(failure(f))).toBe(category);
  });
});

/** Runs the crawl's one page through runPageTask until it settles, with the light engine answering `answer`. */
async function settle(answer: () => LightFetchOutcome, maxAttempts = 3) {
  const crawls = new KvCrawlStore(memoryKv());
  await seedCrawl(crawls, 'crawl_r', ['https://r.test/']);
  const backoffs: number[] = [];
  const deps = {
    crawls,
    contexts: new CrawlContexts(crawls),
    light: { fetch: async () => answer() },
    browser: {},
    content: {},
    robots: null,
    settings: settings({ maxAttempts }),
    onFinished: () => undefined,
    onNewHosts: async () => undefined,
    onLinksAdmitted: () => undefined,
    onHostBackoff: async (_host: string, until: number) => void backoffs.push(until - Date.now()),
    topUpBudget: async () => false,
  } as unknown as PageTaskDeps;
  let attempts = 0;
  for (;;) {
    const [lease] = (await crawls.lease('crawl_r', 'r.test', 1, 60_000, Date.now())).leases;
    if (!lease) break;
    attempts += 1;
    await runPageTask(deps, 'crawl_r', lease);
  }
  const c = (await crawls.getCrawl('crawl_r'))!.counters;
  return { attempts, c, backoffs };
}

const common = { attempts: [], fallbackReasons: [], fallbackEvents: [], redirects: 0 };
const http = (statusCode: number, headers: Record<string, string> = {}): LightFetchOutcome => ({
  ...common,
  ok: true,
  url: 'https://r.test/',
  finalUrl: 'https://r.test/',
  statusCode,
  contentType: 'text/html',
  headers,
  body: Buffer.from(''),
});
const lightFailure = (failure: 'network_error' | 'blocked_target', retryable: boolean): LightFetchOutcome => ({
  ...common,
  ok: false,
  failure,
  retryable,
});

describe('retries of a crawl page', () => {
  it('tries a retryable failure maxAttempts times, then counts the page failed', async () => {
    const { attempts, c } = await settle(() => lightFailure('network_error', true));
    expect(attempts).toBe(3);
    expect(c.retry_categories).toEqual({ network: 2 });
    expect([c.failed, c.failure_reasons]).toEqual([1, { network_error: 1 }]);
  });

  it('follows maxAttempts', async () => {
    const { attempts, c } = await settle(() => http(500), 1);
    expect([attempts, c.retry_categories, c.failure_reasons]).toEqual([1, {}, { http_error: 1 }]);
  });

  it('does not retry a 404 (failed) or a refused target (blocked)', async () => {
    const notFound = await settle(() => http(404));
    expect([notFound.attempts, notFound.c.failed, notFound.c.failure_reasons]).toEqual([1, 1, { http_error: 1 }]);
    const refused = await settle(() => lightFailure('blocked_target', false));
    expect([refused.attempts, refused.c.blocked, refused.c.block_reasons]).toEqual([1, 1, { blocked_target: 1 }]);
  });

  it('slows the host on 429 and 503, honouring Retry-After', async () => {
    const { c, backoffs } = await settle(() => http(429, { 'retry-after': '7' }));
    expect(c.retry_categories).toEqual({ http_429: 2 });
    expect(backoffs).toHaveLength(3);
    for (const b of backoffs) expect(b).toBeGreaterThan(6_000);
    const unhurried = await settle(() => http(503));
    // Without Retry-After: defaultBackoffMs doubled per attempt.
    expect(unhurried.backoffs.map((b) => Math.round(b / 1000))).toEqual([2, 4, 8]);
  });
});
