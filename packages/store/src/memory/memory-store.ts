import { LruMap, QUOTA_RESOURCE_NAMES, type QuotaResource, type RateLimitClass } from '@trawl/contract';
import { quotaAfterReturn, quotaAllows, quotaUsageExpiresAt } from '../quota-rule.ts';
import { refundWindow, takeFromWindow, type RateWindow } from '../rate-limit-window.ts';
import { hashSecret, newApiKey, newId } from '../ids.ts';
import { teamPosition } from '../team-order.ts';
import { MAX_SELECTOR_MEMORY_BYTES } from '../types.ts';
import type {
  ApiKeyRecord,
  ArtifactMeta,
  IdempotencyBegin,
  LedgerEntry,
  QuotaTake,
  QuotaUsage,
  LedgerPage,
  RateLimitDecision,
  RunRecord,
  SelectorMemoryKey,
  Store,
  StoredResponse,
  TeamPage,
  TeamRecord,
} from '../types.ts';

/**
 * Idempotency keys remembered (each with its stored response). Callers choose the keys, so within the 24 h TTL
 * they could grow without end; past the bound the least recently used key is forgotten, and a retry with it runs
 * the request again.
 */
export const MAX_MEMORY_IDEMPOTENCY_KEYS = 10_000;
/** Ledger entries kept per team (the newest; the admin ledger's pages end there). Balances are kept whole, not derived. */
export const MAX_MEMORY_LEDGER_ENTRIES = 1_000;
/**
 * (run, reason) pairs remembered to record each charge once. A run's charges come within seconds of each other,
 * so only a repeat after this many later charges could be recorded twice.
 */
export const MAX_MEMORY_CHARGE_MARKS = 100_000;

/**
 * Selector memories kept (one per team, domain and extraction schema, each at most MAX_SELECTOR_MEMORY_BYTES and
 * usually a few KiB); past the bound the least recently used is forgotten and relearned from its next page.
 */
export const MAX_MEMORY_SELECTOR_MEMORIES = 2_000;

/**
 * Rate-limit windows kept (one per team and route class that sent a request, each at most 61 small counters); past
 * the bound the least recently used is forgotten, which only matters for a team idle long enough to be the least
 * recent of this many: its window then starts empty. Teams' own limits (admin overrides) are never forgotten.
 */
export const MAX_MEMORY_RATE_WINDOWS = 10_000;

/**
 * Quota give-back marks remembered (one per run that gave units back). A run gives back within seconds of a repeat,
 * so only a repeat after this many later give-backs could be given back twice.
 */
export const MAX_MEMORY_QUOTA_RETURN_MARKS = 100_000;

interface IdemEntry {
  fingerprint: string;
  response: StoredResponse | null;
  expires: number;
}

/** Embedded-mode store: one process, plain maps. Behaviour is pinned by the shared conformance suite. */
export class MemoryStore implements Store {
  readonly kind = 'memory' as const;
  private teams = new Map<string, TeamRecord>();
  private keys = new Map<string, ApiKeyRecord & { hash: string }>();
  private runs = new Map<string, string>();
  private artifacts = new Map<string, { meta: ArtifactMeta; body: Buffer | null }>();
  private idem = new LruMap<string, IdemEntry>(MAX_MEMORY_IDEMPOTENCY_KEYS);
  private balances = new Map<string, number>();
  /** Per team: the newest entries and how many older ones were dropped (positions count from the first). */
  private ledger = new Map<string, { list: LedgerEntry[]; dropped: number }>();
  private charged = new LruMap<string, true>(MAX_MEMORY_CHARGE_MARKS);
  private selectorMemories = new LruMap<string, { value: string; expires: number }>(MAX_MEMORY_SELECTOR_MEMORIES);
  private rateWindows = new LruMap<string, RateWindow>(MAX_MEMORY_RATE_WINDOWS);
  private rateOverrides = new Map<string, Partial<Record<RateLimitClass, number>>>();
  private quotaLimits = new Map<string, Partial<Record<QuotaResource, number>>>();
  /** Usage per "team\nresource\nmonth": never evicted (forgetting it would let a team past its quota), swept by month. */
  private quotaUsed = new Map<string, { used: number; expires: number }>();
  private quotaReturned = new LruMap<string, true>(MAX_MEMORY_QUOTA_RETURN_MARKS);
  private sweeper: NodeJS.Timeout;

