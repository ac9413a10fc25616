import { EventEmitter } from 'node:events';
import type { Kv } from '@trawl/kv';
import type { ShardDirectory, WorkerRecord, WorkerReport } from '../types.ts';
import { WORKER_FORGET_TTLS, workerRecord } from '../worker-records.ts';
import { KvFrontierKeys } from './keys.ts';

/**
 * Work announcements, per Kv and prefix: one process owns the data directory, so every directory handle on it is
 * in this process and an EventEmitter reaches all of them (Redis needs pub/sub).
 */
const announcers = new WeakMap<Kv, Map<string, EventEmitter>>();
function announcer(kv: Kv, prefix: string): EventEmitter {
  let byPrefix = announcers.get(kv);
  if (!byPrefix) announcers.set(kv, (byPrefix = new Map()));
  let e = byPrefix.get(prefix);
  if (!e) {
    byPrefix.set(prefix, (e = new EventEmitter()));
    e.setMaxListeners(0);
  }
  return e;
}

interface StoredWorker {
  at: number;
  report: WorkerReport;
}

/**
 * Embedded-mode directory of workers, hostname shards and host politeness on a Kv. Each method is one transaction;
 * time-limited entries (shard leases, slow-downs, robots.txt, worker records) expire on the Kv like their Redis
 * keys, so nothing is kept in memory and nothing grows without bound.
 */
export class KvShardDirectory implements ShardDirectory {
  private readonly k: ReturnType<KvFrontierKeys['directory']>;
  private readonly work: EventEmitter;

  constructor(
    private readonly kv: Kv,
    prefix = '',
    private readonly workerTtlMs = 10_000,
    private readonly now: () => number = Date.now,
  ) {
    this.k = new KvFrontierKeys(prefix).directory();
    this.work = announcer(kv, prefix);
  }

  async heartbeat(workerId: string, now: number, report: WorkerReport) {
    const forgetMs = WORKER_FORGET_TTLS * this.workerTtlMs;
    this.kv.transact((tx) => tx.put(this.k.worker(workerId), { at: now, report } satisfies StoredWorker, { expiresAt: now + forgetMs }));
  }
  async leave(workerId: string) {
    this.kv.transact((tx) => {
      tx.del(this.k.worker(workerId));
      // Its shards are free at once (as the memory directory), not when their leases lapse.
      for (const e of [...tx.range<string>({ prefix: this.k.owners })]) if (e.value === workerId) tx.del(e.key);
    });
  }
  private members(now: number): { id: string; w: StoredWorker }[] {
    const forgetBefore = now - WORKER_FORGET_TTLS * this.workerTtlMs;
    const prefix = this.k.workers;
    return this.kv.transact((tx) =>
      [...tx.range<StoredWorker>({ prefix })].filter((e) => e.value.at > forgetBefore).map((e) => ({ id: e.key.slice(prefix.length), w: e.value })),
    );
  }
  async liveWorkers(now: number) {
    return this.members(now).filter((m) => m.w.at > now - this.workerTtlMs).length;
  }
  async workers(now: number): Promise<WorkerRecord[]> {
    return this.members(now).map((m) => workerRecord(m.id, m.w.at, m.w.report, now, this.workerTtlMs));
  }
  async shardOwners(hosts: string[]) {
    return this.kv.transact((tx) => hosts.map((h) => tx.get<string>(this.k.owner(h)) ?? null));
  }
  async shards() {
    const prefix = this.k.shards;
    return this.kv.transact((tx) => [...tx.range({ prefix })].map((e) => e.key.slice(prefix.length)));
  }
  async registerHost(host: string, crawlId: string) {
    this.kv.transact((tx) => {
      tx.put(this.k.shardCrawl(host, crawlId), 1);
      tx.put(this.k.shard(host), 1);
    });
  }
  async unregisterCrawl(host: string, crawlId: string) {
    this.kv.transact((tx) => {
      tx.del(this.k.shardCrawl(host, crawlId));
      const left = [...tx.range({ prefix: this.k.shardCrawls(host), limit: 1 })];
      if (left.length === 0) tx.del(this.k.shard(host));
    });
  }
  async crawlsOf(host: string) {
    const prefix = this.k.shardCrawls(host);
    return this.kv.transact((tx) => [...tx.range({ prefix })].map((e) => e.key.slice(prefix.length)));
  }
  async claimShard(host: string, workerId: string, ttlMs: number) {
    return this.kv.transact((tx) => {
      const owner = tx.get<string>(this.k.owner(host));
      if (owner !== undefined && owner !== workerId) return false;
      tx.put(this.k.owner(host), workerId, { expiresAt: this.now() + ttlMs });
      return true;
    });
  }
  async renewShards(hosts: string[], workerId: string, ttlMs: number) {
    return this.kv.transact((tx) => hosts.filter((h) => !(tx.get(this.k.owner(h)) === workerId && tx.expire(this.k.owner(h), this.now() + ttlMs))));
  }
  async releaseShard(host: string, workerId: string) {
    this.kv.transact((tx) => {
      if (tx.get(this.k.owner(host)) === workerId) tx.del(this.k.owner(host));
    });
  }
  async slowHost(host: string, untilMs: number) {
    this.kv.transact((tx) => {
      // Later, never earlier; the entry goes when the pause ends.
      if ((tx.get<number>(this.k.slow(host)) ?? 0) < untilMs) tx.put(this.k.slow(host), untilMs, { expiresAt: untilMs });
    });
  }
  async slowUntil(host: string) {
    return this.kv.transact((tx) => tx.get<number>(this.k.slow(host)) ?? 0);
  }
  async getRobots(host: string) {
    return this.kv.transact((tx) => tx.get<{ body: string | null }>(this.k.robots(host))?.body);
  }
  async setRobots(host: string, body: string | null, ttlMs: number) {
    this.kv.transact((tx) => tx.put(this.k.robots(host), { body }, { expiresAt: this.now() + ttlMs }));
  }
  async activeCrawls() {
    const prefix = this.k.active;
    return this.kv.transact((tx) => [...tx.range({ prefix })].map((e) => e.key.slice(prefix.length)));
  }
  async addActiveCrawl(crawlId: string) {
    this.kv.transact((tx) => tx.put(this.k.activeCrawl(crawlId), 1));
  }
  async removeActiveCrawl(crawlId: string) {
    this.kv.transact((tx) => tx.del(this.k.activeCrawl(crawlId)));
  }
  async announceWork() {
    // Later, not inline: the announcer finishes its own step before workers run theirs.
    queueMicrotask(() => this.work.emit('work'));
  }
  async watchWork(onWork: () => void) {
    const w = () => onWork();
    this.work.on('work', w);
    return async () => {
      this.work.off('work', w);
    };
  }
}
