import type { QuotaResource, RateLimitClass } from '@trawl/contract';
import { MEMORY_DIR, type Kv, type KvTx } from '@trawl/kv';
import { hashSecret, newApiKey, newId } from '../ids.ts';
import { ARTIFACT_TOMBSTONE_S } from '../retention.ts';
import { teamPosition } from '../team-order.ts';
import { MAX_SELECTOR_MEMORY_BYTES } from '../types.ts';
import type {
  ApiKeyRecord,
  ArtifactMeta,
  IdempotencyBegin,
  LedgerEntry,
  LedgerPage,
  QuotaTake,
  RateLimitDecision,
  RunRecord,
  SelectorMemoryKey,
  Store,
  StoredResponse,
  TeamPage,
  TeamRecord,
} from '../types.ts';
import { KvStoreKeys } from './keys.ts';
import { chargeOnce, grant, pageOf } from './kv-ledger.ts';
import { quotasOf, refundRate, returnQuotaUnits, setTeamLimit, takeQuotaUnits, takeRate } from './kv-limits.ts';

interface StoredKey {
  key: ApiKeyRecord;
  hash: string;
}

/** An idempotency claim: the body fingerprint, and the response once completed. */
interface IdemRecord {
  f: string;
  response?: StoredResponse;
}

/**
 * Embedded-mode store on the process's Kv (LMDB in the data directory, or in memory): every record lives in the
 * Kv, and every rule that reads then writes runs in one Kv transaction, the way the Redis backend runs it in one Lua
 * script.
 * Time-to-live rules are key expiries; whoever opened the Kv sweeps expired keys and closes it.
 */
export class KvStore implements Store {
  /** `memory` on the in-memory Kv (TRAWL_DATA_DIR=:memory:): nothing outlives the process, no key file is kept. */
  readonly kind: 'memory' | 'disk';
  private readonly k: KvStoreKeys;

  constructor(
    private readonly kv: Kv,
    prefix = '',
    private readonly now: () => number = Date.now,
  ) {
    this.k = new KvStoreKeys(prefix);
    this.kind = kv.dir === MEMORY_DIR ? 'memory' : 'disk';
  }

  /** One atomic step (every method is async, so a throw inside reaches the caller as a rejection). */
  private tx<T>(fn: (tx: KvTx) => T): T {
    return this.kv.transact(fn);
  }

  async createTeam(name: string): Promise<TeamRecord> {
    return this.tx((tx) => {
      // One team per name: a second creation returns the first.
      const id = tx.get<string>(this.k.teamByName(name));
      const existing = id === undefined ? undefined : tx.get<TeamRecord>(this.k.team(id));
      if (existing) return existing;
      const team: TeamRecord = { id: id ?? newId('team'), name, created_at: this.iso(), disabled_at: null };
      tx.put(this.k.teamByName(name), team.id);
      tx.put(this.k.team(team.id), team);
      tx.put(this.k.teamAt(teamPosition(team)), team.id);
      return team;
    });
  }
  async getTeam(id: string) {
    return this.tx((tx) => tx.get<TeamRecord>(this.k.team(id)) ?? null);
  }
  async findTeamByName(name: string) {
    return this.tx((tx) => {
      const id = tx.get<string>(this.k.teamByName(name));
      return (id !== undefined && tx.get<TeamRecord>(this.k.team(id))) || null;
    });
  }
  async listTeams(opts: { limit: number; after?: string }): Promise<TeamPage> {
    return this.tx((tx) => {
      const prefix = this.k.teamsPrefix();
      const start = opts.after === undefined ? undefined : this.k.teamAt(opts.after);
      const at: { position: string; id: string }[] = [];
      // One more than asked (and the `after` entry itself, skipped): whether a next page exists.
      for (const { key, value } of tx.range<string>({ prefix, start, limit: opts.limit + 2 })) {
        if (key === start) continue;
        if (at.length > opts.limit) break;
        at.push({ position: key.slice(prefix.length), id: value });
      }
      const page = at.slice(0, opts.limit);
      const teams = page.map((p) => tx.get<TeamRecord>(this.k.team(p.id))).filter((t) => t !== undefined);
      return { teams, next_after: at.length > opts.limit ? page[page.length - 1].position : null };
    });
  }
  async setTeamDisabled(id: string, disabled: boolean) {
    return this.tx((tx) => {
      const team = tx.get<TeamRecord>(this.k.team(id));
      if (!team) return null;
      team.disabled_at = disabled ? (team.disabled_at ?? this.iso()) : null;
      tx.put(this.k.team(id), team);
      return team;
    });
  }

