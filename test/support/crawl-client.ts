import { CrawlCreateResponse, CrawlItemsPage, CrawlResponse, type CrawlItem, type CrawlJob } from '@trawl/contract';

/** What the crawl helpers need of a gateway: TestGateway.call. */
export interface Caller {
  call(method: string, path: string, body?: unknown, headers?: Record<string, string>): Promise<Response>;
}

const TERMINAL = new Set(['completed', 'failed', 'budget_exhausted', 'expired']);
export const isTerminal = (job: CrawlJob) => TERMINAL.has(job.status);

/** POST /v1/crawl; fails the test unless it answers 202 with a body of the contract's shape. */
export async function startCrawl(gw: Caller, body: unknown, headers: Record<string, string> = {}): Promise<CrawlJob> {
  const res = await gw.call('POST', '/v1/crawl', body, headers);
  const text = await res.text();
  if (res.status !== 202) throw new Error(`POST /v1/crawl answered ${res.status}: ${text}`);
  return CrawlCreateResponse.parse(JSON.parse(text)).crawl;
}

/**
 * The invariants every crawl status must satisfy, whenever it is read: the counters add up, nothing exceeds
 * the cap, and the credits are the delivered pages.
 */
export function checkProgress(job: CrawlJob): void {
  const p = job.progress;
  const sum = p.pages_queued + p.pages_in_flight + p.pages_completed + p.pages_failed + p.pages_blocked + p.pages_dropped;
  if (sum !== p.pages_discovered) {
    throw new Error(`progress does not add up (${sum} != discovered ${p.pages_discovered}): ${JSON.stringify(p)}`);
  }
  if (p.pages_discovered > p.max_pages || p.pages_completed > p.max_pages) {
    throw new Error(`crawl went over max_pages: ${JSON.stringify(p)}`);
  }
  if (job.usage.credits !== p.pages_completed) throw new Error(`credits ${job.usage.credits} != pages completed ${p.pages_completed}`);
  // An ended crawl has nothing queued or in flight: ending early (budget, expiry, cancel) drops both at once.
  if (isTerminal(job) && (p.pages_queued !== 0 || p.pages_in_flight !== 0 || job.completed_at === null)) {
    throw new Error(`ended crawl still has work or no completed_at: ${JSON.stringify(job)}`);
  }
}

/** GET /v1/crawl/{id}, parsed and checked. */
export async function getCrawl(gw: Caller, id: string): Promise<CrawlJob> {
  const res = await gw.call('GET', `/v1/crawl/${id}`);
  const text = await res.text();
  if (res.status !== 200) throw new Error(`GET /v1/crawl/${id} answered ${res.status}: ${text}`);
  const job = CrawlResponse.parse(JSON.parse(text)).crawl;
  checkProgress(job);
  return job;
}

export interface WaitOptions {
  /** Generous "it does not hang" bound, not a performance claim. Default 45 s. */
  timeoutMs?: number;
  intervalMs?: number;
  /** Stop waiting as soon as this holds (default: the crawl ended). */
  until?: (job: CrawlJob) => boolean;
  /** Every status read, e.g. to record the statuses seen. */
  onPoll?: (job: CrawlJob) => void;
  /** Extra context for a timeout message (worker logs). */
  context?: () => string;
}

/** Polls the crawl (checking progress at every read) until `until` holds; returns that status. */
export async function waitForCrawl(gw: Caller, id: string, opts: WaitOptions = {}): Promise<CrawlJob> {
  const until = opts.until ?? isTerminal;
  const deadline = Date.now() + (opts.timeoutMs ?? 45_000);
  for (;;) {
    const job = await getCrawl(gw, id);
    opts.onPoll?.(job);
    if (until(job)) return job;
    if (Date.now() > deadline) {
      throw new Error(`crawl ${id} still ${job.status} after ${opts.timeoutMs ?? 45_000} ms: ${JSON.stringify(job.progress)}\n${opts.context?.() ?? ''}`);
    }
    await sleep(opts.intervalMs ?? 100);
  }
}

/** One page of items. */
export async function itemsPage(gw: Caller, id: string, cursor: string | null, limit: number) {
  const q = new URLSearchParams({ limit: String(limit) });
  if (cursor !== null) q.set('cursor', cursor);
  const res = await gw.call('GET', `/v1/crawl/${id}/items?${q}`);
  const text = await res.text();
  if (res.status !== 200) throw new Error(`GET items answered ${res.status}: ${text}`);
  return CrawlItemsPage.parse(JSON.parse(text));
}

/** Every item of an ended crawl, following the cursor to its end. */
export async function allItems(gw: Caller, id: string, limit = 100): Promise<CrawlItem[]> {
  const out: CrawlItem[] = [];
  let cursor: string | null = null;
  for (let guard = 0; guard < 10_000; guard++) {
    const page = await itemsPage(gw, id, cursor, limit);
    out.push(...page.items);
    if (page.next_cursor === null) return out;
    cursor = page.next_cursor;
  }
  throw new Error('items cursor never ended');
}

/** Sorted copy, for set comparisons with readable diffs. */
export const sorted = (xs: Iterable<string>) => [...xs].sort();

/** Values that occur more than once. */
export function duplicates(xs: string[]): string[] {
  const seen = new Set<string>();
  const dup = new Set<string>();
  for (const x of xs) (seen.has(x) ? dup : seen).add(x);
  return [...dup];
}

export const sleep = (ms: number) => new Promise((r) => setTimeout(r, ms));

/** The same gateway, called with another API key (another team). */
export function withKey(gw: Caller, secret: string): Caller {
  return { call: (method, path, body, headers = {}) => gw.call(method, path, body, { authorization: `Bearer ${secret}`, ...headers }) };
}
