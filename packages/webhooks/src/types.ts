import type { WebhookEvent, WebhookFailure } from '@trawl/contract';

/** A crawl's webhook as stored with its outbox stream: the one place the secret is kept. */
export interface StreamConfig {
  url: string;
  events: WebhookEvent[];
  secret: string;
  payload: 'full' | 'thin';
}

/** How far the crawl's events have been queued: items [0, cursor) have their crawl.page event queued. */
export interface StreamState {
  cursor: number;
  started: boolean;
  ended: boolean;
  /** Events queued and not yet settled (delivered or given up). */
  pending: number;
}

/** One event waiting in the outbox. Its id is deterministic (crawl, kind, item), so receivers dedupe by it. */
export interface OutboxEntry {
  id: string;
  type: WebhookEvent;
  /** The item's sequence number for crawl.page, else null. */
  seq: number | null;
  created_at: string;
}

/** A delivery taken by one dispatcher until `leaseMs` passes (then anyone may take it again: at least once). */
export interface ClaimedDelivery {
  crawl_id: string;
  entry: OutboxEntry;
  /** 1 for the first attempt. */
  attempt: number;
  /** Names this claim: settling with an older claim's token does nothing. */
  token: string;
  config: StreamConfig;
}

export type DeliveryOutcome = { kind: 'delivered' } | { kind: 'failed'; reason: WebhookFailure } | { kind: 'retry'; reason: WebhookFailure; at: number };

/** What one finished attempt showed, for the crawl's delivery log: never the URL, a header or a body. */
export interface AttemptReport {
  /** The receiver's answer, or null when there was none (timeout, network, a refused target, the item gone). */
  http_status: number | null;
  /** From sending to the answer or the failure. */
  duration_ms: number;
}

/**
 * One event of a crawl as its delivery log keeps it (GET /v1/crawl/{id}/webhooks), from queueing until the stream
 * is forgotten (the crawl's retention), whether it was delivered, given up or is still pending. Fixed-size: no
 * URL, secret, header or body.
 */
export interface DeliveryRecord {
  id: string;
  type: WebhookEvent;
  seq: number | null;
  created_at: string;
  status: 'pending' | 'delivered' | 'failed';
  /** Attempts started (the last one's Trawl-Delivery-Attempt). */
  attempts: number;
  /** Epoch ms the last attempt started; null before the first. */
  last_attempt_at: number | null;
  /** Pending only: epoch ms the next attempt is due; null while an attempt is in flight (and once settled). */
  next_attempt_at: number | null;
  /** The last finished attempt; null before one finished. */
  last_outcome: ({ reason: WebhookFailure | 'none' } & AttemptReport) | null;
}

/** A page of a crawl's delivery log, by queueing position. */
export interface DeliveryLogPage {
  records: DeliveryRecord[];
  /** Events queued so far (positions [0, events)). */
  events: number;
  /** No event will be queued any more. */
  ended: boolean;
}

/** A new record in the log: the event just queued, due at `now`. */
export function queuedRecord(entry: OutboxEntry, now: number): DeliveryRecord {
  return { ...entry, status: 'pending', attempts: 0, last_attempt_at: null, next_attempt_at: now, last_outcome: null };
}

/** The record after an attempt was claimed (started at `now`). */
export function claimedRecord(r: DeliveryRecord, attempt: number, now: number): DeliveryRecord {
  return { ...r, attempts: attempt, last_attempt_at: now, next_attempt_at: null };
}

/** The record after an attempt was settled. */
export function settledRecord(r: DeliveryRecord, outcome: DeliveryOutcome, report: AttemptReport): DeliveryRecord {
  return {
    ...r,
    status: outcome.kind === 'retry' ? 'pending' : outcome.kind,
    next_attempt_at: outcome.kind === 'retry' ? outcome.at : null,
    last_outcome: { reason: outcome.kind === 'delivered' ? 'none' : outcome.reason, http_status: report.http_status, duration_ms: Math.max(0, Math.round(report.duration_ms)) },
  };
}

export interface WebhookStats {
  events: number;
  delivered: number;
  failed: number;
  pending: number;
  retries: number;
  failure_reasons: Record<string, number>;
}

/**
 * The webhook outbox of the mode's store: per crawl a stream (config, cursor, counters), and deliveries due by
 * time. Every method is atomic (a Lua script in Redis, one Kv transaction in embedded mode); one conformance suite
 * pins both backends (packages/webhooks/test/outbox-suite.ts).
 */
export interface WebhookOutbox {
  /** Registers the crawl's webhook before the crawl exists for workers. */
  open(crawlId: string, config: StreamConfig): Promise<void>;
  state(crawlId: string): Promise<StreamState | null>;
  /**
   * Compare and set: when the stream is still at `expect`, queues `entries` (each once, by id) and moves it to
   * `next`. False when another pump got there first (nothing written). An ended stream leaves the open list and is
   * forgotten `keepMs` later.
   */
  advance(
    crawlId: string,
    expect: { cursor: number; started: boolean },
    next: { cursor: number; started: boolean; ended: boolean },
    entries: OutboxEntry[],
    now: number,
    keepMs: number,
  ): Promise<boolean>;
  /** Crawls whose stream has not ended, for the sweep. */
  openStreams(limit: number): Promise<string[]>;
  /** Takes up to `max` deliveries due at `now` (attempt + 1), each for `leaseMs`. */
  claim(now: number, max: number, leaseMs: number): Promise<ClaimedDelivery[]>;
  /**
   * Settles a claim, writing the attempt's report to the crawl's delivery log; the stream's pending count after it,
   * or null when the claim was lost (nothing changed).
   */
  settle(token: string, outcome: DeliveryOutcome, report: AttemptReport): Promise<number | null>;
  stats(crawlId: string): Promise<WebhookStats | null>;
  /**
   * The crawl's delivery log: up to `limit` records from queueing position `from`, in queueing order; null when
   * the crawl has no stream (no webhook, or forgotten). Kept as long as the stream, at most one record per event.
   */
  deliveryLog(crawlId: string, from: number, limit: number): Promise<DeliveryLogPage | null>;
}

/** Event ids: stable for a crawl and event, so a repeated queueing or delivery carries the same id. */
export function eventId(crawlId: string, type: WebhookEvent, seq: number | null): string {
  const kind = type === 'crawl.page' ? `p${seq}` : type === 'crawl.started' ? 's' : 'e';
  return `evt_${crawlId.replace(/^crawl_/, '')}_${kind}`;
}

export const claimToken = (id: string, attempt: number) => `${id}|${attempt}`;
export function parseClaimToken(token: string): { id: string; attempt: number } | null {
  const bar = token.lastIndexOf('|');
  const attempt = Number(token.slice(bar + 1));
  return bar > 0 && Number.isInteger(attempt) && attempt > 0 ? { id: token.slice(0, bar), attempt } : null;
}

export function emptyStats(): WebhookStats {
  return { events: 0, delivered: 0, failed: 0, pending: 0, retries: 0, failure_reasons: {} };
}
