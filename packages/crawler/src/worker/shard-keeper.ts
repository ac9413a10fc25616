import type { Log } from '@trawl/contract';
import { isStoreUnavailable, registrableDomain, TERMINAL_STATUSES, type CrawlStore, type ShardDirectory } from '@trawl/frontier';
import { endCrawl } from './finalize.ts';
import type { HostScheduler } from './host-scheduler.ts';
import type { WorkerSettings } from './settings.ts';
import type { WorkerReporter } from './worker-report.ts';

export interface ShardKeeperDeps {
  workerId: string;
  crawls: CrawlStore;
  directory: ShardDirectory;
  manager: HostScheduler;
  settings: WorkerSettings;
  /** What the heartbeat publishes about this worker. */
  reporter: WorkerReporter;
  /** Settles crawls found ended but not yet finalized (their finisher may have died). */
  finalize(crawlId: string): Promise<void>;
  onError(err: unknown): void;
  /** Shard claims and releases, at debug. */
  log: Log;
}

/** Why a shard left this worker (debug lines). */
type ShardRelease = 'lost' | 'ended' | 'rebalanced' | 'shutdown';

/** What a stopping worker gave back. */
export interface ShardsReturned {
  shards: number;
  leases: number;
}

/** Announced work runs a heartbeat at most this often (the regular heartbeat is TRAWL_HEARTBEAT_MS). */
const MIN_POKE_GAP_MS = 100;
/**
 * With no shard anywhere and nothing held here, the heartbeat comes this many times less often, and at least every
 * quarter of the worker TTL (2 × TRAWL_SHARD_TTL_MS): it only keeps the worker registered then. New work is
 * announced (poke), and the first shard to exist brings back the regular heartbeat, so no takeover waits on it.
 */
const IDLE_HEARTBEAT_FACTOR = 3;

function shuffle<T>(a: T[]): T[] {
  for (let i = a.length - 1; i > 0; i--) {
    const j = Math.floor(Math.random() * (i + 1));
    [a[i], a[j]] = [a[j], a[i]];
  }
  return a;
}

/**
 * The heartbeat of a worker: keeps it registered, holds a fair share of the hostname shards (ceil(shards /
 * live workers)), gives the excess back when workers join and takes orphaned shards when they leave, renews the
 * leases it holds, returns expired leases of dead workers to their queues, and ends crawls past their deadline.
 */
export class ShardKeeper {
  private timer: NodeJS.Timeout | null = null;
  private ticking: Promise<void> | null = null;
  private ticks = 0;
  /** The last heartbeat saw no shard registered anywhere and nothing held by this worker. */
  private idle = false;

  constructor(private readonly d: ShardKeeperDeps) {}

  private lastTickAt = 0;
  /** A heartbeat failed because the store was unreachable: repair what the outage may have cut short. */
  private storeWasDown = false;
  /**
   * No expired lease is reclaimed before this (ms). After an outage every lease looks expired (nobody could renew
   * it), but its holder is usually alive with the page done and its result waiting to be written: reclaiming it
   * at once would have that page crawled twice. One lease period is time enough for live holders to renew.
   */
  private reclaimAfter = 0;

  private loop = () => {
    this.lastTickAt = Date.now();
    this.ticking = this.tick()
      .then(() => this.afterOutage())
      .catch((err) => {
        // Never fatal: the next heartbeat tries again (node-redis reconnects meanwhile).
        this.idle = false;
        if (isStoreUnavailable(err)) {
          this.storeWasDown = true;
          // Until the repair after the outage has run (it sets the grace): the first heartbeat that gets through
          // must renew this worker's leases, not reclaim everyone's.
          this.reclaimAfter = Number.POSITIVE_INFINITY;
        }
        this.d.onError(err);
      })
      .finally(() => {
        this.ticking = null;
        if (this.timer) this.timer = setTimeout(this.loop, this.beatMs());
      });
  };

