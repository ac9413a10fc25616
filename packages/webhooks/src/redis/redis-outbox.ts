import type { WebhookEvent } from '@trawl/contract';
import { loadScripts, type RedisConnection } from '@trawl/redis';
import {
  claimToken,
  parseClaimToken,
  type AttemptReport,
  type ClaimedDelivery,
  type DeliveryLogPage,
  type DeliveryOutcome,
  type DeliveryRecord,
  type OutboxEntry,
  type StreamConfig,
  type StreamState,
  type WebhookOutbox,
  type WebhookStats,
} from '../types.ts';
import { OutboxKeys } from './keys.ts';

const scripts = loadScripts(new URL('./lua/', import.meta.url), [
  'outbox-open-2.lua',
  'outbox-advance-4.lua',
  'outbox-claim-1.lua',
  'outbox-settle-1.lua',
  'outbox-deliveries-2.lua',
]);
const bit = (b: boolean) => (b ? '1' : '0');

/** The outbox in Redis (cluster mode): each rule one Lua script, so any number of workers share it. */
export class RedisWebhookOutbox implements WebhookOutbox {
  private readonly k: OutboxKeys;

  constructor(
    private readonly redis: RedisConnection,
    prefix: string,
  ) {
    this.k = new OutboxKeys(prefix);
  }

  async open(crawlId: string, config: StreamConfig): Promise<void> {
    const r = await scripts['outbox-open'].run(this.redis, [this.k.stream(crawlId), this.k.open], [crawlId, JSON.stringify(config)]);
    if (r !== 1) throw new Error('webhook stream already exists');
  }

  async state(crawlId: string): Promise<StreamState | null> {
    const [cursor, started, ended, pending] = await this.redis.hmGet(this.k.stream(crawlId), ['cursor', 'started', 'ended', 'pending']);
    return cursor === null ? null : { cursor: Number(cursor), started: started === '1', ended: ended === '1', pending: Number(pending) };
  }

  async advance(crawlId: string, expect: { cursor: number; started: boolean }, next: { cursor: number; started: boolean; ended: boolean }, entries: OutboxEntry[], now: number, keepMs: number): Promise<boolean> {
    const args: string[] = [
      crawlId,
      String(expect.cursor),
      bit(expect.started),
      String(next.cursor),
      bit(next.started),
      bit(next.ended),
      String(now),
      String(Math.max(1, Math.round(keepMs))),
      this.k.base,
    ];
    for (const e of entries) args.push(e.id, e.type, e.seq === null ? '' : String(e.seq), e.created_at);
    return (await scripts['outbox-advance'].run(this.redis, [this.k.stream(crawlId), this.k.open, this.k.due, this.k.log(crawlId)], args)) === 1;
  }

  async openStreams(limit: number): Promise<string[]> {
    return (await this.redis.sRandMemberCount(this.k.open, limit)) ?? [];
  }

  async claim(now: number, max: number, leaseMs: number): Promise<ClaimedDelivery[]> {
    const flat = await scripts['outbox-claim'].run<(string | number)[]>(this.redis, [this.k.due], [now, max, leaseMs, this.k.base]);
    const out: ClaimedDelivery[] = [];
    for (let i = 0; i + 6 < flat.length; i += 7) {
      const [id, crawl, type, seq, createdAt, attempt, config] = flat.slice(i, i + 7).map(String);
      out.push({
        crawl_id: crawl,
        entry: { id, type: type as WebhookEvent, seq: seq === '' ? null : Number(seq), created_at: createdAt },
        attempt: Number(attempt),
        token: claimToken(id, Number(attempt)),
        config: JSON.parse(config) as StreamConfig,
      });
    }
    return out;
  }

  async settle(token: string, outcome: DeliveryOutcome, report: AttemptReport): Promise<number | null> {
    const t = parseClaimToken(token);
    if (!t) return null;
    const r = Number(
      await scripts['outbox-settle'].run(this.redis, [this.k.due], [
        t.id,
        t.attempt,
        outcome.kind,
        outcome.kind === 'delivered' ? '' : outcome.reason,
        outcome.kind === 'retry' ? outcome.at : 0,
        this.k.base,
        report.http_status ?? '',
        Math.max(0, Math.round(report.duration_ms)),
      ]),
    );
    return r < 0 ? null : r;
  }

  async stats(crawlId: string): Promise<WebhookStats | null> {
    const h = await this.redis.hGetAll(this.k.stream(crawlId));
    if (h.config === undefined) return null;
    const failure_reasons: Record<string, number> = {};
    for (const [key, v] of Object.entries(h)) if (key.startsWith('reason:')) failure_reasons[key.slice(7)] = Number(v);
    const n = (key: string) => Number(h[key] ?? 0);
    return { events: n('events'), delivered: n('delivered'), failed: n('failed'), pending: n('pending'), retries: n('retries'), failure_reasons };
  }

  async deliveryLog(crawlId: string, from: number, limit: number): Promise<DeliveryLogPage | null> {
    const r = await scripts['outbox-deliveries'].run<[number, number, ...string[]] | null>(this.redis, [this.k.stream(crawlId), this.k.log(crawlId)], [from, limit]);
    if (!r) return null;
    const [events, ended, ...raw] = r;
    return { records: raw.map(parseRecord), events: Number(events), ended: Number(ended) === 1 };
  }
}

/** A log record as the scripts write it (cjson, null fields left out). */
function parseRecord(raw: string): DeliveryRecord {
  const r = JSON.parse(raw) as Partial<DeliveryRecord> & Pick<DeliveryRecord, 'id' | 'type' | 'created_at' | 'status' | 'attempts'>;
  const o = r.last_outcome;
  return {
    id: r.id,
    type: r.type,
    seq: r.seq ?? null,
    created_at: r.created_at,
    status: r.status,
    attempts: r.attempts,
    last_attempt_at: r.last_attempt_at ?? null,
    next_attempt_at: r.next_attempt_at ?? null,
    last_outcome: o ? { reason: o.reason, http_status: o.http_status ?? null, duration_ms: o.duration_ms } : null,
  };
}
