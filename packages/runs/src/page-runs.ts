import type { PageFailureReason, PublicPageResult, PublicRun, QuotaResource } from '@trawl/contract';
import type { ScrapedPage } from '@trawl/scrape';
import { newId, type RunRecord, type Store } from '@trawl/store';
import { storePageArtifacts } from './artifacts.ts';
import {
  giveBackQuota,
  PAGE_COST,
  PAGE_RUN_QUOTA_UNITS,
  refundPageCredit,
  reservePageCredit,
  RUN_QUOTA_RESOURCES,
  takeQuota,
  type BillingMode,
} from './billing.ts';

export interface RunServices {
  store: Store;
  billingMode: BillingMode;
  artifactRetentionS: number;
  now?: () => number;
}

const ledger = (svc: RunServices) => ({ store: svc.store, now: svc.now ?? Date.now });
const iso = (svc: RunServices) => new Date((svc.now ?? Date.now)()).toISOString();

export type PageRunStart =
  | { ok: true; record: RunRecord }
  | { ok: false; reason: 'quota_exceeded'; resource: QuotaResource }
  | { ok: false; reason: 'payment_required' };

/**
 * Opens a page run: takes one unit of the team's monthly quota of its type, then reserves its credit. Refused
 * (nothing created, nothing kept): the quota is used up, or in enforce mode the team has no credit (the quota unit
 * is given back). In shadow mode the credit reservation is only recorded.
 */
export async function startPageRun(svc: RunServices, teamId: string, type: 'fetch' | 'browser_scrape'): Promise<PageRunStart> {
  const id = newId('run');
  const at = iso(svc);
  const resource = RUN_QUOTA_RESOURCES[type];
  if (!(await takeQuota(svc.store, teamId, resource, PAGE_RUN_QUOTA_UNITS, at))) return { ok: false, reason: 'quota_exceeded', resource };
  if (!(await reservePageCredit(ledger(svc), svc.billingMode, teamId, id))) {
    await giveBackQuota(svc.store, teamId, resource, PAGE_RUN_QUOTA_UNITS, { id, created_at: at });
    return { ok: false, reason: 'payment_required' };
  }
  const record: RunRecord = {
    team_id: teamId,
    run: { id, type, status: 'running', created_at: at, cost_units: 0, quota: { resource, quantity_reserved: PAGE_RUN_QUOTA_UNITS } },
  };
  await svc.store.createRun(record);
  return { ok: true, record };
}

/** Stores the page's artifacts, charges the credit, completes the run. */
export async function deliverPage(
  svc: RunServices,
  record: RunRecord,
  page: ScrapedPage,
): Promise<{ run: PublicRun; result: PublicPageResult }> {
  const at = iso(svc);
  const artifacts = await storePageArtifacts(svc.store, record, page, at, svc.artifactRetentionS);
  const run: PublicRun = { ...record.run, status: page.status, completed_at: at, cost_units: PAGE_COST };
  const result: PublicPageResult = {
    url: page.url,
    final_url: page.finalUrl,
    status: page.status,
    title: page.title,
    content: page.content,
    artifacts,
    audit: page.audit,
    usage: { cost_units: PAGE_COST, budget_exhausted: false },
    diagnostics: page.diagnostics,
  };
  await svc.store.saveRun({ ...record, run });
  return { run, result };
}

/** Ends a run that delivered nothing: it costs nothing and counts for no quota, so both reservations are given back. */
export async function failPageRun(
  svc: RunServices,
  record: RunRecord,
  failure: { blockReason: PageFailureReason; retryable: boolean },
): Promise<PublicRun> {
  const at = iso(svc);
  await refundPageCredit(ledger(svc), record.team_id, record.run.id);
  await giveBackQuota(svc.store, record.team_id, record.run.quota.resource, record.run.quota.quantity_reserved, record.run);
  const run: PublicRun = { ...record.run, status: 'failed', completed_at: at, cost_units: 0 };
  await svc.store.saveRun({ ...record, run, failure: { block_reason: failure.blockReason, retryable: failure.retryable } });
  return run;
}
