import type {
  BrowserControls,
  CrawlScope,
  ExpiringEntry,
  Extraction,
  IndexEntry,
  PageFailureKind,
  PageFailureReason,
  WebhookEvent,
} from '@trawl/contract';

/** Everything a crawl is, fixed at creation (validated and normalized before quota is reserved). */
export interface CrawlPlan {
  crawl_id: string;
  team_id: string;
  run_id: string;
  created_at: string;
  /** Normalized seed URLs; each seed anchors its own scope. */
  seeds: string[];
  scope: CrawlScope;
  max_depth: number;
  max_pages: number;
  billing_mode: 'shadow' | 'enforce';
  browser?: BrowserControls;
  extraction?: Extraction;
  /** Path patterns links must match / must not match (contract's path-pattern.ts); absent = none. */
  include_paths?: string[];
  exclude_paths?: string[];
  /** Pages from the seeds' sitemaps too (`include`), or only those and the seeds (`only`); absent = skip. */
  sitemap?: 'include' | 'only';
  /** Where the crawl's events go (its secret lives only in the webhook outbox). */
  webhook?: { url: string; events: WebhookEvent[]; payload: 'full' | 'thin' };
}

/** One URL waiting in, or leased from, the frontier. */
export interface FrontierRequest {
  url: string;
  host: string;
  depth: number;
  /** Index of the seed whose scope admitted this URL. */
  seed: number;
  parent: string | null;
  attempt: number;
}

/** A leased request; `token` identifies this lease (a re-lease after expiry gets a new one). */
export interface Lease {
  token: string;
  request: FrontierRequest;
}

export const CRAWL_STATUSES = ['queued', 'running', 'paused', 'completed', 'failed', 'budget_exhausted', 'expired'] as const;
export type CrawlStatus = (typeof CRAWL_STATUSES)[number];
export const TERMINAL_STATUSES: readonly CrawlStatus[] = ['completed', 'failed', 'budget_exhausted', 'expired'];

/**
 * Why a crawl ended early or empty (`failure.code`), the status it ends with, and the message shown.
 * `no_pages_delivered` is also written by crawl-complete-4.lua.
 */
export const CRAWL_FAILURES = {
  no_pages_delivered: { status: 'failed', message: 'no page of the crawl could be delivered' },
  crawl_timeout: { status: 'expired', message: 'the crawl ran longer than the allowed time' },
  budget_exhausted: { status: 'budget_exhausted', message: 'the team ran out of credit' },
  cancelled: { status: 'failed', message: 'the crawl was cancelled (by its team or an operator)' },
} as const satisfies Record<string, { status: CrawlStatus; message: string }>;
export type CrawlFailureCode = keyof typeof CRAWL_FAILURES;

/** The failure object a crawl ending for `code` carries. */
export function crawlFailure(code: CrawlFailureCode): { code: string; message: string } {
  return { code, message: CRAWL_FAILURES[code].message };
}

export interface CrawlCounters {
  /** URLs admitted (seeds included); never more than max_pages. */
  discovered: number;
  queued: number;
  in_flight: number;
  /** Pages delivered as items. */
  completed: number;
  failed: number;
  blocked: number;
  /** Admitted pages dropped because the crawl ended before they ran (expired, budget exhausted). */
  dropped: number;
  block_reasons: Record<string, number>;
  failure_reasons: Record<string, number>;
  retry_categories: Record<string, number>;
}

export interface CrawlSnapshot {
  plan: CrawlPlan;
  status: CrawlStatus;
  started_at: string | null;
  completed_at: string | null;
  failure: { code: string; message: string } | null;
  counters: CrawlCounters;
  /** Set once the finisher has settled billing and shard registrations. */
  finalized: boolean;
  /** Enforce mode: prepaid credits not yet used. */
  budget: number;
}

