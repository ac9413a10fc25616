/** Fixed-width decimal, so due times sort as keys. */
export const pad = (n: number) => String(Math.max(0, Math.floor(n))).padStart(15, '0');

/** Every Kv key of the Kv outbox, under `<prefix>w:`. */
export class KvOutboxKeys {
  private readonly ns: string;
  constructor(prefix: string) {
    this.ns = `${prefix}w:`;
  }
  /** A crawl's stream: config, cursor, counters. */
  stream(crawlId: string) {
    return `${this.ns}s:${crawlId}`;
  }
  /** Streams not yet ended. */
  get open() {
    return `${this.ns}o:`;
  }
  openStream(crawlId: string) {
    return `${this.ns}o:${crawlId}`;
  }
  /** A crawl's delivery log: one record per event, by queueing position. */
  log(crawlId: string) {
    return `${this.ns}l:${crawlId}:`;
  }
  logAt(crawlId: string, pos: number) {
    return `${this.log(crawlId)}${pad(pos)}`;
  }
  delivery(id: string) {
    return `${this.ns}d:${id}`;
  }
  /** Deliveries by due time (epoch ms), then id. */
  get due() {
    return `${this.ns}q:`;
  }
  dueAt(at: number, id: string) {
    return `${this.ns}q:${pad(at)}|${id}`;
  }
}
