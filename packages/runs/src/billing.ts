import { randomBytes } from 'node:crypto';
import type { PublicRun, QuotaResource } from '@trawl/contract';
import { quotaMonth, type Store } from '@trawl/store';

/**
 * Credits: what a page costs, how a page run reserves and refunds it, how a crawl prepays in blocks and settles.
 * Every charge goes through the store's ledger, which records a charge once per (run, reason), so a step repeated
 * after a lost reply changes nothing. Monthly quotas: what each run takes, and when it is given back (at the end).
 */
export type BillingMode = 'shadow' | 'enforce';

/** Cost of one delivered page, in credits (Fetch, Browser scrape, and each delivered crawl page). */
export const PAGE_COST = 1;

/** Credits moved from the team to a crawl at a time in enforce mode (fewer ledger writes per page). */
export const BUDGET_BLOCK = 16;

export interface LedgerDeps {
  store: Store;
  now: () => number;
}

const isoNow = (d: LedgerDeps) => new Date(d.now()).toISOString();

/**
 * Reserves one page's credit for a page run. Enforce mode refuses (false, nothing recorded) when the team has no
 * credit; shadow mode only records the reservation.
 */
export async function reservePageCredit(d: LedgerDeps, mode: BillingMode, teamId: string, runId: string): Promise<boolean> {
  const r = await d.store.charge({ team_id: teamId, run_id: runId, units: PAGE_COST, reason: 'reserve', at: isoNow(d) }, mode === 'enforce');
  return r.ok;
}

/** A page run that delivered nothing costs nothing: its reservation is given back. */
export async function refundPageCredit(d: LedgerDeps, teamId: string, runId: string): Promise<void> {
  await d.store.charge({ team_id: teamId, run_id: runId, units: -PAGE_COST, reason: 'refund', at: isoNow(d) }, false);
}

/** Reserves up to `want` credits of the team for a crawl (enforce mode); returns how many it got. */
export async function reserveCrawlCredits(d: LedgerDeps, teamId: string, runId: string, want: number): Promise<number> {
  const balance = await d.store.balance(teamId);
  const units = Math.min(want, balance);
  if (units <= 0) return 0;
  // Each block is its own ledger entry: a reason unique per reservation.
  const reason = `crawl_reserve:${randomBytes(6).toString('base64url')}`;
  const r = await d.store.charge({ team_id: teamId, run_id: runId, units, reason, at: isoNow(d) }, true);
  return r.ok ? units : 0;
}

/** How many credits a crawl asks for next: a block, never more than the pages it may still deliver, at least one. */
export function crawlBudgetWant(maxPages: number, delivered: number): number {
  return Math.max(1, Math.min(BUDGET_BLOCK, maxPages - delivered));
}

/**
 * Settles an ended crawl: shadow mode records the delivered pages as one charge; enforce mode (pages were prepaid
 * in blocks) gives back what was prepaid and not used.
 */
export async function settleCrawlCredits(
  d: LedgerDeps,
  s: { mode: BillingMode; teamId: string; runId: string; delivered: number; unusedBudget: number },
): Promise<void> {
  const at = isoNow(d);
  if (s.mode === 'shadow') {
    if (s.delivered > 0) {
      await d.store.charge({ team_id: s.teamId, run_id: s.runId, units: s.delivered * PAGE_COST, reason: 'crawl_pages', at }, false);
    }
  } else if (s.unusedBudget > 0) {
    await d.store.charge({ team_id: s.teamId, run_id: s.runId, units: -s.unusedBudget, reason: 'crawl_refund', at }, false);
  }
}

/** The monthly quota each run type draws on: its PublicRun's `quota.resource`. */
export const RUN_QUOTA_RESOURCES = {
  fetch: 'scrape',
  browser_scrape: 'browser_scrape',
  crawl: 'crawl_pages',
} as const satisfies Record<PublicRun['type'], QuotaResource>;

/** Units a Fetch or Browser scrape run takes of its quota: the run itself, whatever the page costs. */
export const PAGE_RUN_QUOTA_UNITS = 1;

/** The month (UTC) a run's quota is counted in: the one it was created in, also when it ends in the next. */
const monthOf = (at: string) => quotaMonth(Date.parse(at));

/**
 * Takes `units` of the team's quota for the month of `at` (the run's created_at): false when they would cross the
 * team's monthly limit (nothing counted). Atomic in the store, so concurrent runs never pass the limit together.
 */
export async function takeQuota(store: Store, teamId: string, resource: QuotaResource, units: number, at: string): Promise<boolean> {
  return (await store.takeQuota(teamId, resource, monthOf(at), units)).ok;
}

/**
 * Gives back `units` of what a run took, to the month it was created in, once per run: a step repeated after a
 * lost reply (or a retried finalize) changes nothing.
 */
export async function giveBackQuota(store: Store, teamId: string, resource: QuotaResource, units: number, run: { id: string; created_at: string }) {
  if (units > 0) await store.returnQuota(teamId, resource, monthOf(run.created_at), units, run.id);
}

/**
 * Settles an ended crawl's quota: it reserved its max_pages at creation and the frontier admitted at most that many
 * (the page cap), so what it did not admit goes back. Admitted pages count even when they failed or were dropped.
 */
export async function settleCrawlQuota(
  store: Store,
  s: { teamId: string; run: { id: string; created_at: string }; maxPages: number; admitted: number },
): Promise<void> {
  await giveBackQuota(store, s.teamId, RUN_QUOTA_RESOURCES.crawl, s.maxPages - s.admitted, s.run);
}