  constructor(private readonly now: () => number = Date.now) {
    // Expired artifact bodies and idempotency entries would otherwise live as long as the process.
    this.sweeper = setInterval(() => this.sweep(), 60_000);
    this.sweeper.unref();
  }

  async createTeam(name: string): Promise<TeamRecord> {
    // One team per name, as in Redis: a second creation returns the first.
    for (const t of this.teams.values()) if (t.name === name) return { ...t };
    const team = { id: newId('team'), name, created_at: new Date(this.now()).toISOString(), disabled_at: null };
    this.teams.set(team.id, team);
    return { ...team };
  }
  async listTeams(opts: { limit: number; after?: string }): Promise<TeamPage> {
    const after = opts.after;
    const rest = [...this.teams.values()]
      .map((t) => ({ at: teamPosition(t), t }))
      .filter((e) => after === undefined || e.at > after)
      .sort((a, b) => (a.at < b.at ? -1 : a.at > b.at ? 1 : 0));
    const page = rest.slice(0, opts.limit);
    return { teams: page.map((e) => ({ ...e.t })), next_after: rest.length > opts.limit ? page[page.length - 1].at : null };
  }
  async setTeamDisabled(id: string, disabled: boolean) {
    const t = this.teams.get(id);
    if (!t) return null;
    t.disabled_at = disabled ? (t.disabled_at ?? new Date(this.now()).toISOString()) : null;
    return { ...t };
  }
  async getTeam(id: string) {
    const t = this.teams.get(id);
    return t ? { ...t } : null;
  }
  async findTeamByName(name: string) {
    for (const t of this.teams.values()) if (t.name === name) return { ...t };
    return null;
  }
  async createApiKey(teamId: string, opts: { label: string; scopes: ApiKeyRecord['scopes']; secret?: string }) {
    const { key, secret, hash } = newApiKey(teamId, opts, new Date(this.now()).toISOString());
    this.keys.set(key.id, { ...key, hash });
    return { key, secret };
  }
  async findApiKey(secret: string) {
    const hash = hashSecret(secret);
    for (const k of this.keys.values()) {
      if (k.hash === hash && k.revoked_at === null) return publicKey(k);
    }
    return null;
  }
  async listApiKeys(teamId: string) {
    return [...this.keys.values()].filter((k) => k.team_id === teamId).map(publicKey);
  }
  async getApiKey(teamId: string, keyId: string) {
    const k = this.keys.get(keyId);
    return k && k.team_id === teamId ? publicKey(k) : null;
  }
  async revokeApiKey(teamId: string, keyId: string) {
    const k = this.keys.get(keyId);
    if (!k || k.team_id !== teamId || k.revoked_at) return false;
    k.revoked_at = new Date(this.now()).toISOString();
    return true;
  }
  async rotateApiKey(teamId: string, keyId: string) {
    const old = this.keys.get(keyId);
    if (!old || old.team_id !== teamId || old.revoked_at) return null;
    // No await before the revocation: a concurrent rotation of this key finds it revoked.
    old.revoked_at = new Date(this.now()).toISOString();
    return this.createApiKey(teamId, { label: old.label, scopes: old.scopes });
  }

  // Runs are kept as JSON so callers can never mutate stored state through a shared reference.
  async createRun(record: RunRecord) {
    if (this.runs.has(record.run.id)) throw new Error('run id already exists');
    this.runs.set(record.run.id, JSON.stringify(record));
  }
  async saveRun(record: RunRecord) {
    this.runs.set(record.run.id, JSON.stringify(record));
  }
  async getRun(id: string) {
    const s = this.runs.get(id);
    return s ? (JSON.parse(s) as RunRecord) : null;
  }

  async putArtifact(meta: ArtifactMeta, body: Buffer) {
    this.artifacts.set(`${meta.run_id}\n${meta.key}`, { meta: { ...meta }, body: Buffer.from(body) });
  }
  async getArtifact(runId: string, key: string) {
    const a = this.artifacts.get(`${runId}\n${key}`);
    if (!a) return null;
    const expired = a.meta.expires_at !== null && Date.parse(a.meta.expires_at) <= this.now();
    return { meta: { ...a.meta }, body: expired || !a.body ? null : Buffer.from(a.body) };
  }

