import { allItems, startCrawl, waitForCrawl } from '@trawl/test-support/crawl-client.ts';
import { startCrawlEnv, type Mode } from '@trawl/test-support/crawl-modes.ts';
import { startNodeProcess, stop } from './support/processes.ts';
import type { ScenarioResult } from './support/table.ts';

/**
 * Crawl webhook latency with pages flowing at what this machine sustains (the target is ~200 pages/s): the crawl
 * benchmark's site (20 hosts × 100 pages of ~20 KB) answering in 100 ms (4 pages in flight per host: at most 800
 * pages/s, so the crawler is the limit, not the site), crawled with a webhook to a local receiver. Latency is from the
 * item's created_at (the page stored, just before its delivery is recorded) to the receiver's first 2xx answer of
 * its crawl.page event. Correctness: after deduplication by event id, every event received exactly once.
 */
const HOSTS = 20;
const PER_HOST = 100;
const LATENCY_MS = 100;
const SECRET = 'bench-secret-0123456789';

function pct(sorted: number[], p: number): number {
  return sorted[Math.min(sorted.length - 1, Math.floor((p / 100) * sorted.length))];
}

async function runMode(mode: Mode): Promise<(string | number)[]> {
  // The crawl benchmark's site (bench-site.ts: 127.0.0.1 … 127.0.0.20, 100 pages of ~20 KB each) in its own process.
  const site = await startNodeProcess<{ port: number }>(new URL('./support/bench-site.ts', import.meta.url).pathname, {}, ['--latency-ms', String(LATENCY_MS)]);
  const seeds = Array.from({ length: HOSTS }, (_, h) => `http://127.0.0.${h + 1}:${site.info.port}/`);
  const receiver = await startNodeProcess<{ url: string; report: string }>(new URL('./support/webhook-receiver-server.ts', import.meta.url).pathname);
  const env = await startCrawlEnv(mode, { workers: 1, env: { LOG_LEVEL: 'error', TRAWL_ROBOTS: 'false', TRAWL_WORKER_CONCURRENCY: '64', TRAWL_ALLOW_PRIVATE: '127.0.0.0/8' } });
  try {
    const began = Date.now();
    const crawl = await startCrawl(env.gw, {
      urls: seeds,
      max_depth: 3,
      max_pages: HOSTS * PER_HOST,
      webhook: { url: receiver.info.url, secret: SECRET },
    });
    const done = await waitForCrawl(env.gw, crawl.id, { timeoutMs: 600_000, intervalMs: 500 });
    const wallS = (Date.now() - began) / 1000;
    const items = await allItems(env.gw, crawl.id);
    type Report = { deliveries: number; first: Record<string, { at: number; type: string; created_at: string; item_id: string | null; item_created_at: string | null }> };
    const read = async () => (await (await fetch(receiver.info.report)).json()) as Report;
    let rep = await read();
    const deadline = Date.now() + 120_000;
    while (Object.keys(rep.first).length < items.length + 2 && Date.now() < deadline) {
      await new Promise((r) => setTimeout(r, 200));
      rep = await read();
    }
    const pagesIn = Object.values(rep.first).filter((f) => f.type === 'crawl.page');
    const sortedOf = (xs: number[]) => xs.sort((a, b) => a - b);
    const latencies = sortedOf(pagesIn.map((f) => f.at - Date.parse(f.item_created_at!)));
    // The two legs: page stored to its event queued (the pump), event queued to received (claim, body, send).
    const toQueue = sortedOf(pagesIn.map((f) => Date.parse(f.created_at) - Date.parse(f.item_created_at!)));
    const toSend = sortedOf(pagesIn.map((f) => f.at - Date.parse(f.created_at)));
    const pageIds = new Set(pagesIn.map((f) => f.item_id!));
    const first = new Map(Object.entries(rep.first));
    const exact = pageIds.size === items.length && items.every((i) => pageIds.has(i.id)) && first.size === items.length + 2;
    const dupes = rep.deliveries - first.size;
    return [
      mode,
      done.progress.pages_completed,
      done.progress.pages_completed / wallS,
      pct(latencies, 50),
      pct(latencies, 99),
      latencies[latencies.length - 1],
      `${pct(toQueue, 50)} / ${pct(toQueue, 99)}`,
      `${pct(toSend, 50)} / ${pct(toSend, 99)}`,
      exact ? `yes (${first.size} events)` : `NO (${first.size} of ${items.length + 2})`,
      dupes,
    ];
  } finally {
    await env.close();
    await stop(receiver.child);
    await stop(site.child);
  }
}

export default async function run(): Promise<ScenarioResult> {
  const rows: (string | number)[][] = [];
  for (const mode of ['embedded', 'cluster'] as const) rows.push(await runMode(mode));
  return {
    title: `crawl-webhooks: ${HOSTS * PER_HOST} pages (${HOSTS} hosts, ${LATENCY_MS} ms per page), a webhook for every event`,
    columns: ['mode', 'pages', 'pages/s', 'p50 ms', 'p99 ms', 'max ms', 'stored→queued p50/p99', 'queued→received p50/p99', 'every event once after dedupe', 'repeated deliveries'],
    rows,
    notes: [
      'Latency: item created_at (set when the page is stored) to the receiver answering its crawl.page event (full payloads, ~20 KB pages). The site and the receiver run in processes of their own; embedded: the gateway and its worker in the bench process; cluster: the gateway there, the worker in its own process, with Redis.',
      'The receiver answers 204 at once; failures, timeouts and slow receivers are covered by test/crawl/crawl-webhooks.e2e.test.ts.',
    ],
  };
}
