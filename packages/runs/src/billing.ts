import { randomBytes } from 'node:crypto';
import type { Store } from '@trawl/store';

/**
 * Credits: what a page costs, how a page run reserves and refunds it, how a crawl prepays in blocks and settles.
 * Every charge goes through the store's ledger, which records a charge once per (run, reason), so a step repeated
 * after a lost reply changes nothing. Quotas belong here too.
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
