import type { CrawlItemsPage, CrawlJob, CrawlRequest, Log, PublicRun, WebhookDeliveriesPage } from '@trawl/contract';
import type { CrawlSnapshot, CrawlStore, ShardDirectory } from '@trawl/frontier';
import {
  BUDGET_BLOCK,
  giveBackQuota,
  openCrawlRun,
  reserveCrawlCredits,
  RUN_QUOTA_RESOURCES,
  takeQuota,
  type BillingMode,
  type CrawlRunSource,
} from '@trawl/runs';
import { newId, type Store } from '@trawl/store';
import type { WebhookOutbox } from '@trawl/webhooks';
import { logCrawlEvent } from '../crawl-log.ts';
import { decodeCursor, deliveriesCursor, encodeCursor, parsePageRunId } from './ids.ts';
import { cancelLiveCrawl } from './cancel.ts';
import { buildPlan } from './plan.ts';
import { decodeItem } from './item-codec.ts';
import { crawlJobView, itemView, webhookDeliveryView } from './views.ts';

export interface CrawlServices {
  store: Store;
  crawls: CrawlStore;
  directory: ShardDirectory;
  billingMode: BillingMode;
  artifactRetentionS: number;
  /** How long an ended crawl stays readable (the workers' crawlRetentionMs): a crawl ended here is settled here. */
  crawlRetentionMs: number;
  now: () => number;
  /** Crawl lifecycle lines (created, paused, resumed). */
  log: Log;
  /** Crawl webhooks: streams opened at creation, their counters read into diagnostics.webhooks. */
  webhooks: WebhookOutbox;
}

/** The public view of a crawl, with its webhook counters when it has a webhook. */
export async function jobView(svc: CrawlServices, snap: CrawlSnapshot): Promise<CrawlJob> {
  return crawlJobView(snap, snap.plan.webhook ? await svc.webhooks.stats(snap.plan.crawl_id) : null);
}

export type CreateCrawlResult =
  | { ok: true; crawl: CrawlJob; run: PublicRun }
  | { ok: false; reason: 'payment_required' }
  | { ok: false; reason: 'quota_exceeded'; resource: typeof RUN_QUOTA_RESOURCES.crawl };

/**
 * Plans the crawl (throws PlanError), then reserves its max_pages of the team's monthly crawl quota before anything
 * exists (refused: nothing created), then credit, then makes it visible to workers. The frontier admits at most
 * max_pages, so a running crawl never admits past the quota; finalize gives back what it did not admit.
 */
export async function createCrawl(svc: CrawlServices, teamId: string, req: CrawlRequest): Promise<CreateCrawlResult> {
  const now = svc.now();
  const ids = { crawl_id: newId('crawl'), run_id: newId('run'), team_id: teamId };
  const { plan, seeds } = buildPlan(req, ids, svc.billingMode, now);
  const resource = RUN_QUOTA_RESOURCES.crawl;
  if (!(await takeQuota(svc.store, teamId, resource, plan.max_pages, plan.created_at))) return { ok: false, reason: 'quota_exceeded', resource };
  const giveBack = () => giveBackQuota(svc.store, teamId, resource, plan.max_pages, { id: ids.run_id, created_at: plan.created_at });
  let crawlMayExist = false;
  try {
    let prepaid = 0;
    if (svc.billingMode === 'enforce') {
      prepaid = await reserveCrawlCredits(svc, teamId, ids.run_id, Math.min(BUDGET_BLOCK, plan.max_pages));
      if (prepaid === 0) {
        await giveBack();
        return { ok: false, reason: 'payment_required' };
      }
    }
    const run = await openCrawlRun(svc.store, ids, plan.created_at, plan.max_pages);
    crawlMayExist = true;
    // Before workers can see the crawl: its first event finds the stream (the secret is kept there, not in the plan).
    if (req.webhook && plan.webhook) await svc.webhooks.open(ids.crawl_id, { ...plan.webhook, secret: req.webhook.secret });
    await svc.crawls.createCrawl(plan, seeds);
    if (prepaid > 0) await svc.crawls.addBudget(ids.crawl_id, prepaid);
    // Read before any worker can see it: the answer and the log line show the crawl as created (queued).
    const snap = (await svc.crawls.getCrawl(ids.crawl_id))!;
    await svc.directory.addActiveCrawl(ids.crawl_id);
    for (const host of new Set(seeds.map((s) => s.host))) await svc.directory.registerHost(host, ids.crawl_id);
    await svc.directory.announceWork();
    logCrawlEvent(svc.log, 'created', snap);
    return { ok: true, crawl: await jobView(svc, snap), run };
  } catch (err) {
    // Before the crawl was stored nothing will settle it: its reservation goes back now. Once it may exist, its
    // finalize gives back what it did not admit (a crawl that never came to be keeps the units: never over quota).
    if (!crawlMayExist) await giveBack().catch(() => undefined);
    throw err;
  }
}

