import type { BrowserPool } from '@trawl/browser';
import type { CrawlStore, ShardDirectory } from '@trawl/frontier';
import type { DataDirSpace } from '@trawl/kv';
import { recordStoreUnavailable, registerGaugeSource, type GaugeSample } from '@trawl/metrics';

/** Active crawls read per scrape for the frontier depth; past this many the gauge counts only these (it stays cheap). */
const MAX_CRAWLS_PER_SCRAPE = 500;

/**
 * The gauges a runtime feeds, read at each scrape: its Chromium pool and data directory (this process), and from the
 * shared state the pages queued in live crawls and the worker actors alive (the whole deployment). Returns the
 * function that stops it.
 */
export function runtimeGauges(parts: {
  browser: BrowserPool;
  crawls: CrawlStore;
  directory: ShardDirectory;
  space: DataDirSpace | null;
  now: () => number;
}): () => void {
  return registerGaugeSource(async (): Promise<GaugeSample> => {
    const b = parts.browser.stats();
    const [queued, alive] = await Promise.all([frontierQueued(parts.crawls, parts.directory), parts.directory.liveWorkers(parts.now())]);
    const disk = parts.space?.usage();
    return {
      ...(disk ? { dataDirUsedBytes: disk.usedBytes, dataDirFileBytes: disk.fileBytes, dataDirLimitBytes: disk.maxBytes ?? 0 } : {}),
      browserPages: b.maxPages,
      browserBusy: b.active,
      browserWaiting: b.waiting,
      browserRejections: b.rejectedForCapacity,
      frontierQueued: queued,
      workersAlive: alive,
    };
  });
}

async function frontierQueued(crawls: CrawlStore, directory: ShardDirectory): Promise<number> {
  const ids = (await directory.activeCrawls()).slice(0, MAX_CRAWLS_PER_SCRAPE);
  const snapshots = await Promise.all(ids.map((id) => crawls.getCrawl(id)));
  return snapshots.reduce((n, s) => n + (s?.counters.queued ?? 0), 0);
}

/** Counts a store-unavailable error for trawl_store_unavailable_errors_total when `err` is one. */
export function countStoreUnavailable(source: 'connection' | 'background', err: unknown, isUnavailable: (err: unknown) => boolean): void {
  if (isUnavailable(err)) recordStoreUnavailable(source);
}

/** The metrics listener could not start (runProcess prints the message as one line). */
export class MetricsPortError extends Error {}
