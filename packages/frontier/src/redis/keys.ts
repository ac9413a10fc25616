/**
 * Every Redis key of the frontier. Keys of one crawl share the hash tag `{<crawl id>}` so its Lua scripts stay on
 * one Redis Cluster slot; the per-host queues `…q:<host>` are derived inside scripts from the same tagged base.
 * Directory keys (workers, shards, politeness) are global and only ever touched one key per command; the crawl
 * index's keys share the hash tag `{index}`.
 */
export class FrontierKeys {
  constructor(private readonly prefix: string) {}
  crawlBase(id: string) {
    return `${this.prefix}crawl:{${id}}:`;
  }
  crawl(id: string) {
    const b = this.crawlBase(id);
    return {
      base: b,
      meta: `${b}meta`,
      seen: `${b}seen`,
      leases: `${b}leases`,
      items: `${b}items`,
      hosts: `${b}hosts`,
      queue: (host: string) => `${b}q:${host}`,
    };
  }
  workers() {
    return `${this.prefix}workers`;
  }
  /** A worker's last report (JSON), expiring with its membership. */
  workerReport(id: string) {
    return `${this.prefix}worker:${id}:report`;
  }
  shards() {
    return `${this.prefix}shards`;
  }
  shardOwner(host: string) {
    return `${this.prefix}shard:{${host}}:owner`;
  }
  shardCrawls(host: string) {
    return `${this.prefix}shard:{${host}}:crawls`;
  }
  hostSlow(host: string) {
    return `${this.prefix}shard:{${host}}:slow`;
  }
  robots(host: string) {
    return `${this.prefix}robots:${host}`;
  }
  activeCrawls() {
    return `${this.prefix}crawls:active`;
  }
  /** The operator's newest-first index of every crawl held (`@trawl/redis` RedisRecordIndex), one hash tag. */
  crawlIndex() {
    const b = `${this.prefix}crawls:{index}:`;
    return { all: `${b}all`, teamBase: `${b}team:`, expiring: `${b}expiring` };
  }
  /** Pub/sub channel on which new work is announced to workers. */
  workChannel() {
    return `${this.prefix}work`;
  }
}
