import type { Log } from '@trawl/contract';
import {
  CRAWL_FAILURES,
  crawlFailure,
  TERMINAL_STATUSES,
  whileStoreUnavailable,
  type CrawlFailureCode,
  type CrawlSnapshot,
  type CrawlStore,
  type CrawlStatus,
  type ShardDirectory,
} from '@trawl/frontier';
import { closeCrawlRun, settleCrawlCredits, settleCrawlQuota } from '@trawl/runs';
import type { Store } from '@trawl/store';
import { logCrawlEvent, type CrawlEvent } from '../crawl-log.ts';

export interface FinalizeDeps {
  store: Store;
  crawls: CrawlStore;
  directory: ShardDirectory;
  /** How long the ended crawl stays readable before the store forgets it. */
  retentionMs: number;
  /** How long the settlement waits for an unreachable store once it has begun (default 30 s). */
  storeOutageMs?: number;
  /** The crawl's end is logged here, by the one finisher that marked it. */
  log: Log;
}

const LIVE: readonly CrawlStatus[] = ['queued', 'running', 'paused'];

/**
 * Ends a live crawl early for `code` (its status and message from CRAWL_FAILURES): queued pages and leases still
 * out are dropped at once. False when the crawl had already ended (or does not exist). It still needs settling.
 */
export function endCrawl(crawls: CrawlStore, crawlId: string, code: CrawlFailureCode, now: number): Promise<boolean> {
  return crawls.transition(crawlId, LIVE, CRAWL_FAILURES[code].status, now, crawlFailure(code));
}

/**
 * Settles a crawl that reached a terminal status, once (whichever worker gets there first): bills delivered pages
 * (shadow: records them; enforce: refunds unused prepaid credit), gives back the crawl quota it reserved and did not
 * admit, closes the crawl's run, takes the crawl off its hostname shards, and sets when the store forgets it.
 */
export async function finalizeCrawl(deps: FinalizeDeps, snap: CrawlSnapshot): Promise<boolean> {
  if (!TERMINAL_STATUSES.includes(snap.status)) return false;
  const { plan } = snap;
  if (!(await deps.crawls.markFinalized(plan.crawl_id))) return false;
  // Terminal (checked above): the status names its own event.
  logCrawlEvent(deps.log, snap.status as CrawlEvent, snap);
  // Marked: no other worker will settle it, so the rest rides out a short outage. Every step is idempotent
  // (a charge is recorded once per run and reason, a quota give-back once per run), so a step repeated after a lost
  // reply changes nothing.
  await whileStoreUnavailable(() => settle(deps, snap), { maxMs: deps.storeOutageMs ?? 30_000, delayMs: 100, maxDelayMs: 1_000 });
  return true;
}

async function settle(deps: FinalizeDeps, snap: CrawlSnapshot): Promise<void> {
  const { plan } = snap;
  const ledger = { store: deps.store, now: Date.now };
  const delivered = snap.counters.completed;
  const account = { mode: plan.billing_mode, teamId: plan.team_id, runId: plan.run_id, delivered, unusedBudget: snap.budget };
  await settleCrawlCredits(ledger, account);
  const run = { id: plan.run_id, created_at: plan.created_at };
  await settleCrawlQuota(deps.store, { teamId: plan.team_id, run, maxPages: plan.max_pages, admitted: snap.counters.discovered });
  const completedAt = snap.completed_at ?? new Date().toISOString();
  await closeCrawlRun(deps.store, plan.run_id, { status: snap.status, completed_at: completedAt, pages_completed: delivered });
  for (const host of await deps.crawls.hostsOf(plan.crawl_id)) await deps.directory.unregisterCrawl(host, plan.crawl_id);
  await deps.crawls.expireCrawl(plan.crawl_id, deps.retentionMs);
  // Leases still out (a worker may have died holding some) keep the crawl on the sweeper's list until they lapse.
  if (snap.counters.in_flight === 0) await deps.directory.removeActiveCrawl(plan.crawl_id);
}
