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

/**
 * Queues the crawl's events that are due, from its state in the crawl store: `crawl.started` once it has started,
 * one `crawl.page` per delivered item (in order, from the stream's cursor), and the terminal event once it has ended,
 * every item's event is queued and every page event settled (so crawl.completed / crawl.failed means "you have had
 * everything"). Each step is a compare and set on the stream: pumps of several workers never queue an event twice,
 * and a pump that died leaves the stream where its last step put it. Items and the crawl's end are durable in the
 * crawl store, so nothing is lost between a page's delivery and its event being queued.
 */
export async function pumpStream(deps: PumpDeps, crawlId: string): Promise<void> {
  for (let step = 0; step < 1_000; step++) {
    // Read side by side (one round trip's wait, not two): the compare and set below judges the pair anyway.
    const [st, snap] = await Promise.all([deps.outbox.state(crawlId), deps.crawls.getCrawl(crawlId)]);
    if (!st || st.ended || !snap) return;
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
    if (!ended && entries.length === 0 && cursor === st.cursor && started === st.started) return;
    const moved = await deps.outbox.advance(crawlId, { cursor: st.cursor, started: st.started }, { cursor, started, ended }, entries, now, deps.keepMs);
    // Lost the race: another pump moved the stream; read it again. Caught up: done (a settle pumps again).
    if (moved && cursor === delivered) return;
  }
}
