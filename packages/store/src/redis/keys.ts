/**
 * Every Redis key the store uses, in one place. Keys of one team's ledger share a hash tag so the charge
 * script stays on one Redis Cluster slot; teams, their names and API keys share the `{teams}` tag, so creating a
 * team or rotating a key is one atomic script there too (team-keys-layout.ts moves an older layout's records).
 */
export class StoreKeys {
  constructor(private readonly prefix: string) {}
  /** The hash-tagged head of every team, team-name and API-key record. */
  get teamsBase() {
    return `${this.prefix}{teams}:`;
  }
  team(id: string) {
    return `${this.teamsBase}team:${id}`;
  }
  /** Every team by its position (creation time, id), for listing: a sorted set of equal scores, read BYLEX. */
  teams() {
    return `${this.teamsBase}teams`;
  }
  teamByName(name: string) {
    return `${this.teamsBase}team-name:${name}`;
  }
  apiKeyByHash(hash: string) {
    return `${this.teamsBase}apikey:${hash}`;
  }
  apiKeyHashById(id: string) {
    return `${this.teamsBase}apikey-id:${id}`;
  }
  teamKeys(teamId: string) {
    return `${this.teamsBase}team-keys:${teamId}`;
  }
  /** Set once team-keys-layout.ts has moved this prefix's records under `{teams}` (or found none to move). */
  teamsLayout() {
    return `${this.teamsBase}layout`;
  }
  run(id: string) {
    return `${this.prefix}run:${id}`;
  }
  artifactMeta(runId: string, key: string) {
    return `${this.prefix}artifact:{${runId}}:${key}:meta`;
  }
  artifactBody(runId: string, key: string) {
    return `${this.prefix}artifact:{${runId}}:${key}:body`;
  }
  idempotency(key: string) {
    return `${this.prefix}idem:${key}`;
  }
  balance(teamId: string) {
    return `${this.prefix}ledger:{${teamId}}:balance`;
  }
  charged(teamId: string) {
    return `${this.prefix}ledger:{${teamId}}:charged`;
  }
  ledgerEntries(teamId: string) {
    return `${this.prefix}ledger:{${teamId}}:entries`;
  }
  selectorMemory(teamId: string, domain: string, schemaKey: string) {
    return `${this.prefix}selmem:${teamId}:${domain}:${schemaKey}`;
  }
  /** One (team, route class) rate-limit window: hash of slot second -> requests counted. Same slot as the overrides. */
  rateWindow(teamId: string, routeClass: string) {
    return `${this.prefix}ratelimit:{${teamId}}:w:${routeClass}`;
  }
  /** A team's own rate limits: hash of route class -> requests per minute. */
  rateOverrides(teamId: string) {
    return `${this.prefix}ratelimit:{${teamId}}:limits`;
  }
  /** A team's monthly quota limits: hash of resource -> units per month. Same slot as its usage. */
  quotaLimits(teamId: string) {
    return `${this.prefix}quota:{${teamId}}:limits`;
  }
  /** A team's quota usage in one month (YYYY-MM): hash of resource -> units counted. */
  quotaUsed(teamId: string, month: string) {
    return `${this.prefix}quota:{${teamId}}:used:${month}`;
  }
  /** Give-backs already made against a month's usage: set of "<resource>\n<mark>". */
  quotaReturned(teamId: string, month: string) {
    return `${this.prefix}quota:{${teamId}}:returned:${month}`;
  }
}