/** The crawl if it exists and belongs to the team; otherwise null (a foreign crawl looks missing). */
export async function getCrawlJob(svc: CrawlServices, teamId: string, crawlId: string): Promise<CrawlJob | null> {
  const snap = await svc.crawls.getCrawl(crawlId);
  return snap && snap.plan.team_id === teamId ? jobView(svc, snap) : null;
}

/** A page of one of a crawl's lists (items, webhook deliveries), or why not: not the team's crawl, or not a cursor of the list. */
export type ListResult<P> = { ok: true; page: P } | { ok: false; reason: 'not_found' | 'bad_cursor' };

/** The team's crawl and the position its list's cursor names (0 without one), then the page `read` makes of them. */
async function listPage<P>(
  svc: CrawlServices,
  q: { teamId: string; crawlId: string; cursor: string | undefined },
  decode: (cursor: string) => number | null,
  read: (snap: CrawlSnapshot, from: number) => Promise<P>,
): Promise<ListResult<P>> {
  const snap = await svc.crawls.getCrawl(q.crawlId);
  if (!snap || snap.plan.team_id !== q.teamId) return { ok: false, reason: 'not_found' };
  const from = q.cursor === undefined ? 0 : decode(q.cursor);
  if (from === null) return { ok: false, reason: 'bad_cursor' };
  return { ok: true, page: await read(snap, from) };
}

/** Items in delivery order from the cursor; the cursor stays valid while the crawl runs and after it ends. */
export function listItems(svc: CrawlServices, teamId: string, crawlId: string, cursor: string | undefined, limit: number): Promise<ListResult<CrawlItemsPage>> {
  return listPage(svc, { teamId, crawlId, cursor }, decodeCursor, async (snap, from) => {
    const raw = await svc.crawls.items(crawlId, from, limit);
    const items = raw.map((s, i) => itemView(crawlId, from + i, decodeItem(s), svc.artifactRetentionS));
    const next = from + items.length;
    const ended = snap.status !== 'queued' && snap.status !== 'running' && snap.status !== 'paused';
    // A running crawl may deliver more: hand back a cursor even when this page came back short.
    const more = items.length === limit || !ended || next < snap.counters.completed;
    return { items, next_cursor: more ? encodeCursor(next) : null };
  });
}

/**
 * GET /v1/crawl/{id}/webhooks: the crawl's webhook events in queueing order, each with how its delivery went (the
 * outbox's delivery log). A crawl without a webhook has none. The cursor is a queueing position: it stays valid
 * while events are queued, and `next_cursor` is null once every event was read and none will be queued.
 */
export function listWebhookDeliveries(
  svc: CrawlServices,
  teamId: string,
  crawlId: string,
  cursor: string | undefined,
  limit: number,
): Promise<ListResult<WebhookDeliveriesPage>> {
  return listPage(svc, { teamId, crawlId, cursor }, deliveriesCursor.decode, async (snap, from) => {
    const log = snap.plan.webhook ? await svc.webhooks.deliveryLog(crawlId, from, limit) : null;
    if (!log) return { deliveries: [], next_cursor: null };
    // Positions are dense ([0, events)): the next page starts after this one's last position.
    const next = Math.max(from, Math.min(from + limit, log.events));
    const more = !log.ended || next < log.events;
    return { deliveries: log.records.map((r) => webhookDeliveryView(crawlId, r)), next_cursor: more ? deliveriesCursor.encode(next) : null };
  });
}

