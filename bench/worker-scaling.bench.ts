import { fileURLToPath } from 'node:url';
import { startNodeProcess, stop } from './support/processes.ts';
import type { PeerResult } from './support/proc-stats.ts';
import type { ScenarioResult } from './support/table.ts';
import { trawlCluster } from './support/trawl-cases.ts';

/**
 * Issue 31 item 4: cluster mode with 1, 2 and 4 worker processes on one standalone Redis, on a latency-bound site:
 * the 20-host crawl site (2,000 pages of ~20 KB) answering each page after BENCH_SCALING_LATENCY_MS (500), each
 * worker at TRAWL_WORKER_CONCURRENCY 16. At 4 requests per host the site allows 160 pages/s; one worker's 16
 * fetches at a time allow 32, so pages/s can scale with the workers while the machine keeps CPU to spare. What it
 * shows: pages/s against one worker (targets 1.9× for 2, 3.6× for 4), and CPU per delivered page (target: flat
 * within 10%), Redis commands and Redis CPU per page.
 */
const LATENCY_MS = Number(process.env.BENCH_SCALING_LATENCY_MS ?? 500);
const WORKERS = (process.env.BENCH_SCALING_WORKERS ?? '1,2,4').split(',').map(Number);
const CONCURRENCY = process.env.BENCH_SCALING_CONCURRENCY ?? '16';
/**
 * Pages crawled over every host before the clock starts, so every worker process has taken part (loaded its engines,
 * started its content threads, compiled its hot code), as in a service that has run a while. 1: one page, which
 * warms one worker only (the cold start of the others is then counted in the CPU per page).
 */
const WARM_PAGES = Number(process.env.BENCH_SCALING_WARM_PAGES ?? 400);

export default async function run(): Promise<ScenarioResult> {
  const site = await startNodeProcess<{ port: number; hosts: number }>(fileURLToPath(new URL('./support/bench-site.ts', import.meta.url)), {}, [
    '--latency-ms',
    String(LATENCY_MS),
    '--shape',
    'hosts',
  ]);
  const results: [number, PeerResult][] = [];
  try {
    for (const n of WORKERS) results.push([n, await trawlCluster(site.info.port, site.info.hosts, n, { TRAWL_WORKER_CONCURRENCY: CONCURRENCY }, WARM_PAGES)]);
  } finally {
    await stop(site.child);
  }
  const rate = (r: PeerResult) => (r.pages * 1000) / r.wallMs;
  const perPage = (r: PeerResult) => r.cpuMs / r.pages;
  const [, one] = results.find(([n]) => n === 1) ?? results[0]!;
  return {
    title: `Worker scaling: cluster mode, 1 Redis, the 20-host site at +${LATENCY_MS} ms a page, c=${CONCURRENCY} per worker`,
    columns: ['workers', 'pages', 'duplicates', 'pages/s', '÷ 1 worker', 'CPU ms/page', 'CPU ÷ 1 worker', 'Redis cmds/page', 'Redis CPU ms/page'],
    rows: results.map(([n, r]) => [
      n,
      r.pages,
      r.duplicates ?? 0,
      rate(r),
      rate(r) / rate(one),
      perPage(r),
      perPage(r) / perPage(one),
      (r.redisCommands ?? 0) / r.pages,
      (r.redisCpuMs ?? 0) / r.pages,
    ]),
    notes: [
      'CPU: the gateway and every worker process (content threads included); Redis CPU in its own column. The site runs in its own process.',
      `warm-up before the clock starts: a crawl of ${WARM_PAGES} page(s) over every host (BENCH_SCALING_WARM_PAGES).`,
      'targets (issue 31): pages/s 2 workers ≥ 1.9×, 4 workers ≥ 3.6× one worker; CPU per page within 10% of one worker.',
    ],
  };
}
