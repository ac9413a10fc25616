import { QUOTA_RESOURCE_NAMES, type QuotaResource, type RateLimitClass } from '@trawl/contract';
import { getBuffer, isClusterConnection, loadScripts, sendCommand, type RedisConnection } from '@trawl/redis';
import { hashSecret, newApiKey, newId } from '../ids.ts';
import { quotaUsageExpiresAt } from '../quota-rule.ts';
import { ARTIFACT_TOMBSTONE_S } from '../retention.ts';
import type {
  ApiKeyRecord,
  ArtifactMeta,
  IdempotencyBegin,
  LedgerEntry,
  QuotaTake,
  QuotaUsage,
  LedgerPage,
  RateLimitDecision,
  RedisClusterHealth,
  RunRecord,
  SelectorMemoryKey,
  Store,
  TeamPage,
  TeamRecord,
} from '../types.ts';
import { MAX_SELECTOR_MEMORY_BYTES } from '../types.ts';
import { teamIdAt, teamPosition } from '../team-order.ts';
import { StoreKeys } from './keys.ts';

const scripts = loadScripts(new URL('./lua/', import.meta.url), [
  'apikey-rotate-4.lua',
  'team-create-3.lua',
  'idempotency-begin-1.lua',
  'idempotency-complete-1.lua',
  'idempotency-release-1.lua',
  'ledger-charge-3.lua',
  'rate-limit-take-2.lua',
  'rate-limit-refund-1.lua',
  'quota-take-2.lua',
  'quota-return-2.lua',
]);

/** How long an idle rate-limit window is kept: past its 61 one-second slots, with slack for clocks that disagree. */
const RATE_WINDOW_TTL_MS = 120_000;

/** Cluster-mode store: every gateway and worker shares it. Pinned by the same conformance suite as memory. */
export class RedisStore implements Store {
  readonly kind = 'redis' as const;
  private readonly k: StoreKeys;

  constructor(
    private readonly redis: RedisConnection,
    prefix: string,
    private readonly now: () => number = Date.now,
  ) {
    this.k = new StoreKeys(prefix);
  }