  async beginIdempotent(key: string, fingerprint: string, leaseS: number): Promise<IdempotencyBegin> {
    const e = this.idem.get(key);
    if (!e || e.expires <= this.now()) {
      this.idem.set(key, { fingerprint, response: null, expires: this.now() + leaseS * 1000 });
      return { state: 'started' };
    }
    if (e.fingerprint !== fingerprint) return { state: 'conflict' };
    return e.response ? { state: 'replay', response: { ...e.response } } : { state: 'in_progress' };
  }
  async completeIdempotent(key: string, fingerprint: string, response: StoredResponse, ttlS: number) {
    const e = this.idem.get(key);
    if (e && e.fingerprint !== fingerprint) return;
    this.idem.set(key, { fingerprint, response: { ...response }, expires: this.now() + ttlS * 1000 });
  }
  async releaseIdempotent(key: string, fingerprint: string) {
    const e = this.idem.get(key);
    if (e && e.fingerprint === fingerprint && !e.response) this.idem.delete(key);
  }
  async hasReplay(key: string, fingerprint: string) {
    const e = this.idem.get(key);
    return !!e && e.expires > this.now() && e.fingerprint === fingerprint && e.response !== null;
  }

  async charge(entry: LedgerEntry, enforce: boolean) {
    const balance = this.balances.get(entry.team_id) ?? 0;
    const once = `${entry.run_id}\n${entry.reason}`;
    if (this.charged.has(once)) return { ok: true, balance };
    if (enforce && balance < entry.units) return { ok: false, balance };
    this.charged.set(once, true);
    this.balances.set(entry.team_id, balance - entry.units);
    const l = this.ledger.get(entry.team_id) ?? { list: [], dropped: 0 };
    l.list.push({ ...entry });
    // Every page run adds entries: the oldest go, or a long-running embedded gateway grows for ever.
    const over = l.list.length - MAX_MEMORY_LEDGER_ENTRIES;
    if (over > 0) {
      l.list.splice(0, over);
      l.dropped += over;
    }
    this.ledger.set(entry.team_id, l);
    return { ok: true, balance: balance - entry.units };
  }
  async balance(teamId: string) {
    return this.balances.get(teamId) ?? 0;
  }
  async grantCredits(teamId: string, units: number) {
    const b = (this.balances.get(teamId) ?? 0) + units;
    this.balances.set(teamId, b);
    return b;
  }
  async entries(teamId: string, limit: number) {
    return (this.ledger.get(teamId)?.list ?? []).slice(-limit).reverse();
  }
  async ledgerPage(teamId: string, opts: { limit: number; before?: number }): Promise<LedgerPage> {
    const l = this.ledger.get(teamId) ?? { list: [], dropped: 0 };
    const end = Math.min(opts.before ?? Infinity, l.dropped + l.list.length);
    const start = Math.max(l.dropped, end - opts.limit);
    if (end <= start) return { entries: [], next_before: null };
    const entries = l.list.slice(start - l.dropped, end - l.dropped).reverse().map((e) => ({ ...e }));
    return { entries, next_before: start > l.dropped ? start : null };
  }

  async takeRateLimit(teamId: string, routeClass: RateLimitClass, defaultPerMinute: number): Promise<RateLimitDecision> {
    const limit = this.rateOverrides.get(teamId)?.[routeClass] ?? defaultPerMinute;
    const key = `${teamId}\n${routeClass}`;
    let w = this.rateWindows.get(key);
    if (!w) {
      if (limit === 0) return takeFromWindow({ secs: [], counts: [] }, 0, this.now());
      w = { secs: [], counts: [] };
      this.rateWindows.set(key, w);
    }
    // Synchronous from the read to the count: no other request of this process can interleave (atomic).
    return takeFromWindow(w, limit, this.now());
  }
  async refundRateLimit(teamId: string, routeClass: RateLimitClass, slot: number) {
    const w = this.rateWindows.peek(`${teamId}\n${routeClass}`);
    if (w) refundWindow(w, slot);
  }
  async setRateLimit(teamId: string, routeClass: RateLimitClass, perMinute: number | null) {
    setTeamLimit(this.rateOverrides, teamId, routeClass, perMinute);
  }
  async getRateLimits(teamId: string) {
    return { ...this.rateOverrides.get(teamId) };
  }

