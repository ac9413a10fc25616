import { z } from 'zod';
import { filteredPage, LIST_QUERY_FIELDS, RecordId, type CrawlJob } from '@trawl/contract';
import { CRAWL_STATUSES, hostOf, type CrawlSnapshot, type CrawlStatus } from '@trawl/frontier';
import { cancelLiveCrawl } from './cancel.ts';
import { changePaused, type CrawlServices } from './crawl-service.ts';
import { crawlJobView } from './views.ts';

/**
 * The operator's crawls across teams (admin procedures `crawls.list`, `crawls.get`, `crawls.pause`,
 * `crawls.resume`, `crawls.cancel`). No team check: the admin router is the gate.
 */
export const ListCrawlsInput = z.strictObject({ ...LIST_QUERY_FIELDS, status: z.enum(CRAWL_STATUSES).optional() }).prefault({});
export type ListCrawlsQuery = z.infer<typeof ListCrawlsInput>;

export const CrawlIdInput = z.strictObject({ crawl_id: RecordId });
export type CrawlIdQuery = z.infer<typeof CrawlIdInput>;

/**
 * A crawl as the operator sees it: the public CrawlJob without the seed URLs (what a team crawls is its own
 * business; counts say enough), plus its team and whether it has been settled.
 */
export interface OperatorCrawl extends Omit<CrawlJob, 'request'> {
  team_id: string;
  plan: {
    seeds: number;
    /** Distinct hostnames among the seeds. */
    seed_hosts: number;
    scope: CrawlJob['request']['scope'];
    max_depth: number;
    max_pages: number;
    browser: boolean;
    extraction: boolean;
    webhook: boolean;
  };
  /** Billing settled, run closed, shards unregistered (ended crawls only). */
  finalized: boolean;
}

export type OperatorCrawlChange =
  | { ok: true; crawl: OperatorCrawl }
  | { ok: false; reason: 'not_found' }
  /** The crawl's status does not allow the change (e.g. cancelling an ended crawl); `status` is the current one. */
  | { ok: false; reason: 'wrong_status'; status: CrawlStatus };

export type CrawlListPage = { ok: true; crawls: OperatorCrawl[]; next_cursor: string | null } | { ok: false; reason: 'bad_cursor' };

export function operatorCrawlView(s: CrawlSnapshot): OperatorCrawl {
  const { request, ...job } = crawlJobView(s);
  return {
    ...job,
    team_id: s.plan.team_id,
    plan: {
      seeds: s.plan.seeds.length,
      seed_hosts: new Set(s.plan.seeds.map(hostOf)).size,
      scope: request.scope,
      max_depth: request.max_depth,
      max_pages: request.max_pages,
      browser: request.browser !== null,
      extraction: request.extraction !== null,
      webhook: request.webhook !== null,
    },
    finalized: s.finalized,
  };
}

/**
 * Crawls of every team (or one), newest first, optionally of one status. A page may come back short with a cursor
 * when a status filter skipped many crawls; `next_cursor` is null once the listing has reached the oldest crawl.
 */
export async function listCrawls(svc: CrawlServices, input: ListCrawlsQuery): Promise<CrawlListPage> {
  const { status } = input;
  const page = await filteredPage({
    cursor: input.cursor,
    limit: input.limit,
    fetch: (from, n) => svc.crawls.listCrawls({ team_id: input.team_id, after: from, limit: n }),
    load: async (batch) => {
      // With a filter, one cheap status read per crawl first; full snapshots only of those that match.
      const statuses = status === undefined ? null : await Promise.all(batch.map((e) => svc.crawls.statusOf(e.id)));
      const snaps = await Promise.all(batch.map((e, i) => (statuses && statuses[i] !== status ? null : svc.crawls.getCrawl(e.id))));
      return snaps.map((s) => (s && (status === undefined || s.status === status) ? operatorCrawlView(s) : null));
    },
  });
  return page ? { ok: true, crawls: page.items, next_cursor: page.next_cursor } : { ok: false, reason: 'bad_cursor' };
}

/** Any team's crawl, or null when the store does not hold it (never created, or forgotten after its retention). */
export async function getCrawl(svc: CrawlServices, input: CrawlIdQuery): Promise<OperatorCrawl | null> {
  const snap = await svc.crawls.getCrawl(input.crawl_id);
  return snap && operatorCrawlView(snap);
}

async function change(svc: CrawlServices, crawlId: string, act: (snap: CrawlSnapshot) => Promise<CrawlSnapshot | false>): Promise<OperatorCrawlChange> {
  const snap = await svc.crawls.getCrawl(crawlId);
  if (!snap) return { ok: false, reason: 'not_found' };
  const after = await act(snap);
  if (after) return { ok: true, crawl: operatorCrawlView(after) };
  const status = await svc.crawls.statusOf(crawlId);
  return status === null ? { ok: false, reason: 'not_found' } : { ok: false, reason: 'wrong_status', status };
}

/** Pauses a queued or running crawl of any team (the rule of POST /v1/crawl/{id}/pause). */
export function pauseCrawl(svc: CrawlServices, input: CrawlIdQuery): Promise<OperatorCrawlChange> {
  return change(svc, input.crawl_id, (snap) => changePaused(svc, snap, true));
}

/** Resumes a paused crawl of any team. */
export function resumeCrawl(svc: CrawlServices, input: CrawlIdQuery): Promise<OperatorCrawlChange> {
  return change(svc, input.crawl_id, (snap) => changePaused(svc, snap, false));
}

/** Cancels a queued, running or paused crawl of any team (the rule of DELETE /v1/crawl/{id}: cancel.ts). */
export function cancelCrawl(svc: CrawlServices, input: CrawlIdQuery): Promise<OperatorCrawlChange> {
  return change(svc, input.crawl_id, (snap) => cancelLiveCrawl(svc, snap));
}
