import type { WebhookEvent } from '@trawl/contract';
import { loadScripts, type RedisConnection } from '@trawl/redis';
import {
  claimToken,
  parseClaimToken,
  type ClaimedDelivery,
  type DeliveryOutcome,
  type OutboxEntry,
  type StreamConfig,
  type StreamState,
  type WebhookOutbox,
  type WebhookStats,
} from '../types.ts';
import { OutboxKeys } from './keys.ts';

const scripts = loadScripts(new URL('./lua/', import.meta.url), ['outbox-open-2.lua', 'outbox-advance-3.lua', 'outbox-claim-1.lua', 'outbox-settle-1.lua']);
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
    return (await scripts['outbox-advance'].run(this.redis, [this.k.stream(crawlId), this.k.open, this.k.due], args)) === 1;
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

  async settle(token: string, outcome: DeliveryOutcome): Promise<number | null> {
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
}
