import type { Artifact, PublicPageResult, PublicRun } from '@trawl/contract';
import type { PageArtifact, ScrapedPage } from '@trawl/scrape';
import { newId, type RunRecord, type Store } from '@trawl/store';

export interface RunServices {
  store: Store;
  billingMode: 'shadow' | 'enforce';
  artifactRetentionS: number;
  now?: () => number;
}


/** Cost of one delivered page, in credits. */
export const PAGE_COST = 1;

export function artifactUrl(runId: string, key: string, crawlId?: string): string {
  const base = `/v1/runs/${encodeURIComponent(runId)}/artifacts/${encodeURIComponent(key)}`;
  return crawlId ? `${base}?crawl_id=${encodeURIComponent(crawlId)}` : base;
}

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
  const reserve = await svc.store.charge(
    { team_id: teamId, run_id: id, units: PAGE_COST, reason: 'reserve', at },
    svc.billingMode === 'enforce',
  );
  if (!reserve.ok) return null;
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

/** Stores the page's artifacts (Markdown, HTML, and any the engine made), charges the credit, completes the run. */
export async function deliverPage(
  svc: RunServices,
  record: RunRecord,
  page: ScrapedPage,
): Promise<{ run: PublicRun; result: PublicPageResult }> {
  const at = iso(svc);
  const expiresAt = new Date(Date.parse(at) + svc.artifactRetentionS * 1000).toISOString();
  const files: PageArtifact[] = [
    { key: 'markdown', contentType: 'text/markdown; charset=utf-8', body: Buffer.from(page.content.markdown, 'utf8') },
    ...(page.content.html === null
      ? []
      : [{ key: 'html', contentType: 'text/html; charset=utf-8', body: Buffer.from(page.content.html, 'utf8') }]),
    ...page.artifacts,
  ];
  const artifacts: Artifact[] = [];
  for (const f of files) {
    await svc.store.putArtifact(
      {
        run_id: record.run.id,
        key: f.key,
        team_id: record.team_id,
        content_type: f.contentType,
        crawl_id: record.crawl_id ?? null,
        created_at: at,
        expires_at: expiresAt,
      },
      f.body,
    );
    artifacts.push({
      key: f.key,
      url: artifactUrl(record.run.id, f.key, record.crawl_id),
      content_type: f.contentType,
      expires_at: expiresAt,
    });
  }
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
  failure: { blockReason: string; retryable: boolean },
): Promise<PublicRun> {
  const at = iso(svc);
  await svc.store.charge({ team_id: record.team_id, run_id: record.run.id, units: -PAGE_COST, reason: 'refund', at }, false);
  const run: PublicRun = { ...record.run, status: 'failed', completed_at: at, cost_units: 0 };
  await svc.store.saveRun({ ...record, run, failure: { block_reason: failure.blockReason, retryable: failure.retryable } });
  return run;
}