/** What became of a leased page. */
export type PageResult =
  | { kind: 'delivered'; item: string /* the stored item JSON */ }
  // Which of the two a block reason is comes from contract's BLOCK_REASONS (`outcome`); a page whose task threw
  // fails with INTERNAL_FAILURE.
  | { kind: PageFailureKind; reason: PageFailureReason };

/** What one lease call took. */
export interface LeaseBatch {
  leases: Lease[];
  /** True for the one call that turned the crawl from `queued` to `running` (its first lease): log "started" once. */
  started: boolean;
}

/**
 * How long a lease is kept, from the completion that answered `needBudget`, while its worker tops up the crawl's
 * prepaid credit: every backend renews the lease to `now + BUDGET_WAIT_MS` (crawl-complete-4.lua takes it as ARGV).
 */
export const BUDGET_WAIT_MS = 60_000;

export interface CompleteResult {
  /** false: the lease was lost (expired and re-leased) or the crawl has ended; nothing was recorded. */
  accepted: boolean;
  /** Enforce mode: the crawl has no prepaid credit left; nothing was recorded, the lease is still held. */
  needBudget: boolean;
  /** Sequence number of the delivered item. */
  seq: number | null;
  /** Hosts that got their first queued URL in this crawl (to register as shards). */
  newHosts: string[];
  /** True when this completion left nothing queued or in flight: the crawl just reached a terminal status. */
  finished: boolean;
}

/** Pages of one crawl on one host: queued, leased (buffered or running in a worker), and the oldest lease's start. */
export interface HostLoad {
  host: string;
  queued: number;
  leased: number;
  /** Epoch ms the oldest lease still out was taken; null when none is. */
  oldest_leased_at: number | null;
}

/** Per-crawl state: plan, admission, leases, results. One instance serves every crawl. */
export interface CrawlStore {
  /** Stores the plan and admits the seeds (seeds count against max_pages). Status `queued`. */
  createCrawl(plan: CrawlPlan, seeds: FrontierRequest[]): Promise<void>;
  getCrawl(crawlId: string): Promise<CrawlSnapshot | null>;
  /** Just the status (one cheap read), or null when there is no such crawl. */
  statusOf(crawlId: string): Promise<CrawlStatus | null>;
  /** Hosts that have (had) queued URLs in the crawl. */
  hostsOf(crawlId: string): Promise<string[]>;
  /**
   * Leases up to `max` queued requests of `host`. Nothing is leased unless the crawl is queued or running; the first lease turns `queued` into `running`
   * (and only that call reports `started`).
   */
  lease(crawlId: string, host: string, max: number, leaseMs: number, now: number): Promise<LeaseBatch>;
  /**
   * Records a leased page's result and admits its links (already normalized, in scope and within depth):
   * each enters only if unseen and while the crawl has room under max_pages. Atomic.
   */
  complete(crawlId: string, lease: Lease, result: PageResult, links: FrontierRequest[], now: number): Promise<CompleteResult>;
  /** Returns expired leases (dead or stalled workers) to their queues; returns how many. */
  reclaim(crawlId: string, now: number, max: number): Promise<number>;
  /** Puts a leased request back in its queue (attempt + 1 when `category` is set, counted as a retry). */
  requeue(crawlId: string, lease: Lease, category: string | null): Promise<boolean>;
  /** Extends leases still held; returns the tokens that were lost. */
  renew(crawlId: string, tokens: string[], leaseMs: number, now: number): Promise<string[]>;
  /**
   * Moves the crawl from one of `from` to `to` (compare and set). A terminal status drops the work still queued
   * and the leases still out (counted as dropped): a page running when the crawl ended is never delivered.
   */
  transition(
    crawlId: string,
    from: readonly CrawlStatus[],
    to: CrawlStatus,
    now: number,
    failure?: { code: string; message: string },
  ): Promise<boolean>;
  markFinalized(crawlId: string): Promise<boolean>;
  /** Forgets an ended crawl (status, items, everything) `afterMs` from now, so stores do not grow for ever. */
  expireCrawl(crawlId: string, afterMs: number): Promise<void>;
  /** Prepaid credits for enforce mode. */
  addBudget(crawlId: string, credits: number): Promise<number>;
  items(crawlId: string, fromSeq: number, limit: number): Promise<string[]>;
  item(crawlId: string, seq: number): Promise<string | null>;
  /** Every crawl the store still holds, newest first (by created_at, then id), strictly after index key `after`. */
  listCrawls(q: { team_id?: string; after?: string; limit: number }): Promise<IndexEntry[]>;
  /** Ended crawls by when the store forgets them, soonest first. */
  expiringCrawls(limit: number): Promise<ExpiringEntry[]>;
  /** The crawl's pages per host (every host it has queued URLs on). */
  hostLoads(crawlId: string): Promise<HostLoad[]>;
}