  private beatMs(): number {
    const { heartbeatMs, shardTtlMs } = this.d.settings;
    return this.idle ? Math.max(heartbeatMs, Math.min(heartbeatMs * IDLE_HEARTBEAT_FACTOR, shardTtlMs / 2)) : heartbeatMs;
  }

  start(): void {
    this.timer = setTimeout(this.loop, 0);
  }

  /**
   * Runs the next heartbeat now (work was announced), or MIN_POKE_GAP_MS after the last one: a crawl that keeps
   * reaching new hosts announces on every such page, and a heartbeat per announcement would flood Redis.
   */
  poke(): void {
    if (this.timer && !this.ticking) {
      clearTimeout(this.timer);
      this.timer = setTimeout(this.loop, Math.max(0, this.lastTickAt + MIN_POKE_GAP_MS - Date.now()));
    }
  }

  /** Gives back shards (and their buffered leases) and leaves. Best effort: what the store cannot take now simply expires. */
  async stop(): Promise<ShardsReturned> {
    if (this.timer) clearTimeout(this.timer);
    this.timer = null;
    await this.ticking;
    const quietly = async (p: Promise<unknown>): Promise<boolean> => {
      try {
        await p;
        return true;
      } catch (err) {
        this.d.onError(err);
        return false;
      }
    };
    const returned: ShardsReturned = { shards: 0, leases: 0 };
    for (const host of this.d.manager.ownedHosts()) {
      returned.leases += await this.d.manager.dropHost(host);
      if (await quietly(this.d.directory.releaseShard(host, this.d.workerId))) {
        returned.shards++;
        this.released(host, 'shutdown');
      }
    }
    await quietly(this.d.directory.leave(this.d.workerId));
    return returned;
  }

  /** Hosts are the crawled sites: a debug line names at most their registrable domain. */
  private released(host: string, reason: ShardRelease): void {
    this.d.log.debug({ worker_id: this.d.workerId, domain: registrableDomain(host), reason }, 'shard released');
  }

  /**
   * After an outage: hosts a page admitted while the store went away may never have been registered as shards
   * (their queues would wait for ever), so the hosts of every live crawl are registered again (idempotent).
   */
  private async afterOutage(): Promise<void> {
    if (!this.storeWasDown) return;
    const { directory, crawls } = this.d;
    for (const crawlId of await directory.activeCrawls()) {
      const status = await crawls.statusOf(crawlId);
      if (status === null || TERMINAL_STATUSES.includes(status)) continue;
      const hosts = await crawls.hostsOf(crawlId);
      for (const host of hosts) await directory.registerHost(host, crawlId);
      // It may have ended (and been finalized) meanwhile: take back what was just registered.
      const after = await crawls.statusOf(crawlId);
      if (after === null || TERMINAL_STATUSES.includes(after)) {
        for (const host of hosts) await directory.unregisterCrawl(host, crawlId);
      }
    }
    await directory.announceWork();
    this.reclaimAfter = Date.now() + this.d.settings.leaseMs;
    this.storeWasDown = false;
  }

