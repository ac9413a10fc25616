import { z } from 'zod';
import { frontierStats, FrontierStatsInput, listWorkers } from '@trawl/frontier';
import type { AdminDeps } from '../deps.ts';
import { adminProcedure, router } from '../trpc.ts';

/** workers.list: every crawl worker with a live heartbeat (and lately lost ones), what it holds and how fast it goes. */
export function workersArea({ crawl, now }: AdminDeps) {
  return router({
    list: adminProcedure
      .meta({
        description: 'Every crawl worker: id, host, pid, heartbeat, shards, pages in flight and pages per second; `state: lost` for one that stopped heartbeating (listed for six heartbeat TTLs).',
        returns: '`{workers}`.',
      })
      .input(z.strictObject({}).optional()).query(() => listWorkers({ directory: crawl.directory }, now())),
  });
}

/** frontier.stats: per host shard its owner, queued and leased pages and oldest lease age, busiest first, with totals. */
export function frontierArea({ crawl, now }: AdminDeps) {
  return router({
    stats: adminProcedure
      .meta({
        description: 'Per hostname shard, busiest first: its owner, the active crawls with work there, pages queued and leased, the oldest lease age; plus totals.',
        returns: '`{at, totals, hosts}`.',
      })
      .input(FrontierStatsInput).query(({ input }) => frontierStats({ crawls: crawl.crawls, directory: crawl.directory }, input, now())),
  });
}
