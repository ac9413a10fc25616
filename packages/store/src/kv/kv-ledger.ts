import type { KvTx } from '@trawl/kv';
import type { LedgerEntry, LedgerPage } from '../types.ts';
import type { KvStoreKeys } from './keys.ts';

/**
 * The Kv store's ledger, each step one call inside one Kv transaction (the Redis backend's ledger-charge-3.lua).
 * Entries are kept whole like Redis's (a team's history, appended and never trimmed, so positions are stable);
 * balances are kept, not derived.
 */

/**
 * How long a "charged once" mark of a (run, reason) is kept. A run's charges come within seconds of each other (a
 * crawl's within its hours): only a repeat this much later could be recorded twice. Redis keeps the marks for ever;
 * on a Kv they expire so requests leave nothing behind for good but ledger entries.
 */
export const KV_CHARGE_MARK_TTL_S = 30 * 86400;

export function chargeOnce(tx: KvTx, k: KvStoreKeys, entry: LedgerEntry, enforce: boolean, now: number) {
  const t = entry.team_id;
  const balance = tx.get<number>(k.balance(t)) ?? 0;
  const once = k.charged(t, entry.run_id, entry.reason);
  if (tx.has(once)) return { ok: true, balance };
  if (enforce && balance < entry.units) return { ok: false, balance };
  tx.put(once, 1, { expiresAt: now + KV_CHARGE_MARK_TTL_S * 1000 });
  const n = tx.get<number>(k.ledgerCount(t)) ?? 0;
  tx.put(k.ledgerEntry(t, n), { ...entry });
  tx.put(k.ledgerCount(t), n + 1);
  tx.put(k.balance(t), balance - entry.units);
  return { ok: true, balance: balance - entry.units };
}

export function grant(tx: KvTx, k: KvStoreKeys, teamId: string, units: number): number {
  const b = (tx.get<number>(k.balance(teamId)) ?? 0) + units;
  tx.put(k.balance(teamId), b);
  return b;
}

/** Entries newest first before the position `before`: a position counts a team's entries from its first. */
export function pageOf(tx: KvTx, k: KvStoreKeys, teamId: string, opts: { limit: number; before?: number }): LedgerPage {
  const end = Math.min(opts.before ?? Infinity, tx.get<number>(k.ledgerCount(teamId)) ?? 0);
  const start = Math.max(0, end - opts.limit);
  if (end <= start) return { entries: [], next_before: null };
  const range = { start: k.ledgerEntry(teamId, start), end: k.ledgerEntry(teamId, end), reverse: true };
  const entries = [...tx.range<LedgerEntry>(range)].map((e) => e.value);
  return { entries, next_before: start > 0 ? start : null };
}
