import { QUOTA_RESOURCE_NAMES, type QuotaResource, type RateLimitClass } from '@trawl/contract';
import type { KvTx } from '@trawl/kv';
import { quotaAfterReturn, quotaAllows, quotaUsageExpiresAt } from '../quota-rule.ts';
import { refundWindow, takeFromWindow, type RateWindow } from '../rate-limit-window.ts';
import type { QuotaTake, QuotaUsage, RateLimitDecision } from '../types.ts';
import type { KvStoreKeys } from './keys.ts';

/**
 * Rate limits and quotas of the Kv store, each decision one call inside one Kv transaction (atomic, like the
 * Redis backend's Lua scripts), deciding with the shared rules in rate-limit-window.ts and quota-rule.ts.
 */

/** How long an idle rate-limit window is kept: past its 61 one-second slots, as in the Redis backend. */
const RATE_WINDOW_TTL_MS = 120_000;

export function takeRate(tx: KvTx, k: KvStoreKeys, teamId: string, routeClass: RateLimitClass, defaultPerMinute: number, now: number): RateLimitDecision {
  const limit = tx.get<Partial<Record<RateLimitClass, number>>>(k.rateOverrides(teamId))?.[routeClass] ?? defaultPerMinute;
  const key = k.rateWindow(teamId, routeClass);
  const w = tx.get<RateWindow>(key) ?? { secs: [], counts: [] };
  const decision = takeFromWindow(w, limit, now);
  if (decision.allowed && decision.slot !== null) tx.put(key, w, { expiresAt: now + RATE_WINDOW_TTL_MS });
  return decision;
}

export function refundRate(tx: KvTx, k: KvStoreKeys, teamId: string, routeClass: RateLimitClass, slot: number): void {
  const key = k.rateWindow(teamId, routeClass);
  const w = tx.get<RateWindow>(key);
  if (!w) return;
  refundWindow(w, slot);
  tx.put(key, w, { expiresAt: tx.expiresAt(key) ?? undefined });
}

/** Sets (or with null drops) one of a team's own limits; a team left with none has no key. */
export function setTeamLimit(tx: KvTx, key: string, name: string, value: number | null): void {
  const o: Record<string, number> = { ...tx.get<Record<string, number>>(key) };
  if (value === null) delete o[name];
  else o[name] = value;
  if (Object.keys(o).length === 0) tx.del(key);
  else tx.put(key, o);
}

export function takeQuotaUnits(tx: KvTx, k: KvStoreKeys, teamId: string, resource: QuotaResource, month: string, units: number): QuotaTake {
  const monthly = tx.get<Partial<Record<QuotaResource, number>>>(k.quotaLimits(teamId))?.[resource] ?? null;
  const key = k.quotaUsed(teamId, resource, month);
  const used = tx.get<number>(key) ?? 0;
  if (!quotaAllows(used, monthly, units)) return { ok: false, used, monthly };
  tx.put(key, used + units, { expiresAt: quotaUsageExpiresAt(month) });
  // A month already forgotten keeps nothing (an expiry in the past reads as absent, like Redis's PEXPIREAT).
  return { ok: true, used: used + units, monthly };
}

export function returnQuotaUnits(tx: KvTx, k: KvStoreKeys, teamId: string, resource: QuotaResource, month: string, units: number, once: string): void {
  const key = k.quotaUsed(teamId, resource, month);
  const used = tx.get<number>(key);
  const mark = k.quotaReturned(teamId, resource, month, once);
  if (used === undefined || tx.has(mark)) return;
  const expiresAt = quotaUsageExpiresAt(month);
  tx.put(mark, 1, { expiresAt });
  tx.put(key, quotaAfterReturn(used, units), { expiresAt });
}

export function quotasOf(tx: KvTx, k: KvStoreKeys, teamId: string, month: string): Record<QuotaResource, QuotaUsage> {
  const limits = tx.get<Partial<Record<QuotaResource, number>>>(k.quotaLimits(teamId)) ?? {};
  const out = {} as Record<QuotaResource, QuotaUsage>;
  for (const r of QUOTA_RESOURCE_NAMES) out[r] = { monthly: limits[r] ?? null, used: tx.get<number>(k.quotaUsed(teamId, r, month)) ?? 0 };
  return out;
}
