/**
 * Every Redis key of the webhook outbox. All share the hash tag `{outbox}`, so each Lua script (which reaches a
 * delivery's and a stream's keys from the base it is given) stays on one Redis Cluster slot: the outbox holds
 * references (crawl, event, item number), never bodies, so one slot carries it. The scripts that reach keys from
 * the base (claim, settle) spell them as these methods do: `s:<crawl>`, `d:<id>`, `l:<crawl>`.
 */
export class OutboxKeys {
  readonly base: string;
  constructor(prefix: string) {
    this.base = `${prefix}webhooks:{outbox}:`;
  }
  /** Hash: config (JSON, with the secret), cursor, started, ended, counters, reason:<failure>. */
  stream(crawlId: string) {
    return `${this.base}s:${crawlId}`;
  }
  /** Set of crawls whose stream has not ended. */
  get open() {
    return `${this.base}open`;
  }
  /** Zset: delivery id -> due time (ms); a claimed delivery's score is its lease's end. */
  get due() {
    return `${this.base}due`;
  }
  /** Hash: crawl, type, seq, created_at, attempt, pos (its record in the crawl's log). Gone once settled. */
  delivery(id: string) {
    return `${this.base}d:${id}`;
  }
  /**
   * Hash: the crawl's delivery log, queueing position -> record JSON (DeliveryRecord, null fields left out). Kept
   * as long as the stream: it expires with it.
   */
  log(crawlId: string) {
    return `${this.base}l:${crawlId}`;
  }
}
