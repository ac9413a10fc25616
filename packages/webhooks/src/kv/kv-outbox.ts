import type { Kv, KvTx } from '@trawl/kv';
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
} from '../types.ts';
import { KvOutboxKeys, pad } from './keys.ts';

interface Stream {
  config: StreamConfig;
  cursor: number;
  started: boolean;
  ended: boolean;
  stats: WebhookStats;
}
interface Delivery {
  crawl_id: string;
  entry: OutboxEntry;
  attempt: number;
  due: number;
  /** Its record's position in the crawl's delivery log. */
  pos: number;
}

/**
 * The outbox on the embedded data directory's Kv: one transaction per rule (the Lua scripts' twins), so a process
 * killed at any point loses no queued event and a delivery it had claimed comes due again when its lease lapses.
 */
export class KvWebhookOutbox implements WebhookOutbox {
  private readonly k: KvOutboxKeys;

  constructor(
    private readonly kv: Kv,
    prefix = '',
  ) {
    this.k = new KvOutboxKeys(prefix);
  }

  async open(crawlId: string, config: StreamConfig): Promise<void> {
    this.kv.transact((tx) => {
      if (tx.has(this.k.stream(crawlId))) throw new Error('webhook stream already exists');
      tx.put(this.k.stream(crawlId), { config, cursor: 0, started: false, ended: false, stats: emptyStats() } satisfies Stream);
      tx.put(this.k.openStream(crawlId), 1);
    });
  }

  async state(crawlId: string): Promise<StreamState | null> {
    const s = this.kv.transact((tx) => tx.get<Stream>(this.k.stream(crawlId)));
    return s ? { cursor: s.cursor, started: s.started, ended: s.ended, pending: s.stats.pending } : null;
  }

  async advance(crawlId: string, expect: { cursor: number; started: boolean }, next: { cursor: number; started: boolean; ended: boolean }, entries: OutboxEntry[], now: number, keepMs: number): Promise<boolean> {
    return this.kv.transact((tx) => {
      const key = this.k.stream(crawlId);
      const s = tx.get<Stream>(key);
      if (!s || s.ended || s.cursor !== expect.cursor || s.started !== expect.started) return false;
      for (const entry of entries) {
        const dk = this.k.delivery(entry.id);
        if (tx.has(dk)) continue;
        tx.put(dk, { crawl_id: crawlId, entry, attempt: 0, due: now, pos: s.stats.events } satisfies Delivery);
        tx.put(this.k.dueAt(now, entry.id), 1);
        tx.put(this.k.logAt(crawlId, s.stats.events), queuedRecord(entry, now));
        s.stats.events += 1;
        s.stats.pending += 1;
      }
      Object.assign(s, { cursor: next.cursor, started: next.started, ended: next.ended });
      tx.put(key, s, next.ended ? { expiresAt: now + keepMs } : undefined);
      if (next.ended) {
        tx.del(this.k.openStream(crawlId));
        // The log is forgotten with the stream (its reads go through the stream), none of its records rewritten.
        tx.expirePrefix(this.k.log(crawlId), now + keepMs);
      }
      return true;
    });
  }

  async openStreams(limit: number): Promise<string[]> {
    const prefix = this.k.open;
    return this.kv.transact((tx) => [...tx.range({ prefix, limit })].map((e) => e.key.slice(prefix.length)));
  }

  async claim(now: number, max: number, leaseMs: number): Promise<ClaimedDelivery[]> {
    return this.kv.transact((tx) => {
      const out: ClaimedDelivery[] = [];
      const due = [...tx.range({ prefix: this.k.due, end: `${this.k.due}${pad(now + 1)}`, limit: max * 2 })].map((e) => e.key);
      for (const indexKey of due) {
        if (out.length >= max) break;
        const id = indexKey.slice(indexKey.indexOf('|', this.k.due.length) + 1);
        tx.del(indexKey);
        const d = tx.get<Delivery>(this.k.delivery(id));
        const s = d && tx.get<Stream>(this.k.stream(d.crawl_id));
        if (!d || !s) {
          // Its stream was forgotten: nothing to deliver it with.
          tx.del(this.k.delivery(id));
          continue;
        }
        d.attempt += 1;
        d.due = now + leaseMs;
        tx.put(this.k.delivery(id), d);
        updateRecord(tx, this.k.logAt(d.crawl_id, d.pos), (r) => claimedRecord(r, d.attempt, now));
        tx.put(this.k.dueAt(d.due, id), 1);
        out.push({ crawl_id: d.crawl_id, entry: d.entry, attempt: d.attempt, token: claimToken(id, d.attempt), config: s.config });
      }
      return out;
    });
  }

  async settle(token: string, outcome: DeliveryOutcome, report: AttemptReport): Promise<number | null> {
    const t = parseClaimToken(token);
    if (!t) return null;
    return this.kv.transact((tx) => {
      const dk = this.k.delivery(t.id);
      const d = tx.get<Delivery>(dk);
      if (!d || d.attempt !== t.attempt) return null;
      const sk = this.k.stream(d.crawl_id);
      const s = tx.get<Stream>(sk);
      tx.del(this.k.dueAt(d.due, t.id));
      if (!s) {
        tx.del(dk);
        return null;
      }
      updateRecord(tx, this.k.logAt(d.crawl_id, d.pos), (r) => settledRecord(r, outcome, report));
      if (outcome.kind !== 'delivered') s.stats.failure_reasons[outcome.reason] = (s.stats.failure_reasons[outcome.reason] ?? 0) + 1;
      if (outcome.kind === 'retry') {
        d.due = outcome.at;
        tx.put(dk, d);
        tx.put(this.k.dueAt(d.due, t.id), 1);
        s.stats.retries += 1;
      } else {
        tx.del(dk);
        s.stats[outcome.kind === 'delivered' ? 'delivered' : 'failed'] += 1;
        s.stats.pending -= 1;
      }
      putKeepingExpiry(tx, sk, s);
      return s.stats.pending;
    });
  }

  async stats(crawlId: string): Promise<WebhookStats | null> {
    return this.kv.transact((tx) => tx.get<Stream>(this.k.stream(crawlId))?.stats ?? null);
  }

  async deliveryLog(crawlId: string, from: number, limit: number): Promise<DeliveryLogPage | null> {
    return this.kv.transact((tx) => {
      const s = tx.get<Stream>(this.k.stream(crawlId));
      if (!s) return null;
      const records = [...tx.range<DeliveryRecord>({ start: this.k.logAt(crawlId, from), end: this.k.logAt(crawlId, from + limit) })].map((e) => e.value);
      return { records, events: s.stats.events, ended: s.ended };
    });
  }
}

/** Writes a key back keeping its expiry (an ended stream and its log are forgotten on time, whatever settles after). */
function putKeepingExpiry(tx: KvTx, key: string, value: unknown): void {
  const at = tx.expiresAt(key);
  tx.put(key, value, at === null ? undefined : { expiresAt: at });
}

/** Rewrites a delivery's log record (absent: a delivery queued before the log existed, nothing to write). */
function updateRecord(tx: KvTx, key: string, change: (r: DeliveryRecord) => DeliveryRecord): void {
  const r = tx.get<DeliveryRecord>(key);
  if (r) putKeepingExpiry(tx, key, change(r));
}
