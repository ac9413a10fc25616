import type { WebhookEvent } from '@trawl/contract';
import { TERMINAL_STATUSES, type CrawlStore } from '@trawl/frontier';
import { eventId, type OutboxEntry, type WebhookOutbox } from '@trawl/webhooks';

export interface PumpDeps {
  outbox: WebhookOutbox;
  crawls: CrawlStore;
  /** How long an ended stream (its counters) is kept: the crawl's retention. */
  keepMs: number;
  now: () => number;
}

/** crawl.page events queued per step: a step is one transaction, whatever the crawl's size. */
const STEP = 200;

/** What one pump found: `open` false when the crawl has no stream or its stream has ended (nothing more to queue). */
export interface PumpResult {
  open: boolean;
  /** Events queued by this pump (a claim is worth trying only then). */
  queued: number;
}

/**
 * Queues the crawl's events that are due, from its state in the crawl store: `crawl.started` once it has started,
 * one `crawl.page` per delivered item (in order, from the stream's cursor), and the terminal event once it has ended,
 * every item's event is queued and every page event settled (so crawl.completed / crawl.failed means "you have had
 * everything"). Each step is a compare and set on the stream: pumps of several workers never queue an event twice,
 * and a pump that died leaves the stream where its last step put it. Items and the crawl's end are durable in the
 * crawl store, so nothing is lost between a page's delivery and its event being queued.
 */
export async function pumpStream(deps: PumpDeps, crawlId: string): Promise<PumpResult> {
  let queued = 0;
  for (let step = 0; step < 1_000; step++) {
    // The stream first, and the crawl only when there is one: a crawl without a webhook costs one read, not two.
    const st = await deps.outbox.state(crawlId);
    if (!st || st.ended) return { open: false, queued };
    const snap = await deps.crawls.getCrawl(crawlId);
    if (!snap) return { open: true, queued };
    const wants = new Set<WebhookEvent>(snap.plan.webhook?.events ?? []);
    const now = deps.now();
    const entry = (type: WebhookEvent, seq: number | null): OutboxEntry => ({ id: eventId(crawlId, type, seq), type, seq, created_at: new Date(now).toISOString() });
    const entries: OutboxEntry[] = [];
    const started = st.started || snap.started_at !== null;
    if (started && !st.started && wants.has('crawl.started')) entries.push(entry('crawl.started', null));
    const delivered = snap.counters.completed;
    // Never backwards: the snapshot may be older than the stream another pump just moved.
    const cursor = Math.max(st.cursor, Math.min(delivered, st.cursor + STEP));
    if (wants.has('crawl.page')) for (let seq = st.cursor; seq < cursor; seq++) entries.push(entry('crawl.page', seq));
    const terminal = TERMINAL_STATUSES.includes(snap.status);
    const ended = terminal && cursor === delivered && st.pending === 0 && entries.length === 0;
    if (ended) {
      const type = snap.status === 'completed' ? 'crawl.completed' : 'crawl.failed';
      if (wants.has(type)) entries.push(entry(type, null));
    }
    if (!ended && entries.length === 0 && cursor === st.cursor && started === st.started) return { open: true, queued };
    const moved = await deps.outbox.advance(crawlId, { cursor: st.cursor, started: st.started }, { cursor, started, ended }, entries, now, deps.keepMs);
    if (moved) queued += entries.length;
    if (moved && ended) return { open: false, queued };
    // Lost the race: another pump moved the stream; read it again. Caught up: done (a settle pumps again).
    if (moved && cursor === delivered) return { open: true, queued };
  }
  return { open: true, queued };
}
