import { createHash } from 'node:crypto';

/** Fixed-width decimal, so numbers sort as keys. */
export const pad = (n: number, width = 15) => String(Math.max(0, Math.floor(n))).padStart(width, '0');

/** Queue positions are signed (a reclaimed or released page goes in front of the head): offset to sort as keys. */
const QUEUE_ORIGIN = 1e14;

/** URLs can be far longer than a key may be: the seen-set holds their sha256 (base64url). */
const urlHash = (url: string) => createHash('sha256').update(url).digest('base64url');

/**
 * Every Kv key of the frontier's Kv backends, under `<prefix>f:`. One crawl's keys share `…c:<id>:`, so expiring
 * a crawl walks one range; a host's queue entries are `…q:<host>|<position>` (no hostname holds a `|`).
 */
export class KvFrontierKeys {
  private readonly ns: string;
  constructor(prefix: string) {
    this.ns = `${prefix}f:`;
  }

  crawl(id: string) {
    const b = `${this.ns}c:${id}:`;
    return {
      base: b,
      /** Status and counters (KvCrawlMeta). */
      meta: `${b}m`,
      plan: `${b}p`,
      seen: (url: string) => `${b}s:${urlHash(url)}`,
      /** Hosts with (once) queued URLs: host -> queue bounds. */
      hosts: `${b}h:`,
      host: (host: string) => `${b}h:${host}`,
      queue: (host: string) => `${b}q:${host}|`,
      queueAt: (host: string, pos: number) => `${b}q:${host}|${pad(pos + QUEUE_ORIGIN)}`,
      /** Lease token -> request and expiry. */
      leases: `${b}l:`,
      lease: (token: string) => `${b}l:${token}`,
      /** Leases by expiry, for reclaim. */
      leaseExpiries: `${b}e:`,
      leaseExpiry: (until: number, token: string) => `${b}e:${pad(until)}|${token}`,
      /** Delivered items by sequence number: reads are ranges. */
      items: `${b}i:`,
      item: (seq: number) => `${b}i:${pad(seq, 12)}`,
    };
  }

  /** The operator's newest-first crawl index (KvRecordIndex). */
  crawlIndex() {
    return `${this.ns}x:`;
  }

  /** Directory keys: workers, hostname shards, politeness, robots.txt, active crawls. */
  directory() {
    const d = `${this.ns}d:`;
    return {
      workers: `${d}w:`,
      worker: (id: string) => `${d}w:${id}`,
      shards: `${d}s:`,
      shard: (host: string) => `${d}s:${host}`,
      shardCrawls: (host: string) => `${d}sc:${host}|`,
      shardCrawl: (host: string, crawlId: string) => `${d}sc:${host}|${crawlId}`,
      owners: `${d}o:`,
      owner: (host: string) => `${d}o:${host}`,
      slow: (host: string) => `${d}slow:${host}`,
      robots: (origin: string) => `${d}r:${origin.length > 300 ? urlHash(origin) : origin}`,
      active: `${d}a:`,
      activeCrawl: (id: string) => `${d}a:${id}`,
    };
  }
}
