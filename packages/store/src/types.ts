import type { PublicRun, QuotaResource, RateLimitClass } from '@trawl/contract';

export const KEY_SCOPES = ['fetch', 'crawl', 'trends', 'runs'] as const;
export type KeyScope = (typeof KEY_SCOPES)[number];

export interface TeamRecord {
  id: string;
  name: string;
  created_at: string;
  /** When an operator disabled the team (its API keys then get 403 on every /v1 route), or null. */
  disabled_at: string | null;
}

export interface ApiKeyRecord {
  id: string;
  team_id: string;
  label: string;
  scopes: KeyScope[];
  created_at: string;
  revoked_at: string | null;
}

/** One page of teams in creation order; `next_after` continues after the last one (null: no more). */
export interface TeamPage {
  teams: TeamRecord[];
  next_after: string | null;
}

export interface TeamStore {
  createTeam(name: string): Promise<TeamRecord>;
  getTeam(id: string): Promise<TeamRecord | null>;
  findTeamByName(name: string): Promise<TeamRecord | null>;
  /** Every team, disabled ones included, oldest first: up to `limit` after the position `after` (a `next_after`). */
  listTeams(opts: { limit: number; after?: string }): Promise<TeamPage>;
  /** Disables (keeping the first disabled_at) or enables a team; null when there is no such team. */
  setTeamDisabled(id: string, disabled: boolean): Promise<TeamRecord | null>;
  /** Stores only the hash of `secret` (a fresh one is generated when omitted) and returns the secret once. */
  createApiKey(
    teamId: string,
    opts: { label: string; scopes: KeyScope[]; secret?: string },
  ): Promise<{ key: ApiKeyRecord; secret: string }>;
  /** The live (not revoked) key whose hash matches, or null. */
  findApiKey(secret: string): Promise<ApiKeyRecord | null>;
  listApiKeys(teamId: string): Promise<ApiKeyRecord[]>;
  /** A key of the team, revoked or not; null when the team has no key of that id. */
  getApiKey(teamId: string, keyId: string): Promise<ApiKeyRecord | null>;
  revokeApiKey(teamId: string, keyId: string): Promise<boolean>;
  /**
   * Replaces a live key by a new one (new secret, same team, label and scopes) and revokes it, atomically: of
   * concurrent rotations of one key exactly one succeeds. null when the team has no live key of that id.
   */
  rotateApiKey(teamId: string, keyId: string): Promise<{ key: ApiKeyRecord; secret: string } | null>;
}

/** A run as stored: the public fields plus its owner. Page content lives in the run's artifacts. */
export interface RunRecord {
  run: PublicRun;
  team_id: string;
  /** For crawl page runs: the crawl the page belongs to. */
  crawl_id?: string;
  /** Why a failed run delivered nothing (public-safe). */
  failure?: { block_reason: string; retryable: boolean };
}

export interface RunStore {
  createRun(record: RunRecord): Promise<void>;
  /** Replaces the stored record of an existing run. */
  saveRun(record: RunRecord): Promise<void>;
  getRun(id: string): Promise<RunRecord | null>;
}

export interface ArtifactMeta {
  run_id: string;
  key: string;
  team_id: string;
  content_type: string;
  crawl_id: string | null;
  created_at: string;
  /** ISO timestamp after which the body is gone (410), or null. */
  expires_at: string | null;
}

export interface ArtifactStore {
  putArtifact(meta: ArtifactMeta, body: Buffer): Promise<void>;
  /** null: never existed. body null: existed but its retention has elapsed. */
  getArtifact(runId: string, key: string): Promise<{ meta: ArtifactMeta; body: Buffer | null } | null>;
}

export interface StoredResponse {
  status: number;
  body: string;
}

export type IdempotencyBegin =
  | { state: 'started' }
  | { state: 'in_progress' }
  | { state: 'conflict' }
  | { state: 'replay'; response: StoredResponse };

export interface IdempotencyStore {
  /**
   * Claims `key` for a request whose body hashes to `fingerprint`. Atomic: of many concurrent callers with the
   * same key exactly one gets `started`. The claim lapses after `leaseS` unless completed.
   */
  beginIdempotent(key: string, fingerprint: string, leaseS: number): Promise<IdempotencyBegin>;
  completeIdempotent(key: string, fingerprint: string, response: StoredResponse, ttlS: number): Promise<void>;
  /** Drops a claim whose request ended without a response worth replaying (e.g. an internal error). */
  releaseIdempotent(key: string, fingerprint: string): Promise<void>;
  /** Read only: whether `key` holds a completed response for this `fingerprint` (what `beginIdempotent` would replay). */
  hasReplay(key: string, fingerprint: string): Promise<boolean>;
}

export interface LedgerEntry {
  team_id: string;
  run_id: string;
  units: number;
  reason: string;
  at: string;
}

export interface Ledger {
  /**
   * Records a charge once per (run_id, reason). In enforce mode refuses (ok false, nothing recorded) when the
   * balance is below `units`; in shadow mode always records, even into a negative balance.
   */
  charge(entry: LedgerEntry, enforce: boolean): Promise<{ ok: boolean; balance: number }>;
  balance(teamId: string): Promise<number>;
  grantCredits(teamId: string, units: number): Promise<number>;
  entries(teamId: string, limit: number): Promise<LedgerEntry[]>;
  /**
   * Entries newest first: up to `limit` recorded before the position `before` (a `next_before`; absent: from the
   * newest). Positions count a team's entries from its first, so new charges do not shift a page.
   */
  ledgerPage(teamId: string, opts: { limit: number; before?: number }): Promise<LedgerPage>;
}