  async createTeam(name: string): Promise<TeamRecord> {
    const team: TeamRecord = { id: newId('team'), name, created_at: this.iso(), disabled_at: null };
    const id = await scripts['team-create'].run<string>(
      this.redis,
      [this.k.teamByName(name), this.k.team(team.id), this.k.teams()],
      [team.id, JSON.stringify(team), teamPosition(team)],
    );
    if (id === team.id) return team;
    // Named before the name, record and list entry were written together: a name left without its record gets one.
    const existing = await this.getTeam(id);
    if (existing) return existing;
    const repaired = { ...team, id };
    await this.redis.multi().set(this.k.team(id), JSON.stringify(repaired)).zAdd(this.k.teams(), { score: 0, value: teamPosition(repaired) }).exec();
    return repaired;
  }
  async getTeam(id: string) {
    return teamRecord(await this.redis.get(this.k.team(id)));
  }
  async findTeamByName(name: string) {
    const id = await this.redis.get(this.k.teamByName(name));
    return id ? this.getTeam(id) : null;
  }
  async listTeams(opts: { limit: number; after?: string }): Promise<TeamPage> {
    // One more than asked: whether a next page exists without a second read.
    const at = await this.redis.zRange(this.k.teams(), opts.after === undefined ? '-' : `(${opts.after}`, '+', {
      BY: 'LEX',
      LIMIT: { offset: 0, count: opts.limit + 1 },
    });
    const page = at.slice(0, opts.limit);
    const records = page.length ? await this.redis.mGet(page.map((p) => this.k.team(teamIdAt(p)))) : [];
    const teams = records.map(teamRecord).filter((t) => t !== null);
    return { teams, next_after: at.length > opts.limit ? page[page.length - 1] : null };
  }
  async setTeamDisabled(id: string, disabled: boolean) {
    const team = await this.getTeam(id);
    if (!team) return null;
    team.disabled_at = disabled ? (team.disabled_at ?? this.iso()) : null;
    await this.redis.set(this.k.team(id), JSON.stringify(team), { condition: 'XX' });
    return team;
  }
  async createApiKey(teamId: string, opts: { label: string; scopes: ApiKeyRecord['scopes']; secret?: string }) {
    const { key, secret, hash } = newApiKey(teamId, opts, this.iso());
    await this.redis
      .multi()
      .set(this.k.apiKeyByHash(hash), JSON.stringify(key))
      .set(this.k.apiKeyHashById(key.id), hash)
      .sAdd(this.k.teamKeys(teamId), key.id)
      .exec();
    return { key, secret };
  }
  async findApiKey(secret: string) {
    const s = await this.redis.get(this.k.apiKeyByHash(hashSecret(secret)));
    if (!s) return null;
    const key = JSON.parse(s) as ApiKeyRecord;
    return key.revoked_at === null ? key : null;
  }
  async listApiKeys(teamId: string) {
    const ids = await this.redis.sMembers(this.k.teamKeys(teamId));
    const out: ApiKeyRecord[] = [];
    for (const id of ids) {
      const hash = await this.redis.get(this.k.apiKeyHashById(id));
      const s = hash ? await this.redis.get(this.k.apiKeyByHash(hash)) : null;
      if (s) out.push(JSON.parse(s) as ApiKeyRecord);
    }
    return out;
  }
  async getApiKey(teamId: string, keyId: string) {
    const stored = await this.storedKey(keyId);
    return stored && stored.key.team_id === teamId ? stored.key : null;
  }
  async revokeApiKey(teamId: string, keyId: string) {
    const stored = await this.storedKey(keyId);
    if (!stored || stored.key.team_id !== teamId || stored.key.revoked_at) return false;
    await this.redis.set(this.k.apiKeyByHash(stored.hash), JSON.stringify({ ...stored.key, revoked_at: this.iso() }));
    return true;
  }
  async rotateApiKey(teamId: string, keyId: string) {
    const old = await this.storedKey(keyId);
    if (!old || old.key.team_id !== teamId || old.key.revoked_at) return null;
    const { key, secret, hash } = newApiKey(teamId, old.key, this.iso());
    const rotated = await scripts['apikey-rotate'].run<number>(
      this.redis,
      [this.k.apiKeyByHash(old.hash), this.k.apiKeyByHash(hash), this.k.apiKeyHashById(key.id), this.k.teamKeys(teamId)],
      [old.json, JSON.stringify({ ...old.key, revoked_at: this.iso() }), JSON.stringify(key), hash, key.id],
    );
    return rotated === 1 ? { key, secret } : null;
  }

  /** A key's record as stored (the JSON too, for compare-and-set) and its secret's hash. */
  private async storedKey(keyId: string) {
    const hash = await this.redis.get(this.k.apiKeyHashById(keyId));
    const json = hash ? await this.redis.get(this.k.apiKeyByHash(hash)) : null;
    return hash && json ? { hash, json, key: JSON.parse(json) as ApiKeyRecord } : null;
  }

  async createRun(record: RunRecord) {
    const ok = await this.redis.set(this.k.run(record.run.id), JSON.stringify(record), { condition: 'NX' });
    if (ok === null) throw new Error('run id already exists');
  }
  async saveRun(record: RunRecord) {
    await this.redis.set(this.k.run(record.run.id), JSON.stringify(record));
  }
  async getRun(id: string) {
    const s = await this.redis.get(this.k.run(id));
    return s ? (JSON.parse(s) as RunRecord) : null;
  }

  async putArtifact(meta: ArtifactMeta, body: Buffer) {
    const m = this.redis.multi();
    if (meta.expires_at === null) {
      m.set(this.k.artifactMeta(meta.run_id, meta.key), JSON.stringify(meta));
      m.set(this.k.artifactBody(meta.run_id, meta.key), body);
    } else {
      const at = Date.parse(meta.expires_at);
      m.set(this.k.artifactMeta(meta.run_id, meta.key), JSON.stringify(meta), {
        expiration: { type: 'PXAT', value: at + ARTIFACT_TOMBSTONE_S * 1000 },
      });
      m.set(this.k.artifactBody(meta.run_id, meta.key), body, { expiration: { type: 'PXAT', value: at } });
    }
    await m.exec();
  }
  async getArtifact(runId: string, key: string) {
    const s = await this.redis.get(this.k.artifactMeta(runId, key));
    if (!s) return null;
    const meta = JSON.parse(s) as ArtifactMeta;
    // Redis expires the body at expires_at; the check also covers a clock that runs ahead of Redis's.
    if (meta.expires_at !== null && Date.parse(meta.expires_at) <= this.now()) return { meta, body: null };
    return { meta, body: await getBuffer(this.redis, this.k.artifactBody(runId, key)) };
  }