  async takeQuota(teamId: string, resource: QuotaResource, month: string, units: number): Promise<QuotaTake> {
    const monthly = this.quotaLimits.get(teamId)?.[resource] ?? null;
    const key = `${teamId}\n${resource}\n${month}`;
    const used = this.usage(key)?.used ?? 0;
    // Synchronous from the read to the count: no other request of this process can interleave (atomic).
    if (!quotaAllows(used, monthly, units)) return { ok: false, used, monthly };
    this.quotaUsed.set(key, { used: used + units, expires: quotaUsageExpiresAt(month) });
    return { ok: true, used: used + units, monthly };
  }
  async returnQuota(teamId: string, resource: QuotaResource, month: string, units: number, once: string) {
    const e = this.usage(`${teamId}\n${resource}\n${month}`);
    const mark = JSON.stringify([teamId, month, resource, once]);
    if (!e || this.quotaReturned.has(mark)) return;
    this.quotaReturned.set(mark, true);
    e.used = quotaAfterReturn(e.used, units);
  }
  async setQuota(teamId: string, resource: QuotaResource, monthly: number | null) {
    setTeamLimit(this.quotaLimits, teamId, resource, monthly);
  }
  async getQuotas(teamId: string, month: string) {
    const limits = this.quotaLimits.get(teamId) ?? {};
    const out = {} as Record<QuotaResource, QuotaUsage>;
    for (const r of QUOTA_RESOURCE_NAMES) {
      out[r] = { monthly: limits[r] ?? null, used: this.usage(`${teamId}\n${r}\n${month}`)?.used ?? 0 };
    }
    return out;
  }
  /** A month's usage of a resource, or null once forgotten (Redis expires the key at the same instant). */
  private usage(key: string) {
    const e = this.quotaUsed.get(key);
    if (e && e.expires <= this.now()) this.quotaUsed.delete(key);
    return e && e.expires > this.now() ? e : null;
  }

  async ping() {
    // The state lives in this process: nothing to reach.
  }

  async close() {
    clearInterval(this.sweeper);
  }

  async getSelectorMemory(key: SelectorMemoryKey, ttlS: number): Promise<string | null> {
    const k = selectorMemoryKey(key);
    const e = this.selectorMemories.get(k);
    if (!e) return null;
    if (e.expires <= this.now()) {
      this.selectorMemories.delete(k);
      return null;
    }
    e.expires = this.now() + ttlS * 1000;
    return e.value;
  }
  async putSelectorMemory(key: SelectorMemoryKey, value: string, ttlS: number): Promise<void> {
    if (Buffer.byteLength(value, 'utf8') > MAX_SELECTOR_MEMORY_BYTES) return;
    this.selectorMemories.set(selectorMemoryKey(key), { value, expires: this.now() + ttlS * 1000 });
  }

  private sweep() {
    const now = this.now();
    for (const [k, e] of [...this.selectorMemories.entries()]) if (e.expires <= now) this.selectorMemories.delete(k);
    for (const [k, e] of [...this.idem.entries()]) if (e.expires <= now) this.idem.delete(k);
    for (const [k, e] of [...this.quotaUsed.entries()]) if (e.expires <= now) this.quotaUsed.delete(k);
    for (const a of this.artifacts.values()) {
      if (a.meta.expires_at !== null && Date.parse(a.meta.expires_at) <= now) a.body = null;
    }
  }
}

/** Sets (or with null drops) one of a team's own limits; a team left with none has no entry. */
function setTeamLimit<K extends string>(limits: Map<string, Partial<Record<K, number>>>, teamId: string, key: K, value: number | null) {
  const o: Partial<Record<K, number>> = { ...limits.get(teamId) };
  if (value === null) delete o[key];
  else o[key] = value;
  if (Object.keys(o).length === 0) limits.delete(teamId);
  else limits.set(teamId, o);
}

function publicKey(k: ApiKeyRecord & { hash: string }): ApiKeyRecord {
  const { hash: _hash, ...rest } = k;
  return { ...rest, scopes: [...rest.scopes] };
}

function selectorMemoryKey(k: SelectorMemoryKey): string {
  return JSON.stringify([k.team_id, k.domain, k.schema_key]);
}
