import {
  claimedRecord,
  claimToken,
  emptyStats,
  parseClaimToken,
  queuedRecord,
  settledRecord,
  type AttemptReport,
  type ClaimedDelivery,
  type DeliveryLogPage,
  type DeliveryRecord,
  type DeliveryOutcome,
  type OutboxEntry,
  type StreamConfig,
  type StreamState,
  type WebhookOutbox,
  type WebhookStats,
} from './types.ts';

interface Stream {
  config: StreamConfig;
  cursor: number;
  started: boolean;
  ended: boolean;
  stats: WebhookStats;
  forgetAt: number | null;
  /** The delivery log, by queueing position. */
  log: DeliveryRecord[];
}
interface Delivery {
  crawl_id: string;
  entry: OutboxEntry;
  attempt: number;
  due: number;
  /** Its record's position in the stream's log. */
  pos: number;
}

/** The outbox in the process's memory (TRAWL_DATA_DIR=:memory:). Single-threaded: every method is atomic. */
export class MemoryWebhookOutbox implements WebhookOutbox {
  private readonly streams = new Map<string, Stream>();
  private readonly deliveries = new Map<string, Delivery>();

  constructor(private readonly clock: () => number = Date.now) {}

  private stream(crawlId: string): Stream | undefined {
    const s = this.streams.get(crawlId);
    if (s && s.forgetAt !== null && s.forgetAt <= this.clock()) {
      this.streams.delete(crawlId);
      return undefined;
    }
    return s;
  }

  async open(crawlId: string, config: StreamConfig): Promise<void> {
    if (this.stream(crawlId)) throw new Error('webhook stream already exists');
    this.streams.set(crawlId, { config: { ...config }, cursor: 0, started: false, ended: false, stats: emptyStats(), forgetAt: null, log: [] });
  }

  async state(crawlId: string): Promise<StreamState | null> {
    const s = this.stream(crawlId);
    return s ? { cursor: s.cursor, started: s.started, ended: s.ended, pending: s.stats.pending } : null;
  }

  async advance(crawlId: string, expect: { cursor: number; started: boolean }, next: { cursor: number; started: boolean; ended: boolean }, entries: OutboxEntry[], now: number, keepMs: number): Promise<boolean> {
    const s = this.stream(crawlId);
    if (!s || s.ended || s.cursor !== expect.cursor || s.started !== expect.started) return false;
    for (const entry of entries) {
      if (this.deliveries.has(entry.id)) continue;
      this.deliveries.set(entry.id, { crawl_id: crawlId, entry: { ...entry }, attempt: 0, due: now, pos: s.log.length });
      s.log.push(queuedRecord(entry, now));
      s.stats.events += 1;
      s.stats.pending += 1;
    }
    Object.assign(s, { cursor: next.cursor, started: next.started, ended: next.ended });
    if (next.ended) s.forgetAt = now + keepMs;
    return true;
  }

  async openStreams(limit: number): Promise<string[]> {
    const out: string[] = [];
    for (const [id] of this.streams) {
      if (out.length >= limit) break;
      const s = this.stream(id);
      if (s && !s.ended) out.push(id);
    }
    return out;
  }

  async claim(now: number, max: number, leaseMs: number): Promise<ClaimedDelivery[]> {
    const due = [...this.deliveries.entries()].filter(([, d]) => d.due <= now).sort((a, b) => a[1].due - b[1].due || (a[0] < b[0] ? -1 : 1));
    const out: ClaimedDelivery[] = [];
    for (const [id, d] of due) {
      if (out.length >= max) break;
      const s = this.stream(d.crawl_id);
      if (!s) {
        this.deliveries.delete(id);
        continue;
      }
      d.attempt += 1;
      d.due = now + leaseMs;
      s.log[d.pos] = claimedRecord(s.log[d.pos], d.attempt, now);
      out.push({ crawl_id: d.crawl_id, entry: { ...d.entry }, attempt: d.attempt, token: claimToken(id, d.attempt), config: { ...s.config } });
    }
    return out;
  }

  async settle(token: string, outcome: DeliveryOutcome, report: AttemptReport): Promise<number | null> {
    const t = parseClaimToken(token);
    const d = t && this.deliveries.get(t.id);
    if (!t || !d || d.attempt !== t.attempt) return null;
    const s = this.stream(d.crawl_id);
    if (!s) {
      this.deliveries.delete(t.id);
      return null;
    }
    s.log[d.pos] = settledRecord(s.log[d.pos], outcome, report);
    if (outcome.kind !== 'delivered') s.stats.failure_reasons[outcome.reason] = (s.stats.failure_reasons[outcome.reason] ?? 0) + 1;
    if (outcome.kind === 'retry') {
      d.due = outcome.at;
      s.stats.retries += 1;
      return s.stats.pending;
    }
    this.deliveries.delete(t.id);
    s.stats[outcome.kind === 'delivered' ? 'delivered' : 'failed'] += 1;
    s.stats.pending -= 1;
    return s.stats.pending;
  }

  async stats(crawlId: string): Promise<WebhookStats | null> {
    const s = this.stream(crawlId);
    return s ? { ...s.stats, failure_reasons: { ...s.stats.failure_reasons } } : null;
  }

  async deliveryLog(crawlId: string, from: number, limit: number): Promise<DeliveryLogPage | null> {
    const s = this.stream(crawlId);
    return s ? { records: s.log.slice(from, from + limit).map((r) => ({ ...r })), events: s.log.length, ended: s.ended } : null;
  }
}
