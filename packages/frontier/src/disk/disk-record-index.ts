import { expiringEntries, indexEntries, type ExpiringEntry, type IndexEntry } from '@trawl/contract';
import type { KvTx } from '@trawl/kv';
import { pad } from './disk-keys.ts';

/**
 * The embedded twin of `@trawl/contract` MemoryRecordIndex and `@trawl/redis` RedisRecordIndex over a Kv: index
 * keys (contract's `indexKey`) under `<base>a:` (all), `<base>t:<team>:` (per team) and `<base>e:<forget time>:`
 * (ended records, soonest first). Forgetting a record sets the expiry of its entries, so they leave every listing
 * at that time without a prune. Every method runs inside the caller's transaction.
 */
export class DiskRecordIndex {
  constructor(private readonly base: string) {}

  // The team's length first: no team's prefix is another team's.
  private team(team: string) {
    return `${this.base}t:${team.length}:${team}:`;
  }

  add(tx: KvTx, key: string, team: string): void {
    tx.put(`${this.base}a:${key}`, team);
    tx.put(`${this.team(team)}${key}`, 1);
  }

  expireAt(tx: KvTx, key: string, team: string, at: number): void {
    const old = tx.expiresAt(`${this.base}a:${key}`);
    if (old !== null) tx.del(`${this.base}e:${pad(old)}:${key}`);
    tx.expire(`${this.base}a:${key}`, at);
    tx.expire(`${this.team(team)}${key}`, at);
    tx.put(`${this.base}e:${pad(at)}:${key}`, team, { expiresAt: at });
  }

  /** Newest first, strictly after index key `after`. */
  page(tx: KvTx, q: { team_id?: string; after?: string; limit: number }): IndexEntry[] {
    const prefix = q.team_id === undefined ? `${this.base}a:` : this.team(q.team_id);
    const keys: string[] = [];
    const end = q.after === undefined ? undefined : `${prefix}${q.after}`;
    for (const e of tx.range({ prefix, end, reverse: true, limit: q.limit })) keys.push(e.key.slice(prefix.length));
    return indexEntries(keys);
  }

  /** Records with a forget time still ahead, soonest first (the older record first on a tie). */
  expiring(tx: KvTx, limit: number): ExpiringEntry[] {
    const prefix = `${this.base}e:`;
    const rows: { key: string; team: string; at: number }[] = [];
    for (const e of tx.range<string>({ prefix, limit })) {
      const rest = e.key.slice(prefix.length);
      rows.push({ key: rest.slice(16), team: e.value, at: Number(rest.slice(0, 15)) });
    }
    return expiringEntries(rows);
  }
}
