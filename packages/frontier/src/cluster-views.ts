import { z } from 'zod';
import type { CrawlStore, ShardDirectory, WorkerRecord } from './types.ts';

/** The operator's views of the frontier and its workers (admin procedures `frontier.stats`, `workers.list`). */
export interface FrontierViewDeps {
  crawls: CrawlStore;
  directory: ShardDirectory;
}

export const FrontierStatsInput = z
  .strictObject({ limit: z.int().min(1).max(1000).default(100).meta({ description: 'Host shards listed, busiest first.' }) })
  .prefault({});
export type FrontierStatsQuery = z.infer<typeof FrontierStatsInput>;

export interface HostShardStats {
  host: string;
  /** Worker holding the shard's lease, null when none does (no live worker, or it just changed hands). */
  owner: string | null;
  /** Active crawls with pages queued or leased on the host. */
  crawls: number;
  queued: number;
  leased: number;
  /** Age of the oldest lease still out on the host, ms; null when none is. */
  oldest_lease_age_ms: number | null;
}

export interface FrontierStats {
  at: string;
  totals: {
    /** Hosts with at least one crawl registered (the hostname shards). */
    shards: number;
    active_crawls: number;
    queued: number;
    leased: number;
    oldest_lease_age_ms: number | null;
  };
  /** The `limit` busiest hosts (queued + leased), then by name. */
  hosts: HostShardStats[];
}

const older = (a: number | null, b: number | null) => (a === null ? b : b === null ? a : Math.min(a, b));

/**
 * Queued and leased pages per host shard, summed over the active crawls registered in the directory. Reads one
 * small script per active crawl (queue lengths and its leases, never the queued pages) and the owner of the hosts
 * listed only: no key scan, whatever the number of queued pages.
 */
export async function frontierStats(deps: FrontierViewDeps, input: FrontierStatsQuery, now: number): Promise<FrontierStats> {
  const [shards, active] = await Promise.all([deps.directory.shards(), deps.directory.activeCrawls()]);
  const perCrawl = await Promise.all(active.map((id) => deps.crawls.hostLoads(id)));
  const byHost = new Map<string, { queued: number; leased: number; crawls: number; oldest: number | null }>();
  for (const h of shards) byHost.set(h, { queued: 0, leased: 0, crawls: 0, oldest: null });
  for (const loads of perCrawl) {
    for (const l of loads) {
      if (l.queued === 0 && l.leased === 0) continue;
      let s = byHost.get(l.host);
      if (!s) byHost.set(l.host, (s = { queued: 0, leased: 0, crawls: 0, oldest: null }));
      s.queued += l.queued;
      s.leased += l.leased;
      s.crawls += 1;
      s.oldest = older(s.oldest, l.oldest_leased_at);
    }
  }
  const totals = { shards: shards.length, active_crawls: active.length, queued: 0, leased: 0, oldest_lease_age_ms: null as number | null };
  let oldest: number | null = null;
  for (const s of byHost.values()) {
    totals.queued += s.queued;
    totals.leased += s.leased;
    oldest = older(oldest, s.oldest);
  }
  totals.oldest_lease_age_ms = oldest === null ? null : Math.max(0, now - oldest);
  const top = [...byHost.entries()]
    .sort(([ha, a], [hb, b]) => b.queued + b.leased - (a.queued + a.leased) || (ha < hb ? -1 : 1))
    .slice(0, input.limit);
  const owners = await deps.directory.shardOwners(top.map(([h]) => h));
  const hosts = top.map(([host, s], i) => ({
    host,
    owner: owners[i],
    crawls: s.crawls,
    queued: s.queued,
    leased: s.leased,
    oldest_lease_age_ms: s.oldest === null ? null : Math.max(0, now - s.oldest),
  }));
  return { at: new Date(now).toISOString(), totals, hosts };
}

/** Live workers, and those that stopped heartbeating recently (`lost`), by id. */
export async function listWorkers(deps: Pick<FrontierViewDeps, 'directory'>, now: number): Promise<{ workers: WorkerRecord[] }> {
  const workers = await deps.directory.workers(now);
  return { workers: workers.sort((a, b) => (a.id < b.id ? -1 : a.id > b.id ? 1 : 0)) };
}
