/** Tunables of a crawl worker; defaults suit one process on a small machine. */
export interface WorkerSettings {
  /** Pages in flight in this worker, across all hosts. */
  concurrency: number;
  /** Pages in flight per hostname across the whole cluster (one owner per hostname shard enforces it). */
  hostConcurrency: number;
  /** Lease of one page; renewed every heartbeat while the page is held, so it only matters when a worker dies. */
  leaseMs: number;
  heartbeatMs: number;
  /** Lease of a hostname shard; a dead worker's shards move after this. */
  shardTtlMs: number;
  /** Deadline of one page fetch. */
  fetchTimeoutMs: number;
  /** Attempts per page for retryable failures (network, timeout, 429, 5xx). */
  maxAttempts: number;
  /** A crawl still running after this long is ended as `expired`. */
  crawlTimeoutMs: number;
  /** Honour robots.txt (default true). */
  robots: boolean;
  robotsTtlMs: number;
  /** Backoff of a host after a 429/503 without Retry-After. */
  defaultBackoffMs: number;
  /** How long an ended crawl (status, items) is kept after it ends; then it is forgotten (404). */
  crawlRetentionMs: number;
  /**
   * How long a page's result (and other writes that must not be lost) waits for an unreachable store before it
   * is given up; the page's lease then lapses and the page is crawled again.
   */
  storeOutageMs: number;
  /** Adaptive extraction: how long a selector memory lives unused. */
  selectorMemoryTtlS: number;
  /** On stop: how long pages in flight may run to their end before the worker gives its shards back anyway. */
  shutdownGraceMs: number;
}

export const DEFAULT_WORKER_SETTINGS: WorkerSettings = {
  concurrency: 32,
  hostConcurrency: 4,
  leaseMs: 15_000,
  heartbeatMs: 1_000,
  shardTtlMs: 5_000,
  fetchTimeoutMs: 30_000,
  maxAttempts: 3,
  crawlTimeoutMs: 3_600_000,
  robots: true,
  robotsTtlMs: 3_600_000,
  defaultBackoffMs: 2_000,
  crawlRetentionMs: 8 * 86_400_000,
  storeOutageMs: 30_000,
  selectorMemoryTtlS: 30 * 86_400,
  shutdownGraceMs: 30_000,
};