  async createApiKey(teamId: string, opts: { label: string; scopes: ApiKeyRecord['scopes']; secret?: string }) {
    return this.tx((tx) => this.addKey(tx, teamId, opts));
  }
  private addKey(tx: KvTx, teamId: string, opts: { label: string; scopes: ApiKeyRecord['scopes']; secret?: string }) {
    const { key, secret, hash } = newApiKey(teamId, opts, this.iso());
    tx.put(this.k.apiKey(key.id), { key, hash } satisfies StoredKey);
    tx.put(this.k.apiKeyByHash(hash), key.id);
    tx.put(this.k.teamKey(teamId, key.created_at, key.id), key.id);
    return { key, secret };
  }
  async findApiKey(secret: string) {
    return this.tx((tx) => {
      const id = tx.get<string>(this.k.apiKeyByHash(hashSecret(secret)));
      const stored = id === undefined ? undefined : tx.get<StoredKey>(this.k.apiKey(id));
      return stored && stored.key.revoked_at === null ? stored.key : null;
    });
  }
  async listApiKeys(teamId: string) {
    return this.tx((tx) => {
      const out: ApiKeyRecord[] = [];
      for (const { value } of tx.range<string>({ prefix: this.k.teamKeysPrefix(teamId) })) {
        const stored = tx.get<StoredKey>(this.k.apiKey(value));
        if (stored) out.push(stored.key);
      }
      return out;
    });
  }
  async getApiKey(teamId: string, keyId: string) {
    return this.tx((tx) => {
      const stored = tx.get<StoredKey>(this.k.apiKey(keyId));
      return stored && stored.key.team_id === teamId ? stored.key : null;
    });
  }
  async revokeApiKey(teamId: string, keyId: string) {
    return this.tx((tx) => this.revoke(tx, teamId, keyId) !== null);
  }
  /** Revokes a live key of the team; the revoked key, or null when there is none. */
  private revoke(tx: KvTx, teamId: string, keyId: string): ApiKeyRecord | null {
    const stored = tx.get<StoredKey>(this.k.apiKey(keyId));
    if (!stored || stored.key.team_id !== teamId || stored.key.revoked_at) return null;
    stored.key.revoked_at = this.iso();
    tx.put(this.k.apiKey(keyId), stored);
    return stored.key;
  }
  async rotateApiKey(teamId: string, keyId: string) {
    // Revocation and the new key in one transaction: of concurrent rotations only the first finds the key live.
    return this.tx((tx) => {
      const old = this.revoke(tx, teamId, keyId);
      return old ? this.addKey(tx, teamId, { label: old.label, scopes: old.scopes }) : null;
    });
  }

  // Runs are kept as JSON, like Redis: what is read back has exactly the fields JSON keeps.
  async createRun(record: RunRecord) {
    await this.tx((tx) => {
      if (tx.has(this.k.run(record.run.id))) throw new Error('run id already exists');
      tx.put(this.k.run(record.run.id), JSON.stringify(record));
    });
  }
  async saveRun(record: RunRecord) {
    await this.tx((tx) => tx.put(this.k.run(record.run.id), JSON.stringify(record)));
  }
  async getRun(id: string) {
    const s = await this.tx((tx) => tx.get<string>(this.k.run(id)));
    return s === undefined ? null : (JSON.parse(s) as RunRecord);
  }

  async putArtifact(meta: ArtifactMeta, body: Buffer) {
    // The body goes at expires_at; the record stays ARTIFACT_TOMBSTONE_S longer so a late download answers 410.
    const at = meta.expires_at === null ? undefined : Date.parse(meta.expires_at);
    await this.tx((tx) => {
      tx.put(this.k.artifactMeta(meta.run_id, meta.key), meta, { expiresAt: at === undefined ? undefined : at + ARTIFACT_TOMBSTONE_S * 1000 });
      tx.put(this.k.artifactBody(meta.run_id, meta.key), body, { expiresAt: at });
    });
  }
  async getArtifact(runId: string, key: string) {
    return this.tx((tx) => {
      const meta = tx.get<ArtifactMeta>(this.k.artifactMeta(runId, key));
      if (!meta) return null;
      // The body key expires by the Kv's clock; the check also covers a store clock that runs ahead of it.
      if (meta.expires_at !== null && Date.parse(meta.expires_at) <= this.now()) return { meta, body: null };
      const body = tx.get<Uint8Array>(this.k.artifactBody(runId, key));
      return { meta, body: body === undefined ? null : Buffer.from(body) };
    });
  }