  async tick(): Promise<void> {
    const { directory, manager, settings, workerId, crawls } = this.d;
    const now = Date.now();
    await directory.heartbeat(workerId, now, this.d.reporter.report(now));
    const shards = await directory.shards();
    const owned = manager.ownedHosts();
    this.idle = shards.length === 0 && owned.length === 0 && manager.tokensByCrawl().size === 0;
    // Only a share of shards needs the count of live workers: with none anywhere, a heartbeat does not ask.
    const live = shards.length > 0 ? await directory.liveWorkers(now) : 1;
    for (const host of await directory.renewShards(owned, workerId, settings.shardTtlMs)) {
      await manager.dropHost(host);
      this.released(host, 'lost');
    }
    // A host whose crawls have all ended is no longer a shard: give it up before counting the fair share. Kept,
    // it would count against that share, and the excess rule below could drop a live shard in its place; with
    // one worker, a new crawl on new hosts then waited for ever (the worker "owned" its fair share of dead hosts).
    const current = new Set(shards);
    for (const host of manager.ownedHosts()) {
      if (current.has(host)) continue;
      await manager.dropHost(host);
      await directory.releaseShard(host, workerId);
      this.released(host, 'ended');
    }
    const fair = Math.ceil(shards.length / Math.max(1, live));
    let mine = manager.ownedHosts();
    if (mine.length > fair) {
      // Give back the quietest shards first; in-flight pages finish under their leases.
      const extra = mine
        .map((h) => manager.slot(h)!)
        .sort((a, b) => a.inflight + a.buffer.length - (b.inflight + b.buffer.length))
        .slice(0, mine.length - fair);
      for (const s of extra) {
        await manager.dropHost(s.host);
        await directory.releaseShard(s.host, workerId);
        this.released(s.host, 'rebalanced');
      }
    } else if (mine.length < fair) {
      const taken = new Set(mine);
      for (const host of shuffle(shards.filter((h) => !taken.has(h)))) {
        if (manager.ownedHosts().length >= fair) break;
        if (await directory.claimShard(host, workerId, settings.shardTtlMs)) {
          manager.addHost(host, await directory.slowUntil(host));
          this.d.log.debug({ worker_id: workerId, domain: registrableDomain(host), owned: manager.ownedHosts().length, fair }, 'shard claimed');
        }
      }
    }
    mine = manager.ownedHosts();
    const active = new Set<string>();
    // One round trip's worth of latency per step, not one per host: a slow tick would let shard leases lapse.
    const lists = await Promise.all(mine.map((host) => directory.crawlsOf(host)));
    mine.forEach((host, i) => {
      const slot = manager.slot(host);
      if (!slot) return;
      const list = lists[i];
      if (list.join() !== slot.crawls.join()) {
        slot.crawls = list;
        manager.wakeHost(host);
      }
      for (const c of list) active.add(c);
    });
    await Promise.all(
      [...manager.tokensByCrawl()].map(async ([crawlId, tokens]) => {
        const lost = await crawls.renew(crawlId, tokens, settings.leaseMs, Date.now());
        if (lost.length > 0) manager.forgetTokens(new Set(lost));
      }),
    );
    if (Date.now() >= this.reclaimAfter) await Promise.all([...active].map((crawlId) => crawls.reclaim(crawlId, Date.now(), 256)));
    // Pause and ends reach this worker within one heartbeat: leases it buffered for those crawls go back.
    const held = [...new Set([...active, ...manager.tokensByCrawl().keys()])];
    const statuses = await Promise.all(held.map((id) => crawls.statusOf(id)));
    await manager.setIdleCrawls(new Set(held.filter((_, i) => statuses[i] !== 'queued' && statuses[i] !== 'running')));
    if (this.ticks++ % 5 === 0) await this.sweep();
  }

  /** Ends crawls past their deadline and finalizes ended ones nobody settled. Any worker may do it; it is idempotent. */
  private async sweep(): Promise<void> {
    const { directory, crawls, settings } = this.d;
    for (const crawlId of await directory.activeCrawls()) {
      const snap = await crawls.getCrawl(crawlId);
      if (!snap) {
        await directory.removeActiveCrawl(crawlId);
        continue;
      }
      const live = !TERMINAL_STATUSES.includes(snap.status);
      if (live && Date.now() - Date.parse(snap.plan.created_at) > settings.crawlTimeoutMs) {
        await endCrawl(crawls, crawlId, 'crawl_timeout', Date.now());
        await this.d.finalize(crawlId);
      } else if (!live && !snap.finalized) {
        await this.d.finalize(crawlId);
      } else if (!live) {
        // Settled, but leases of a dead worker were still out: drop them once they lapse, then forget the crawl.
        if (snap.counters.in_flight > 0) await crawls.reclaim(crawlId, Date.now(), 1024);
        const after = await crawls.getCrawl(crawlId);
        if (!after || after.counters.in_flight === 0) await directory.removeActiveCrawl(crawlId);
      }
    }
  }
}
