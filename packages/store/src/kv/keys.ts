import { createHash } from 'node:crypto';

/** Caller-chosen strings (team names, idempotency keys, domains) can be long: keys carry their hash instead. */
const digest = (s: string) => createHash('sha256').update(s).digest('base64url');

/** Ledger positions padded so key order is number order. */
const pos = (n: number) => String(n).padStart(12, '0');

/**
 * Every Kv key the Kv store uses, in one place, under `<prefix>s:` (the Kv is shared with the other Kv
 * backends of the process). Ids we generate (team_, key_, run_) are base64url and never contain ':'.
 */
export class KvStoreKeys {
  private readonly p: string;
  constructor(prefix: string) {
    this.p = `${prefix}s:`;
  }
  team(id: string) {
    return `${this.p}team:${id}`;
  }
  teamByName(name: string) {
    return `${this.p}team-name:${digest(name)}`;
  }
  /** Every team under its position (team-order.ts): a range over this prefix lists them oldest first. */
  teamsPrefix() {
    return `${this.p}teams:`;
  }
  teamAt(position: string) {
    return `${this.teamsPrefix()}${position}`;
  }
  /** A key's record and its secret's hash. */
  apiKey(id: string) {
    return `${this.p}apikey:${id}`;
  }
  /** The id of the newest key with this secret hash. */
  apiKeyByHash(hash: string) {
    return `${this.p}apikey-hash:${hash}`;
  }
  /** A team's keys in creation order. */
  teamKeysPrefix(teamId: string) {
    return `${this.p}team-keys:${teamId}:`;
  }
  teamKey(teamId: string, createdAt: string, keyId: string) {
    return `${this.teamKeysPrefix(teamId)}${createdAt} ${keyId}`;
  }
  run(id: string) {
    return `${this.p}run:${id}`;
  }
  artifactMeta(runId: string, key: string) {
    return `${this.p}artifact:${runId}:${digest(key)}:meta`;
  }
  artifactBody(runId: string, key: string) {
    return `${this.p}artifact:${runId}:${digest(key)}:body`;
  }
  idempotency(key: string) {
    return `${this.p}idem:${digest(key)}`;
  }
  balance(teamId: string) {
    return `${this.p}ledger:${teamId}:balance`;
  }
  /** How many entries the team's ledger holds (the next entry's position). */
  ledgerCount(teamId: string) {
    return `${this.p}ledger:${teamId}:count`;
  }
  ledgerEntriesPrefix(teamId: string) {
    return `${this.p}ledger:${teamId}:e:`;
  }
  ledgerEntry(teamId: string, position: number) {
    return `${this.ledgerEntriesPrefix(teamId)}${pos(position)}`;
  }
  charged(teamId: string, runId: string, reason: string) {
    return `${this.p}ledger:${teamId}:charged:${digest(`${runId}\n${reason}`)}`;
  }
  selectorMemory(teamId: string, domain: string, schemaKey: string) {
    return `${this.p}selmem:${digest(JSON.stringify([teamId, domain, schemaKey]))}`;
  }
  rateWindow(teamId: string, routeClass: string) {
    return `${this.p}ratelimit:${teamId}:w:${routeClass}`;
  }
  rateOverrides(teamId: string) {
    return `${this.p}ratelimit:${teamId}:limits`;
  }
  quotaLimits(teamId: string) {
    return `${this.p}quota:${teamId}:limits`;
  }
  quotaUsed(teamId: string, resource: string, month: string) {
    return `${this.p}quota:${teamId}:used:${month}:${resource}`;
  }
  quotaReturned(teamId: string, resource: string, month: string, once: string) {
    return `${this.p}quota:${teamId}:returned:${month}:${resource}:${digest(once)}`;
  }
}