  async beginIdempotent(key: string, fingerprint: string, leaseS: number): Promise<IdempotencyBegin> {
    return this.tx((tx) => {
      const k = this.k.idempotency(key);
      const e = tx.get<IdemRecord>(k);
      if (!e) {
        tx.put(k, { f: fingerprint } satisfies IdemRecord, { expiresAt: this.now() + leaseS * 1000 });
        return { state: 'started' as const };
      }
      if (e.f !== fingerprint) return { state: 'conflict' as const };
      return e.response ? { state: 'replay' as const, response: e.response } : { state: 'in_progress' as const };
    });
  }
  async completeIdempotent(key: string, fingerprint: string, response: StoredResponse, ttlS: number) {
    await this.tx((tx) => {
      const k = this.k.idempotency(key);
      const e = tx.get<IdemRecord>(k);
      if (e && e.f !== fingerprint) return;
      const record: IdemRecord = { f: fingerprint, response: { status: response.status, body: response.body } };
      tx.put(k, record, { expiresAt: this.now() + ttlS * 1000 });
    });
  }
  async releaseIdempotent(key: string, fingerprint: string) {
    await this.tx((tx) => {
      const k = this.k.idempotency(key);
      const e = tx.get<IdemRecord>(k);
      if (e && e.f === fingerprint && !e.response) tx.del(k);
    });
  }
  async hasReplay(key: string, fingerprint: string) {
    const e = await this.tx((tx) => tx.get<IdemRecord>(this.k.idempotency(key)));
    return !!e && e.f === fingerprint && !!e.response;
  }

  async charge(entry: LedgerEntry, enforce: boolean) {
    return this.tx((tx) => chargeOnce(tx, this.k, entry, enforce, this.now()));
  }
  async balance(teamId: string) {
    return this.tx((tx) => tx.get<number>(this.k.balance(teamId)) ?? 0);
  }
  async grantCredits(teamId: string, units: number) {
    return this.tx((tx) => grant(tx, this.k, teamId, units));
  }
  async entries(teamId: string, limit: number) {
    return this.tx((tx) => [...tx.range<LedgerEntry>({ prefix: this.k.ledgerEntriesPrefix(teamId), reverse: true, limit })].map((e) => e.value));
  }
  async ledgerPage(teamId: string, opts: { limit: number; before?: number }): Promise<LedgerPage> {
    return this.tx((tx) => pageOf(tx, this.k, teamId, opts));
  }

  async getSelectorMemory(key: SelectorMemoryKey, ttlS: number): Promise<string | null> {
    // Read and restart the time-to-live together: memory expires only after ttlS unused.
    return this.tx((tx) => {
      const k = this.k.selectorMemory(key.team_id, key.domain, key.schema_key);
      const value = tx.get<string>(k);
      if (value === undefined) return null;
      tx.expire(k, this.now() + ttlS * 1000);
      return value;
    });
  }
  async putSelectorMemory(key: SelectorMemoryKey, value: string, ttlS: number): Promise<void> {
    if (Buffer.byteLength(value, 'utf8') > MAX_SELECTOR_MEMORY_BYTES) return;
    const k = this.k.selectorMemory(key.team_id, key.domain, key.schema_key);
    await this.tx((tx) => tx.put(k, value, { expiresAt: this.now() + ttlS * 1000 }));
  }

  async takeRateLimit(teamId: string, routeClass: RateLimitClass, defaultPerMinute: number): Promise<RateLimitDecision> {
    return this.tx((tx) => takeRate(tx, this.k, teamId, routeClass, defaultPerMinute, this.now()));
  }
  async refundRateLimit(teamId: string, routeClass: RateLimitClass, slot: number) {
    await this.tx((tx) => refundRate(tx, this.k, teamId, routeClass, slot));
  }
  async setRateLimit(teamId: string, routeClass: RateLimitClass, perMinute: number | null) {
    await this.tx((tx) => setTeamLimit(tx, this.k.rateOverrides(teamId), routeClass, perMinute));
  }
  async getRateLimits(teamId: string) {
    return this.tx((tx) => ({ ...tx.get<Partial<Record<RateLimitClass, number>>>(this.k.rateOverrides(teamId)) }));
  }

  async takeQuota(teamId: string, resource: QuotaResource, month: string, units: number): Promise<QuotaTake> {
    return this.tx((tx) => takeQuotaUnits(tx, this.k, teamId, resource, month, units));
  }
  async returnQuota(teamId: string, resource: QuotaResource, month: string, units: number, once: string) {
    await this.tx((tx) => returnQuotaUnits(tx, this.k, teamId, resource, month, units, once));
  }
  async setQuota(teamId: string, resource: QuotaResource, monthly: number | null) {
    await this.tx((tx) => setTeamLimit(tx, this.k.quotaLimits(teamId), resource, monthly));
  }
  async getQuotas(teamId: string, month: string) {
    return this.tx((tx) => quotasOf(tx, this.k, teamId, month));
  }

  async ping() {
    // A read: rejects once the Kv is closed.
    await this.tx((tx) => tx.has(this.k.teamsPrefix()));
  }

  async close() {
    // The Kv belongs to whoever opened it (it is shared with the other Kv backends).
  }

  private iso() {
    return new Date(this.now()).toISOString();
  }
}
