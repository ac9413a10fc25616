import { LruMap } from '@trawl/contract';
import type { ShardDirectory, WorkerRecord, WorkerReport } from '../types.ts';
import { WORKER_FORGET_TTLS, workerRecord } from '../worker-records.ts';

/** robots.txt bodies kept (≤ 512 KiB each); an evicted origin's robots.txt is fetched again. */
export const MAX_MEMORY_ROBOTS = 1_000;
/** Hosts with a politeness pause (429/503); past the bound the least recently slowed host's pause is forgotten. */
export const MAX_MEMORY_SLOW_HOSTS = 10_000;

/** Embedded-mode directory: one process, so ownership and politeness live in maps. */
export class MemoryShardDirectory implements ShardDirectory {
  /** Worker id → last heartbeat and report; dropped once lost for WORKER_FORGET_TTLS heartbeat TTLs. */
  private members = new Map<string, { at: number; report: WorkerReport }>();
  private hosts = new Map<string, Set<string>>();
  private owners = new Map<string, { worker: string; until: number }>();
  // Keyed by hosts and origins the crawled pages chose, and never removed by the crawl: bounded.
  private slow: LruMap<string, number>;
  private robots: LruMap<string, { body: string | null; until: number }>;
  private active = new Set<string>();
  private watchers = new Set<() => void>();

  constructor(
    private readonly now: () => number = Date.now,
    private readonly workerTtlMs = 10_000,
    bounds: { robots?: number; slowHosts?: number } = {},
  ) {
    this.robots = new LruMap(bounds.robots ?? MAX_MEMORY_ROBOTS);
    this.slow = new LruMap(bounds.slowHosts ?? MAX_MEMORY_SLOW_HOSTS);
  }

  async heartbeat(workerId: string, now: number, report: WorkerReport) {
    this.members.set(workerId, { at: now, report: structuredClone(report) });
    const forgetBefore = now - WORKER_FORGET_TTLS * this.workerTtlMs;
    for (const [id, m] of this.members) if (m.at <= forgetBefore) this.members.delete(id);
  }
  async leave(workerId: string) {
    this.members.delete(workerId);
    for (const [h, o] of this.owners) if (o.worker === workerId) this.owners.delete(h);
  }
  async liveWorkers(now: number) {
    let n = 0;
    for (const m of this.members.values()) if (m.at > now - this.workerTtlMs) n += 1;
    return n;
  }
  async workers(now: number): Promise<WorkerRecord[]> {
    const forgetBefore = now - WORKER_FORGET_TTLS * this.workerTtlMs;
    const out: WorkerRecord[] = [];
    for (const [id, m] of this.members) if (m.at > forgetBefore) out.push(workerRecord(id, m.at, structuredClone(m.report), now, this.workerTtlMs));
    return out;
  }
  async shardOwners(hosts: string[]) {
    return hosts.map((h) => {
      const o = this.owners.get(h);
      return o && o.until > this.now() ? o.worker : null;
    });
  }
  async shards() {
    return [...this.hosts.keys()];
  }
  async registerHost(host: string, crawlId: string) {
    let s = this.hosts.get(host);
    if (!s) this.hosts.set(host, (s = new Set()));
    s.add(crawlId);
  }
  async unregisterCrawl(host: string, crawlId: string) {
    const s = this.hosts.get(host);
    if (!s) return;
    s.delete(crawlId);
    if (s.size === 0) this.hosts.delete(host);
  }
  async crawlsOf(host: string) {
    return [...(this.hosts.get(host) ?? [])];
  }
  async claimShard(host: string, workerId: string, ttlMs: number) {
    const o = this.owners.get(host);
    if (o && o.until > this.now() && o.worker !== workerId) return false;
    this.owners.set(host, { worker: workerId, until: this.now() + ttlMs });
    return true;
  }
  async renewShards(hosts: string[], workerId: string, ttlMs: number) {
    const lost: string[] = [];
    for (const h of hosts) {
      const o = this.owners.get(h);
      if (o && o.worker === workerId && o.until > this.now()) o.until = this.now() + ttlMs;
      else lost.push(h);
    }
    return lost;
  }
  async releaseShard(host: string, workerId: string) {
    if (this.owners.get(host)?.worker === workerId) this.owners.delete(host);
  }
  async slowHost(host: string, untilMs: number) {
    if ((this.slow.get(host) ?? 0) < untilMs) this.slow.set(host, untilMs);
  }
  async slowUntil(host: string) {
    const until = this.slow.get(host) ?? 0;
    // A pause that ended is dropped here rather than waiting for eviction.
    if (until !== 0 && until <= this.now()) this.slow.delete(host);
    return until;
  }
  async getRobots(host: string) {
    const r = this.robots.get(host);
    if (r && r.until <= this.now()) this.robots.delete(host);
    return r && r.until > this.now() ? r.body : undefined;
  }
  async setRobots(host: string, body: string | null, ttlMs: number) {
    this.robots.set(host, { body, until: this.now() + ttlMs });
  }
  async activeCrawls() {
    return [...this.active];
  }
  async addActiveCrawl(crawlId: string) {
    this.active.add(crawlId);
  }
  async removeActiveCrawl(crawlId: string) {
    this.active.delete(crawlId);
  }
  async announceWork() {
    // Later, not inline: the announcer finishes its own step before workers run theirs.
    for (const w of this.watchers) queueMicrotask(w);
  }
  async watchWork(onWork: () => void) {
    const w = () => onWork();
    this.watchers.add(w);
    return async () => {
      this.watchers.delete(w);
    };
  }
}