/** What run reads (`@trawl/runs`) need of crawls: a crawl's live state, and the crawl page a page run id names. */
export function crawlRunSource(svc: CrawlServices): CrawlRunSource {
  return {
    async crawlState(teamId, crawlId) {
      const job = await getCrawlJob(svc, teamId, crawlId);
      return job && { status: job.status, completed_at: job.completed_at, pages_completed: job.progress.pages_completed };
    },
    async crawlPage(teamId, pageRunId, crawlId) {
      const ref = parsePageRunId(pageRunId);
      if (!ref) return { kind: 'not_crawl_page' };
      if (crawlId === undefined || ref.crawlId !== crawlId) return { kind: 'missing' };
      const snap = await svc.crawls.getCrawl(crawlId);
      if (!snap || snap.plan.team_id !== teamId) return { kind: 'missing' };
      const raw = await svc.crawls.item(crawlId, ref.seq);
      if (raw === null) return { kind: 'missing' };
      const item = decodeItem(raw);
      return { kind: 'page', createdAt: item.created_at, markdown: item.content.markdown, html: item.content.html };
    },
  };
}

/** Pause or resume a crawl of the team; false when it does not exist or is not in a state that allows it. */
export async function setCrawlPaused(svc: CrawlServices, teamId: string, crawlId: string, paused: boolean): Promise<CrawlJob | null | false> {
  const snap = await svc.crawls.getCrawl(crawlId);
  if (!snap || snap.plan.team_id !== teamId) return null;
  const after = await changePaused(svc, snap, paused);
  return after && jobView(svc, after);
}

/**
 * Pauses or resumes the crawl (any team's: the caller has checked who may); its state afterwards, or false when
 * its status does not allow it.
 */
export async function changePaused(svc: CrawlServices, snap: CrawlSnapshot, paused: boolean): Promise<CrawlSnapshot | false> {
  const crawlId = snap.plan.crawl_id;
  // A crawl paused before its first page resumes as queued, so started_at keeps meaning "first page leased".
  const to = paused ? 'paused' : snap.started_at ? 'running' : 'queued';
  if (!(await svc.crawls.transition(crawlId, paused ? ['queued', 'running'] : ['paused'], to, svc.now()))) return false;
  // Workers learn of a pause (give back buffered leases) or a resume (ask for work) at once, not at a heartbeat.
  await svc.directory.announceWork();
  const after = await svc.crawls.getCrawl(crawlId);
  if (!after) return false;
  logCrawlEvent(svc.log, paused ? 'paused' : 'resumed', after, to);
  return after;
}

export type CancelResult = { ok: true; crawl: CrawlJob } | { ok: false; reason: 'not_found' } | { ok: false; reason: 'ended'; crawl: CrawlJob };

/**
 * DELETE /v1/crawl/{id}: cancels a live crawl of the team (cancel.ts). A crawl already cancelled answers as it is
 * (a repeated DELETE is safe); one that ended otherwise is `ended`.
 */
export async function cancelTeamCrawl(svc: CrawlServices, teamId: string, crawlId: string): Promise<CancelResult> {
  const snap = await svc.crawls.getCrawl(crawlId);
  if (!snap || snap.plan.team_id !== teamId) return { ok: false, reason: 'not_found' };
  const after = (await cancelLiveCrawl(svc, snap)) || (await svc.crawls.getCrawl(crawlId));
  if (!after) return { ok: false, reason: 'not_found' };
  const crawl = await jobView(svc, after);
  return after.failure?.code === 'cancelled' ? { ok: true, crawl } : { ok: false, reason: 'ended', crawl };
}
