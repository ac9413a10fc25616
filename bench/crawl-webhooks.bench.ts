import { allItems, startCrawl, waitForCrawl } from '@trawl/test-support/crawl-client.ts';
import { startCrawlEnv, type Mode } from '@trawl/test-support/crawl-modes.ts';
import { startCrawlSite } from '@trawl/test-support/crawl-site.ts';
import { startWebhookReceiver } from '@trawl/test-support/webhook-receiver.ts';
import type { ScenarioResult } from './support/table.ts';

/**
 * Crawl webhook latency with ~200 pages/s flowing: a local site of 10 hosts × 200 pages answering in 200 ms (4
 * pages in flight per host: about 200 pages/s), crawled with a webhook to a local receiver. Latency is from the
 * item's created_at (the page stored, just before its delivery is recorded) to the receiver's first 2xx answer of
 * its crawl.page event. Correctness: after deduplication by event id, every event received exactly once.
 */
const HOSTS = 10;
const PER_HOST = 200;
const LATENCY_MS = 200;
const SECRET = 'bench-secret-0123456789';

function pct(sorted: number[], p: number): number {
  return sorted[Math.min(sorted.length - 1, Math.floor((p / 100) * sorted.length))];
}

async function runMode(mode: Mode): Promise<(string | number)[]> {
  const site = await startCrawlSite();
  const hosts = Array.from({ length: HOSTS }, (_, h) => `wh${h}-${mode}.example.test`);
  for (const host of hosts) {
    const children = Array.from({ length: PER_HOST - 1 }, (_, i) => `/p${i}`);
    site.page(site.url(host), { links: children, latencyMs: LATENCY_MS });
    for (const p of children) site.page(site.url(host, p), { latencyMs: LATENCY_MS });
  }
  const receiver = await startWebhookReceiver(() => ({ status: 204 }));
  const env = await startCrawlEnv(mode, { workers: 1, env: { LOG_LEVEL: 'error', TRAWL_ROBOTS: 'false', TRAWL_WORKER_CONCURRENCY: '64' } });
  try {
    const began = Date.now();
    const crawl = await startCrawl(env.gw, {
      urls: hosts.map((h) => site.url(h)),
      max_depth: 1,
      max_pages: HOSTS * PER_HOST,
      webhook: { url: receiver.url, secret: SECRET },
    });
    const done = await waitForCrawl(env.gw, crawl.id, { timeoutMs: 600_000, intervalMs: 500 });
    const wallS = (Date.now() - began) / 1000;
    const items = await allItems(env.gw, crawl.id);
    const deadline = Date.now() + 120_000;
    while (receiver.accepted().size < items.length + 2 && Date.now() < deadline) await new Promise((r) => setTimeout(r, 100));
    const first = new Map<string, number>();
    const created = new Map<string, number>();
    const queued = new Map<string, number>();
    for (const h of receiver.received()) {
      if (h.status < 200 || h.status >= 300 || first.has(h.id)) continue;
      first.set(h.id, h.at);
      const body = JSON.parse(h.body);
      if (h.type === 'crawl.page') {
        created.set(h.id, Date.parse(body.data.item.created_at));
        queued.set(h.id, Date.parse(body.created_at));
      }
    }
    const latencies = [...created].map(([id, at]) => first.get(id)! - at).sort((a, b) => a - b);
    // The two legs: page stored to its event queued (the pump), event queued to received (claim, body, send).
    const toQueue = [...created].map(([id, at]) => queued.get(id)! - at).sort((a, b) => a - b);
    const toSend = [...queued].map(([id, at]) => first.get(id)! - at).sort((a, b) => a - b);
    const pageIds = new Set([...created.keys()].map((id) => JSON.parse(receiver.received().find((h) => h.id === id)!.body).data.item.id as string));
    const exact = pageIds.size === items.length && items.every((i) => pageIds.has(i.id)) && first.size === items.length + 2;
    const dupes = receiver.received().length - first.size;
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
    await receiver.close();
    await site.close();
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
      'Latency: item created_at (set when the page is stored) to the receiver answering its crawl.page event; the receiver, the site and the gateway share the bench process (cluster: the worker is its own process, with Redis).',
      'The receiver answers 204 at once; failures, timeouts and slow receivers are covered by test/crawl/crawl-webhooks.e2e.test.ts.',
    ],
  };
}
