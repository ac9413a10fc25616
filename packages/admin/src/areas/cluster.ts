import { z } from 'zod';
import { frontierStats, FrontierStatsInput, listWorkers } from '@trawl/frontier';
import type { AdminDeps } from '../deps.ts';
import { adminProcedure, router } from '../trpc.ts';

/** workers.list: every crawl worker with a live heartbeat (and lately lost ones), what it holds and how fast it goes. */
export function workersArea({ crawl, now }: AdminDeps) {
  return router({
    list: adminProcedure.input(z.strictObject({}).optional()).query(() => listWorkers({ directory: crawl.directory }, now())),
  });
}

/** frontier.stats: per host shard its owner, queued and leased pages and oldest lease age, busiest first, with totals. */
export function frontierArea({ crawl, now }: AdminDeps) {
  return router({
    stats: adminProcedure.input(FrontierStatsInput).query(({ input }) => frontierStats({ crawls: crawl.crawls, directory: crawl.directory }, input, now())),
  });
}