export interface LedgerPage {
  entries: LedgerEntry[];
  /** The position to pass as `before` for the next (older) page; null when there is none. */
  next_before: number | null;
}

/** Where a remembered selector memory lives: one team, one registrable domain, one extraction schema. */
export interface SelectorMemoryKey {
  team_id: string;
  domain: string;
  schema_key: string;
}

/** The largest selector memory value a store keeps (bytes of its JSON); a larger one is not stored. */
export const MAX_SELECTOR_MEMORY_BYTES = 64 * 1024;

/**
 * Adaptive extraction's selector memory: one opaque JSON value per key, never shared between teams and never shown
 * to callers. It expires after `ttlS` unused: every read restarts the clock.
 */
export interface SelectorMemoryStore {
  getSelectorMemory(key: SelectorMemoryKey, ttlS: number): Promise<string | null>;
  putSelectorMemory(key: SelectorMemoryKey, value: string, ttlS: number): Promise<void>;
}

/** One rate-limit decision for a (team, route class). */
export interface RateLimitDecision {
  allowed: boolean;
  /** Requests allowed in any 60 seconds; 0 = unlimited (nothing was counted, no other field means anything). */
  limit: number;
  /** Requests left now, after this one if it was allowed. */
  remaining: number;
  /** Refused: whole seconds until a request would be allowed (at least 1). Allowed: 0. */
  retry_after_s: number;
  /** Whole seconds until the oldest request still counted leaves the window (Remaining goes up); refused: = retry_after_s. */
  reset_s: number;
  /** The one-second slot this request was counted in (for a refund), or null when nothing was counted. */
  slot: number | null;
}

/**
 * Per-team rate limits: a sliding window of 60 seconds counted in one-second slots (the current second and the 60
 * before it, so a request counts for 60 to 61 seconds and no 60-second span ever holds more than the limit). One
 * atomic step per decision: the team's override (else the default) is read, the window checked and the request
 * counted together.
 */
export interface RateLimitStore {
  takeRateLimit(teamId: string, routeClass: RateLimitClass, defaultPerMinute: number): Promise<RateLimitDecision>;
  /** Gives back a request counted in `slot` (an idempotent replay); nothing when that slot has left the window. */
  refundRateLimit(teamId: string, routeClass: RateLimitClass, slot: number): Promise<void>;
  /** Sets a team's own limit for a class (0 = unlimited), or with null drops it (the default applies again). */
  setRateLimit(teamId: string, routeClass: RateLimitClass, perMinute: number | null): Promise<void>;
  /** A team's overrides (classes without one follow the defaults). */
  getRateLimits(teamId: string): Promise<Partial<Record<RateLimitClass, number>>>;
}

/** One resource's quota for a month: the team's limit (null = unlimited) and the units counted. */
export interface QuotaUsage {
  monthly: number | null;
  used: number;
}

/** One quota decision: whether the units were taken, and the month's usage and limit after it. */
export interface QuotaTake extends QuotaUsage {
  ok: boolean;
}

/**
 * Monthly quotas per (team, resource, calendar month `YYYY-MM` UTC), decided by `quota-rule.ts`. A take reads the
 * limit, checks and counts in one atomic step, so concurrent takes never pass the limit together. Usage is kept a
 * few months after its month ends (QUOTA_USAGE_MONTHS_KEPT), then forgotten.
 */
export interface QuotaStore {
  /** Takes `units` (at least 1) of the month when they fit; refused: nothing counted. Unlimited: counted anyway. */
  takeQuota(teamId: string, resource: QuotaResource, month: string, units: number): Promise<QuotaTake>;
  /**
   * Gives back `units` taken in `month`, once per `once` (a repeat with the same mark changes nothing), never below
   * zero; nothing when that month's usage is already forgotten.
   */
  returnQuota(teamId: string, resource: QuotaResource, month: string, units: number, once: string): Promise<void>;
  /** Sets a team's monthly limit for a resource, or with null drops it (unlimited). */
  setQuota(teamId: string, resource: QuotaResource, monthly: number | null): Promise<void>;
  /** Every resource's limit and the units counted in `month`. */
  getQuotas(teamId: string, month: string): Promise<Record<QuotaResource, QuotaUsage>>;
}

export interface Store extends TeamStore, RunStore, ArtifactStore, IdempotencyStore, Ledger, SelectorMemoryStore, RateLimitStore, QuotaStore {
  readonly kind: 'memory' | 'redis' | 'disk';
  /** Resolves when the backend answers, rejects when it cannot be reached (health checks). On a Kv (kind memory or disk): fine while the Kv is open. */
  ping(): Promise<void>;
  /** On a Redis Cluster: its state as the gateway sees it (null on one server or a Kv). */
  clusterHealth?(): Promise<RedisClusterHealth | null>;
  close(): Promise<void>;
}

/** A Redis Cluster as /healthz and /readyz report it: `ok` once every slot is served and every master answers. */
export interface RedisClusterHealth {
  state: 'ok' | 'fail';
  masters: number;
  masters_answering: number;
}