  async beginIdempotent(key: string, fingerprint: string, leaseS: number): Promise<IdempotencyBegin> {
    const r = await scripts['idempotency-begin'].run<string[]>(this.redis, [this.k.idempotency(key)], [fingerprint, leaseS * 1000]);
    switch (r[0]) {
      case 'started':
      case 'conflict':
      case 'in_progress':
        return { state: r[0] };
      default:
        return { state: 'replay', response: { status: Number(r[1]), body: r[2] } };
    }
  }
  async completeIdempotent(key: string, fingerprint: string, response: { status: number; body: string }, ttlS: number) {
    await scripts['idempotency-complete'].run(this.redis, [this.k.idempotency(key)], [
      fingerprint,
      response.status,
      response.body,
      ttlS * 1000,
    ]);
  }
  async releaseIdempotent(key: string, fingerprint: string) {
    await scripts['idempotency-release'].run(this.redis, [this.k.idempotency(key)], [fingerprint]);
  }
  async hasReplay(key: string, fingerprint: string) {
    // Fields of idempotency-begin-1.lua's hash: f (fingerprint), status once completed.
    const [f, status] = await this.redis.hmGet(this.k.idempotency(key), ['f', 'status']);
    return f === fingerprint && status !== null;
  }

  async charge(entry: LedgerEntry, enforce: boolean) {
    const [ok, balance] = await scripts['ledger-charge'].run<[number, number]>(
      this.redis,
      [this.k.balance(entry.team_id), this.k.charged(entry.team_id), this.k.ledgerEntries(entry.team_id)],
      [`${entry.run_id}\n${entry.reason}`, entry.units, enforce ? '1' : '0', JSON.stringify(entry)],
    );
    return { ok: ok === 1, balance: Number(balance) };
  }
  async balance(teamId: string) {
    return Number((await this.redis.get(this.k.balance(teamId))) ?? 0);
  }
  async grantCredits(teamId: string, units: number) {
    return Number(await this.redis.incrBy(this.k.balance(teamId), units));
  }
  async entries(teamId: string, limit: number) {
    const list = await this.redis.lRange(this.k.ledgerEntries(teamId), -limit, -1);
    return list.map((s) => JSON.parse(s) as LedgerEntry).reverse();
  }
  async ledgerPage(teamId: string, opts: { limit: number; before?: number }): Promise<LedgerPage> {
    // The list only grows at its tail (RPUSH, never trimmed): a position from its head names one entry for ever.
    const k = this.k.ledgerEntries(teamId);
    const end = Math.min(opts.before ?? Infinity, await this.redis.lLen(k));
    const start = Math.max(0, end - opts.limit);
    if (end <= start) return { entries: [], next_before: null };
    const list = await this.redis.lRange(k, start, end - 1);
    return { entries: list.map((s) => JSON.parse(s) as LedgerEntry).reverse(), next_before: start > 0 ? start : null };
  }

  async getSelectorMemory(key: SelectorMemoryKey, ttlS: number): Promise<string | null> {
    // GETEX reads and restarts the time-to-live in one step: memory expires only after ttlS unused.
    const k = this.k.selectorMemory(key.team_id, key.domain, key.schema_key);
    return sendCommand<string | null>(this.redis, ['GETEX', k, 'EX', String(ttlS)]);
  }
  async putSelectorMemory(key: SelectorMemoryKey, value: string, ttlS: number): Promise<void> {
    if (Buffer.byteLength(value, 'utf8') > MAX_SELECTOR_MEMORY_BYTES) return;
    await this.redis.set(this.k.selectorMemory(key.team_id, key.domain, key.schema_key), value, { expiration: { type: 'EX', value: ttlS } });
  }