/** What a worker publishes about itself with each heartbeat. */
export interface WorkerReport {
  /** The machine's hostname (os.hostname()). */
  host: string;
  pid: number;
  started_at: string;
  /** Hostname shards this worker owns. */
  shards: number;
  /** Their hostnames, at most MAX_REPORTED_SHARD_HOSTS of them. */
  shard_hosts: string[];
  pages_in_flight: number;
  /** Pages whose task ended, per second, over the worker's last minute. */
  pages_per_second: number;
}
export const MAX_REPORTED_SHARD_HOSTS = 100;

/** A worker as the directory knows it: `live` while it heartbeats, `lost` once it missed its heartbeats. */
export interface WorkerRecord extends WorkerReport {
  id: string;
  state: 'live' | 'lost';
  last_heartbeat: string;
}

/** Worker membership, hostname shard ownership and per-host politeness, shared by every worker. */
export interface ShardDirectory {
  /** Keeps the worker live and publishes its report; a worker that stops heartbeating is listed `lost`, then forgotten. */
  heartbeat(workerId: string, now: number, report: WorkerReport): Promise<void>;
  leave(workerId: string): Promise<void>;
  liveWorkers(now: number): Promise<number>;
  /** Live workers and those lost recently (a worker that left cleanly is gone at once). */
  workers(now: number): Promise<WorkerRecord[]>;
  /** The owner of each host's shard lease, null when nobody holds it. */
  shardOwners(hosts: string[]): Promise<(string | null)[]>;
  /** Hosts with at least one crawl registered. */
  shards(): Promise<string[]>;
  registerHost(host: string, crawlId: string): Promise<void>;
  unregisterCrawl(host: string, crawlId: string): Promise<void>;
  crawlsOf(host: string): Promise<string[]>;
  claimShard(host: string, workerId: string, ttlMs: number): Promise<boolean>;
  /** Renews the given shards if still ours; returns those that were lost. */
  renewShards(hosts: string[], workerId: string, ttlMs: number): Promise<string[]>;
  releaseShard(host: string, workerId: string): Promise<void>;
  /** Politeness: no worker sends to `host` before `untilMs`. */
  slowHost(host: string, untilMs: number, now: number): Promise<void>;
  slowUntil(host: string): Promise<number>;
  /** robots.txt bodies cached across workers (null: none / unreachable). */
  getRobots(host: string): Promise<string | null | undefined>;
  setRobots(host: string, body: string | null, ttlMs: number): Promise<void>;
  /** Crawls not yet finalized, for the sweeper. */
  activeCrawls(): Promise<string[]>;
  addActiveCrawl(crawlId: string): Promise<void>;
  removeActiveCrawl(crawlId: string): Promise<void>;
  /** Tells every worker, in any process, that work may be waiting (a crawl created or resumed, hosts added). */
  announceWork(): Promise<void>;
  /** Calls onWork on every announcement; resolves, once listening, with a function that stops it. */
  watchWork(onWork: () => void): Promise<() => Promise<void>>;
}
