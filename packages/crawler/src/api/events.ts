import { createHash } from 'node:crypto';
import { setTimeout as delay } from 'node:timers/promises';
import type { CrawlEndEventData, CrawlJob, CrawlProgressEventData, CrawlStatusEventData } from '@trawl/contract';
import { TERMINAL_STATUSES, type CrawlSnapshot } from '@trawl/frontier';
import type { CrawlServices } from './crawl-service.ts';
import { crawlJobView } from './views.ts';

/** One Server-Sent Event of GET /v1/crawl/{id}/events. */
export type CrawlStreamEvent = { id: string } & (
  | { event: 'status'; data: CrawlStatusEventData }
  | { event: 'progress'; data: CrawlProgressEventData }
  | { event: 'end'; data: CrawlEndEventData }
);

export interface EventStreamOptions {
  /** How often the crawl is read. */
  intervalMs: number;
  signal: AbortSignal;
  now: () => number;
}

export type EventStreamStart =
  | { ok: true; events: AsyncGenerator<CrawlStreamEvent, void, undefined> }
  | { ok: false; reason: 'not_found' | 'bad_event_id' }
  /** The caller's Last-Event-ID is the end event: nothing more will come (SSE: answer 204, the client stops). */
  | { ok: false; reason: 'ended' };

/** The window pages/s is measured over: long enough to smooth politeness pauses, short enough to follow a change. */
const RATE_WINDOW_MS = 10_000;

/** What an event id remembers: the kind, the status and a digest of the progress the caller was shown. */
interface Seen {
  kind: CrawlStreamEvent['event'];
  status: CrawlJob['status'];
  digest: string;
}

const digestOf = (p: CrawlJob['progress']) => createHash('sha256').update(JSON.stringify(p)).digest('base64url').slice(0, 12);
const encodeId = (s: Seen) => Buffer.from(`e1:${s.kind}:${s.status}:${s.digest}`).toString('base64url');
function decodeId(id: string): Seen | null {
  if (id.length > 200) return null;
  const m = /^e1:(status|progress|end):([a-z_]+):([A-Za-z0-9_-]{12})$/.exec(Buffer.from(id, 'base64url').toString('utf8'));
  return m ? { kind: m[1] as Seen['kind'], status: m[2] as Seen['status'], digest: m[3] } : null;
}

/**
 * A crawl's live progress as events: `status` when the status changes (and first), `progress` when a counter
 * moves (with pages/s and, once max_pages bounds the crawl, an ETA), `end` once it has ended. Read from the crawl
 * store every `intervalMs`, so any gateway serves it in either mode. Resuming with the last event id sends only
 * what changed since that event: the current status if it differs, the current progress if it moved.
 */
export async function openCrawlEvents(
  svc: CrawlServices,
  teamId: string,
  crawlId: string,
  lastEventId: string | undefined,
  o: EventStreamOptions,
): Promise<EventStreamStart> {
  const seen = lastEventId === undefined ? null : decodeId(lastEventId);
  if (lastEventId !== undefined && seen === null) return { ok: false, reason: 'bad_event_id' };
  const snap = await svc.crawls.getCrawl(crawlId);
  if (!snap || snap.plan.team_id !== teamId) return { ok: false, reason: 'not_found' };
  if (seen?.kind === 'end') return { ok: false, reason: 'ended' };
  return { ok: true, events: stream(svc, crawlId, snap, seen, o) };
}

async function* stream(svc: CrawlServices, crawlId: string, first: CrawlSnapshot, seen: Seen | null, o: EventStreamOptions): AsyncGenerator<CrawlStreamEvent, void, undefined> {
  let status: CrawlJob['status'] | null = seen?.status ?? null;
  let digest = seen?.digest ?? null;
  const window: { at: number; done: number }[] = [];
  let snap: CrawlSnapshot | null = first;
  while (snap) {
    const job = crawlJobView(snap);
    const at = o.now();
    const p = job.progress;
    const done = p.pages_completed + p.pages_failed + p.pages_blocked + p.pages_dropped;
    window.push({ at, done });
    while (window.length > 2 && at - window[1].at >= RATE_WINDOW_MS) window.shift();
    const base = { crawl_id: crawlId, status: job.status, at: new Date(at).toISOString() };
    const d = digestOf(p);
    if (job.status !== status) {
      const data = { ...base, previous_status: status, failure: job.failure };
      status = job.status;
      yield { id: encodeId({ kind: 'status', status, digest: digest ?? '-'.repeat(12) }), event: 'status' as const, data };
    }
    if (d !== digest) {
      digest = d;
      const rate = pagesPerSecond(window, job, done, at);
      yield { id: encodeId({ kind: 'progress', status: job.status, digest: d }), event: 'progress' as const, data: { ...base, progress: p, pages_per_second: rate, eta_s: etaOf(p, done, rate) } };
    }
    if (TERMINAL_STATUSES.includes(snap.status)) {
      yield { id: encodeId({ kind: 'end', status: job.status, digest: d }), event: 'end' as const, data: { ...base, failure: job.failure, completed_at: job.completed_at, progress: p } };
      return;
    }
    await delay(o.intervalMs, undefined, { signal: o.signal }).catch(() => undefined);
    if (o.signal.aborted) return;
    snap = await svc.crawls.getCrawl(crawlId);
  }
}

/** Over the window when it spans a second or more; before that, the average since the crawl started. */
function pagesPerSecond(window: { at: number; done: number }[], job: CrawlJob, done: number, at: number): number | null {
  const oldest = window[0];
  if (at - oldest.at >= 1_000) return round((done - oldest.done) / ((at - oldest.at) / 1000));
  if (job.started_at === null) return null;
  const since = (at - Date.parse(job.started_at)) / 1000;
  return since >= 1 ? round(done / since) : null;
}

/** Seconds left once max_pages bounds the crawl (the cap is reached: its size is known), at the current rate. */
function etaOf(p: CrawlJob['progress'], done: number, rate: number | null): number | null {
  if (p.pages_discovered < p.max_pages) return null;
  const left = p.pages_discovered - done;
  if (left === 0) return 0;
  return rate && rate > 0 ? Math.round(left / rate) : null;
}

const round = (n: number) => Math.round(n * 100) / 100;