  async takeRateLimit(teamId: string, routeClass: RateLimitClass, defaultPerMinute: number): Promise<RateLimitDecision> {
    const r = await scripts['rate-limit-take'].run<number[]>(
      this.redis,
      [this.k.rateWindow(teamId, routeClass), this.k.rateOverrides(teamId)],
      [routeClass, defaultPerMinute, this.now(), RATE_WINDOW_TTL_MS],
    );
    const [allowed, limit, remaining, retry, reset, slot] = r.map(Number);
    return { allowed: allowed === 1, limit, remaining, retry_after_s: retry, reset_s: reset, slot: slot < 0 ? null : slot };
  }
  async refundRateLimit(teamId: string, routeClass: RateLimitClass, slot: number) {
    await scripts['rate-limit-refund'].run(this.redis, [this.k.rateWindow(teamId, routeClass)], [slot]);
  }
  async setRateLimit(teamId: string, routeClass: RateLimitClass, perMinute: number | null) {
    if (perMinute === null) await this.redis.hDel(this.k.rateOverrides(teamId), routeClass);
    else await this.redis.hSet(this.k.rateOverrides(teamId), routeClass, String(perMinute));
  }
  async getRateLimits(teamId: string) {
    const h = await this.redis.hGetAll(this.k.rateOverrides(teamId));
    const out: Partial<Record<RateLimitClass, number>> = {};
    for (const [k, v] of Object.entries(h)) out[k as RateLimitClass] = Number(v);
    return out;
  }

  async takeQuota(teamId: string, resource: QuotaResource, month: string, units: number): Promise<QuotaTake> {
    const r = await scripts['quota-take'].run<number[]>(
      this.redis,
      [this.k.quotaLimits(teamId), this.k.quotaUsed(teamId, month)],
      [resource, units, quotaUsageExpiresAt(month)],
    );
    const [ok, used, monthly] = r.map(Number);
    return { ok: ok === 1, used, monthly: monthly < 0 ? null : monthly };
  }
  async returnQuota(teamId: string, resource: QuotaResource, month: string, units: number, once: string) {
    await scripts['quota-return'].run(
      this.redis,
      [this.k.quotaUsed(teamId, month), this.k.quotaReturned(teamId, month)],
      [resource, units, once, quotaUsageExpiresAt(month)],
    );
  }
  async setQuota(teamId: string, resource: QuotaResource, monthly: number | null) {
    if (monthly === null) await this.redis.hDel(this.k.quotaLimits(teamId), resource);
    else await this.redis.hSet(this.k.quotaLimits(teamId), resource, String(monthly));
  }
  async getQuotas(teamId: string, month: string) {
    const [limits, used] = await Promise.all([this.redis.hGetAll(this.k.quotaLimits(teamId)), this.redis.hGetAll(this.k.quotaUsed(teamId, month))]);
    const out = {} as Record<QuotaResource, QuotaUsage>;
    for (const r of QUOTA_RESOURCE_NAMES) out[r] = { monthly: limits[r] === undefined ? null : Number(limits[r]), used: Number(used[r] ?? 0) };
    return out;
  }

  async ping() {
    // Fails at once while disconnected (no offline queue); a Redis that hangs is bounded by the caller's timeout.
    if (!isClusterConnection(this.redis)) {
      await this.redis.ping();
      return;
    }
    const health = await this.clusterHealth();
    if (health?.state !== 'ok') throw new Error('redis cluster not ok');
  }

  /** Every master asked at once: a cluster serves every key only while all its masters answer and its slots are covered. */
  async clusterHealth(): Promise<RedisClusterHealth | null> {
    const cluster = this.redis;
    if (!isClusterConnection(cluster)) return null;
    const masters = cluster.masters;
    const answers = await Promise.all(
      masters.map(async (m) => {
        try {
          const info = String(await (await cluster.nodeClient(m)).sendCommand(['CLUSTER', 'INFO']));
          return /cluster_state:ok/.test(info);
        } catch {
          return null;
        }
      }),
    );
    const answering = answers.filter((a) => a !== null).length;
    const ok = masters.length > 0 && answers.every((a) => a === true);
    return { state: ok ? 'ok' : 'fail', masters: masters.length, masters_answering: answering };
  }

  async close() {
    // The connection belongs to whoever opened it.
  }

  private iso() {
    return new Date(this.now()).toISOString();
  }
}

/** Team records written before teams could be disabled have no disabled_at: they are enabled. */
function teamRecord(json: string | null): TeamRecord | null {
  return json ? { disabled_at: null, ...(JSON.parse(json) as Omit<TeamRecord, 'disabled_at'>) } : null;
}
