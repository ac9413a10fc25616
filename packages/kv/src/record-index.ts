import type { KvTx } from './kv.ts';

/** Forget times in keys: fixed width, so keys sort by time (the width of `@trawl/contract` index keys). */
const pad = (ms: number) => String(Math.max(0, Math.floor(ms))).padStart(15, '0');

/**
 * Embedded-mode twin of `@trawl/redis` RedisRecordIndex: a newest-first index of records (crawls, trends jobs) by
 * index key ("<15-digit created ms>:<id>", which sorts like the records), all and per team, under one key base. A record's forget time becomes the expiry of its entries, so they leave the index
 * with the record and nothing needs pruning. Every method runs inside the caller's transaction, so a store adds or
 * schedules an entry atomically with the record itself.
 */
export class KvRecordIndex {
  constructor(private readonly base: string) {}

  private all(key: string) {
    return `${this.base}a:${key}`;
  }
  /** The team's length first, so no team's keys are a prefix of another's. */
  private teamBase(team: string) {
    return `${this.base}t:${team.length}:${team}:`;
  }
  private expiringKey(at: number, key: string) {
    return `${this.base}x:${pad(at)}:${key}`;
  }

  add(tx: KvTx, key: string, team: string): void {
    tx.put(this.all(key), team);
    tx.put(this.teamBase(team) + key, null);
  }

  /** The record is forgotten at `at` (epoch ms, judged by the Kv's clock). */
  expireAt(tx: KvTx, key: string, team: string, at: number): void {
    // Forgotten at another time before (an expiry set again): that time's entry goes.
    const old = tx.expiresAt(this.all(key));
    if (old !== null) tx.del(this.expiringKey(old, key));
    tx.expire(this.all(key), at);
    tx.expire(this.teamBase(team) + key, at);
    tx.put(this.expiringKey(at, key), team, { expiresAt: at });
  }

  /** Index keys newest first, strictly before `after`, of one team or all. */
  page(tx: KvTx, q: { team_id?: string; after?: string; limit: number }): string[] {
    const prefix = q.team_id === undefined ? this.all('') : this.teamBase(q.team_id);
    const end = q.after === undefined ? undefined : prefix + q.after;
    return [...tx.range({ prefix, end, reverse: true, limit: q.limit })].map((e) => e.key.slice(prefix.length));
  }

  /** Records with a forget time still ahead, soonest first (the older record first on a tie). */
  expiring(tx: KvTx, limit: number): { key: string; team: string; at: number }[] {
    const prefix = `${this.base}x:`;
    return [...tx.range<string>({ prefix, limit })].map((e) => ({
      key: e.key.slice(prefix.length + 16),
      team: e.value,
      at: Number(e.key.slice(prefix.length, prefix.length + 15)),
    }));
  }
}
