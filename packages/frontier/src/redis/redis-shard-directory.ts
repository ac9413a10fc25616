import { closeConnection, loadScripts, type RedisConnection } from '@trawl/redis';
import type { ShardDirectory, WorkerRecord, WorkerReport } from '../types.ts';
import { WORKER_FORGET_TTLS, workerRecord } from '../worker-records.ts';
import { FrontierKeys } from './keys.ts';

const scripts = loadScripts(new URL('./lua/', import.meta.url), ['shard-renew-1.lua', 'shard-release-1.lua', 'host-slow-1.lua']);
const NONE = '\u0000none';
const PRUNE_EVERY = 10;

/** Cluster-mode directory of workers, hostname shards and host politeness, shared by every worker. */
export class RedisShardDirectory implements ShardDirectory {
  private readonly k: FrontierKeys;
  /** Heartbeats sent through this directory (forgotten workers are pruned every PRUNE_EVERY). */
  private beats = 0;

  constructor(
    private readonly redis: RedisConnection,
    prefix: string,
    private readonly workerTtlMs = 10_000,
  ) {
    this.k = new FrontierKeys(prefix);
  }

  async heartbeat(workerId: string, now: number, report: WorkerReport) {
    const forgetMs = WORKER_FORGET_TTLS * this.workerTtlMs;
    // Sent together (one write, one round trip), not as a MULTI or a pipeline, which node-redis queues while
    // disconnected: a heartbeat must fail at once in an outage. Forgotten workers are pruned every tenth beat only
    // (every read already leaves them out by their score).
    await Promise.all([
      this.redis.zAdd(this.k.workers(), { score: now, value: workerId }),
      this.redis.set(this.k.workerReport(workerId), JSON.stringify(report), { expiration: { type: 'PX', value: forgetMs } }),
      this.beats++ % PRUNE_EVERY === 0 ? this.redis.zRemRangeByScore(this.k.workers(), '-inf', now - forgetMs) : null,
    ]);
  }
  async leave(workerId: string) {
    await Promise.all([this.redis.zRem(this.k.workers(), workerId), this.redis.del(this.k.workerReport(workerId))]);
  }
  async liveWorkers(now: number) {
    return Number(await this.redis.zCount(this.k.workers(), now - this.workerTtlMs, '+inf'));
  }
  async workers(now: number): Promise<WorkerRecord[]> {
    const members = await this.redis.zRangeByScoreWithScores(this.k.workers(), `(${now - WORKER_FORGET_TTLS * this.workerTtlMs}`, '+inf');
    // One key per worker (a worker is one slot): read together, not in one MGET, which Redis Cluster would refuse.
    const reports = await Promise.all(members.map((m) => this.redis.get(this.k.workerReport(m.value))));
    const out: WorkerRecord[] = [];
    members.forEach((m, i) => {
      const r = reports[i];
      if (r !== null) out.push(workerRecord(m.value, m.score, JSON.parse(r) as WorkerReport, now, this.workerTtlMs));
    });
    return out;
  }
  async shardOwners(hosts: string[]) {
    return Promise.all(hosts.map((h) => this.redis.get(this.k.shardOwner(h))));
  }
  async shards() {
    return this.redis.zRange(this.k.shards(), 0, -1);
  }
  async registerHost(host: string, crawlId: string) {
    // The crawl set first: a host listed in shards always has its crawls findable.
    await this.redis.sAdd(this.k.shardCrawls(host), crawlId);
    await this.redis.zAdd(this.k.shards(), { score: 0, value: host });
  }
  async unregisterCrawl(host: string, crawlId: string) {
    await this.redis.sRem(this.k.shardCrawls(host), crawlId);
    if ((await this.redis.sCard(this.k.shardCrawls(host))) === 0) {
      await this.redis.zRem(this.k.shards(), host);
      // A crawl registered between the two calls would otherwise be orphaned: put the host back.
      if ((await this.redis.sCard(this.k.shardCrawls(host))) > 0) {
        await this.redis.zAdd(this.k.shards(), { score: 0, value: host });
      }
    }
  }
  async crawlsOf(host: string) {
    return this.redis.sMembers(this.k.shardCrawls(host));
  }
  async claimShard(host: string, workerId: string, ttlMs: number) {
    const ok = await this.redis.set(this.k.shardOwner(host), workerId, { condition: 'NX', expiration: { type: 'PX', value: ttlMs } });
    return ok !== null;
  }
  async renewShards(hosts: string[], workerId: string, ttlMs: number) {
    const results = await Promise.all(
      hosts.map((h) => scripts['shard-renew'].run(this.redis, [this.k.shardOwner(h)], [workerId, ttlMs])),
    );
    return hosts.filter((_, i) => results[i] !== 1);
  }
  async releaseShard(host: string, workerId: string) {
    await scripts['shard-release'].run(this.redis, [this.k.shardOwner(host)], [workerId]);
  }
  async slowHost(host: string, untilMs: number, now: number) {
    await scripts['host-slow'].run(this.redis, [this.k.hostSlow(host)], [untilMs, Math.max(1, untilMs - now)]);
  }
  async slowUntil(host: string) {
    return Number((await this.redis.get(this.k.hostSlow(host))) ?? 0);
  }
  async getRobots(host: string) {
    const v = await this.redis.get(this.k.robots(host));
    if (v === null) return undefined;
    return v === NONE ? null : v;
  }
  async setRobots(host: string, body: string | null, ttlMs: number) {
    await this.redis.set(this.k.robots(host), body ?? NONE, { expiration: { type: 'PX', value: ttlMs } });
  }
  async activeCrawls() {
    return this.redis.sMembers(this.k.activeCrawls());
  }
  async addActiveCrawl(crawlId: string) {
    await this.redis.sAdd(this.k.activeCrawls(), crawlId);
  }
  async removeActiveCrawl(crawlId: string) {
    await this.redis.sRem(this.k.activeCrawls(), crawlId);
  }
  async announceWork() {
    await this.redis.publish(this.k.workChannel(), '1');
  }
  async watchWork(onWork: () => void) {
    // Subscribing takes a connection of its own (a subscribed connection runs no other commands).
    const sub = this.redis.duplicate();
    sub.on('error', () => {
      // Reconnects on its own; announcements missed meanwhile are caught by the next heartbeat.
    });
    await sub.connect();
    const channel = this.k.workChannel();
    await sub.subscribe(channel, () => onWork());
    return async () => {
      // Closing drops the subscription; QUIT would wait for ever while Redis is down, so the close is bounded.
      await closeConnection(sub);
    };
  }
}
