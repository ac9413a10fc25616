import type { CrawlItem, CrawlJob, WebhookDelivery, WebhookDiagnostics } from '@trawl/contract';
import type { CrawlSnapshot } from '@trawl/frontier';
import { crawlPageArtifacts, PAGE_COST } from '@trawl/runs';
import type { DeliveryRecord } from '@trawl/webhooks';
import { itemId, pageRunId } from './ids.ts';

/** An item as stored: everything derivable from its crawl and position is left out. */
export type StoredItem = Omit<CrawlItem, 'id' | 'crawl_id' | 'page_run_id' | 'artifacts' | 'usage'>;

export function itemView(crawlId: string, seq: number, stored: StoredItem, retentionS: number): CrawlItem {
  const runId = pageRunId(crawlId, seq);
  return {
    id: itemId(crawlId, seq),
    crawl_id: crawlId,
    page_run_id: runId,
    ...stored,
    artifacts: crawlPageArtifacts(runId, crawlId, stored.content.html, stored.created_at, retentionS),
    usage: { cost_units: PAGE_COST, budget_exhausted: false },
  };
}

/** `webhooks`: the outbox's counters of a crawl with a webhook (diagnostics.webhooks). */
export function crawlJobView(s: CrawlSnapshot, webhooks?: WebhookDiagnostics | null): CrawlJob {
  const c = s.counters;
  const reasons: Record<string, number> = { ...c.failure_reasons };
  for (const [k, v] of Object.entries(c.block_reasons)) reasons[k] = (reasons[k] ?? 0) + v;
  return {
    id: s.plan.crawl_id,
    run_id: s.plan.run_id,
    status: s.status,
    created_at: s.plan.created_at,
    started_at: s.started_at,
    completed_at: s.completed_at,
    request: {
      urls: s.plan.seeds,
      scope: s.plan.scope,
      max_depth: s.plan.max_depth,
      max_pages: s.plan.max_pages,
      browser: s.plan.browser ?? null,
      extraction: s.plan.extraction ?? null,
      include_paths: s.plan.include_paths ?? [],
      exclude_paths: s.plan.exclude_paths ?? [],
      sitemap: s.plan.sitemap ?? 'skip',
      webhook: s.plan.webhook ?? null,
    },
    progress: {
      pages_discovered: c.discovered,
      pages_queued: c.queued,
      pages_in_flight: c.in_flight,
      pages_completed: c.completed,
      pages_failed: c.failed,
      pages_blocked: c.blocked,
      pages_dropped: c.dropped,
      max_pages: s.plan.max_pages,
    },
    failure: s.failure,
    usage: { credits: c.completed, billing_mode: s.plan.billing_mode },
    diagnostics: { block_reasons: reasons, retry: { categories: { ...c.retry_categories } }, ...(webhooks ? { webhooks } : {}) },
  };
}

const iso = (ms: number | null) => (ms === null ? null : new Date(ms).toISOString());

/** One event of the crawl's delivery log as GET /v1/crawl/{id}/webhooks shows it. */
export function webhookDeliveryView(crawlId: string, r: DeliveryRecord): WebhookDelivery {
  return {
    id: r.id,
    event: r.type,
    created_at: r.created_at,
    status: r.status,
    attempts: r.attempts,
    last_attempt_at: iso(r.last_attempt_at),
    next_attempt_at: r.status === 'pending' ? iso(r.next_attempt_at) : null,
    last_outcome: r.last_outcome && { reason: r.last_outcome.reason, http_status: r.last_outcome.http_status, duration_ms: r.last_outcome.duration_ms },
    item_id: r.type === 'crawl.page' && r.seq !== null ? itemId(crawlId, r.seq) : null,
  };
}
