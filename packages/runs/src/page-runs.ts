import type { PageFailureReason, PublicPageResult, PublicRun } from '@trawl/contract';
import type { ScrapedPage } from '@trawl/scrape';
import { newId, type RunRecord, type Store } from '@trawl/store';
import { storePageArtifacts } from './artifacts.ts';
import { PAGE_COST, refundPageCredit, reservePageCredit, type BillingMode } from './billing.ts';

export interface RunServices {
  store: Store;
  billingMode: BillingMode;
  artifactRetentionS: number;
  now?: () => number;
}

const ledger = (svc: RunServices) => ({ store: svc.store, now: svc.now ?? Date.now });
const iso = (svc: RunServices) => new Date((svc.now ?? Date.now)()).toISOString();

/**
 * Opens a page run and reserves its credit. In enforce mode a team without credit gets null (nothing is
 * created); in shadow mode the reservation is only recorded.
 */
export async function startPageRun(
  svc: RunServices,
  teamId: string,
  type: 'fetch' | 'browser_scrape' | 'crawl',
  crawlId?: string,
): Promise<RunRecord | null> {
  const id = newId('run');
  const at = iso(svc);
  if (!(await reservePageCredit(ledger(svc), svc.billingMode, teamId, id))) return null;
  const record: RunRecord = {
    team_id: teamId,
    ...(crawlId ? { crawl_id: crawlId } : {}),
    run: {
      id,
      type,
      status: 'running',
      created_at: at,
      cost_units: 0,
      quota: { resource: 'scrape', quantity_reserved: PAGE_COST },
    },
  };
  await svc.store.createRun(record);
  return record;
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

/** Ends a run that delivered nothing: it costs nothing, so the reservation is refunded. */
export async function failPageRun(
  svc: RunServices,
  record: RunRecord,
  failure: { blockReason: PageFailureReason; retryable: boolean },
): Promise<PublicRun> {
  const at = iso(svc);
  await refundPageCredit(ledger(svc), record.team_id, record.run.id);
  const run: PublicRun = { ...record.run, status: 'failed', completed_at: at, cost_units: 0 };
  await svc.store.saveRun({ ...record, run, failure: { block_reason: failure.blockReason, retryable: failure.retryable } });
  return run;
}
