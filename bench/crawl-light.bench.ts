import { spawn } from 'node:child_process';
import { createInterface } from 'node:readline';
import type { PeerResult } from './support/proc-stats.ts';
import { startNodeProcess, stop } from './support/processes.ts';
import type { ScenarioResult } from './support/table.ts';
import { trawlCluster, trawlEmbedded } from './support/trawl-cases.ts';

/**
 * Crawl throughput side by side in one run, on two local sites of 2,000 ~20 KB pages (bench/support/bench-site.ts):
 * `20 hosts` (20 hosts × 100 pages, 5 links) and `one host` (2,000 article-shaped pages: nav, sections, a 12-row
 * table, 6 links). Trawl embedded (`npm start`'s bundle, on its data directory) and cluster with one worker, stock
 * Crawlee CheerioCrawler, Scrapy (when installed), a bare got-scraping + cheerio loop with and without turndown,
 * the HTTP clients alone (got-scraping, Node's fetch, node:http: the floor under any Node crawler);
 * then the cluster cases with 1 and 2 workers on the 20-host site with 100 ms latency per page.
 * `BENCH_SITES=hosts,one-host` picks the sites; `BENCH_LATENCY=0` skips the latency cases; `BENCH_CRAWLERS=trawl` runs
 * Trawl's rows only.
 */
const here = (p: string) => new URL(p, import.meta.url).pathname;

async function nodePeer(script: string, port: number, hosts: number, ...extra: string[]): Promise<PeerResult> {
  return runJson(process.execPath, ['--import', 'tsx', here(script), String(port), String(hosts), ...extra]);
}

function runJson(cmd: string, args: string[]): Promise<PeerResult> {
  return new Promise((resolve, reject) => {
    const child = spawn(cmd, args, { stdio: ['ignore', 'pipe', 'inherit'] });
    let last = '';
    createInterface({ input: child.stdout! }).on('line', (l) => {
      if (l.startsWith('{')) last = l;
    });
    child.once('exit', (code) => (code === 0 && last ? resolve(JSON.parse(last) as PeerResult) : reject(new Error(`${args.join(' ')} exited ${code}`))));
  });
}

async function scrapyAvailable(): Promise<boolean> {
  return new Promise((resolve) => {
    const c = spawn('/usr/bin/python3', ['-c', 'import scrapy'], { stdio: 'ignore' });
    c.once('exit', (code) => resolve(code === 0));
    c.once('error', () => resolve(false));
  });
}

type Row = [string, string, PeerResult];
// BENCH_CRAWLERS=trawl: Trawl's rows only (an older checkout's figures beside this one's, with the same sites).
const TRAWL_ONLY = process.env.BENCH_CRAWLERS === 'trawl';
const SITE_LABEL: Record<string, string> = { hosts: '20 hosts', 'one-host': 'one host' };
const EMBEDDED = 'Trawl embedded (Markdown)';
const EMBEDDED_AGAIN = 'Trawl embedded, its second crawl (Markdown)';
const CLUSTER = 'Trawl cluster, 1 worker (Markdown)';
const STOCK = 'Crawlee CheerioCrawler, stock, c=64 (no Markdown)';
const FLOORS = [
  ['got', 'got-scraping'],
  ['fetch', "Node's fetch (undici)"],
  ['http', 'node:http, kept-alive agent'],
] as const;

async function withSite<T>(shape: string, latency: number, fn: (port: number, hosts: number) => Promise<T>): Promise<T> {
  const site = await startNodeProcess<{ port: number; hosts: number }>(here('./support/bench-site.ts'), {}, [
    '--latency-ms',
    String(latency),
    '--shape',
    shape,
  ]);
  try {
    return await fn(site.info.port, site.info.hosts);
  } finally {
    await stop(site.child);
  }
}

export default async function run(): Promise<ScenarioResult> {
  const rows: Row[] = [];
  const notes: string[] = [];
  const shapes = (process.env.BENCH_SITES ?? 'hosts,one-host').split(',');
  const scrapy = await scrapyAvailable();
  if (!scrapy) notes.push('Scrapy skipped: /usr/bin/python3 -c "import scrapy" failed (apt-get install python3-scrapy).');
  for (const shape of shapes) {
    const label = SITE_LABEL[shape] ?? shape;
    await withSite(shape, 0, async (port, hosts) => {
      const [first, second] = await trawlEmbedded(port, hosts, {}, 2);
      rows.push([label, EMBEDDED, first!], [label, EMBEDDED_AGAIN, second!]);
      rows.push([label, CLUSTER, await trawlCluster(port, hosts, 1, {})]);
      if (TRAWL_ONLY) return;
      rows.push([label, STOCK, await nodePeer('./support/peer-crawlee-cheerio.ts', port, hosts)]);
      if (scrapy) rows.push([label, 'Scrapy, c=64 (no Markdown)', await runJson('/usr/bin/python3', [here('./support/peer_scrapy.py'), String(port), String(hosts)])]);
      rows.push([label, 'bare got-scraping + cheerio, c=64 (no Markdown)', await nodePeer('./support/peer-bare-loop.ts', port, hosts)]);
      rows.push([label, 'bare got-scraping + cheerio + turndown, c=64', await nodePeer('./support/peer-bare-loop.ts', port, hosts, 'markdown')]);
      // The HTTP client alone (no parse): what a Node crawler pays before it reads a page.
      for (const [client, name] of FLOORS) rows.push([label, `floor: ${name} alone, c=64 (links by regex)`, await nodePeer('./support/peer-fetch-floor.ts', port, hosts, client)]);
    });
  }
  const rate = (r: PeerResult) => (r.pages * 1000) / r.wallMs;
  const cpu = (r: PeerResult) => r.cpuMs / Math.max(1, r.pages);
  for (const shape of shapes) {
    const label = SITE_LABEL[shape] ?? shape;
    const find = (name: string) => rows.find(([l, n]) => l === label && n === name)?.[2];
    const stock = find(STOCK);
    for (const name of [EMBEDDED, EMBEDDED_AGAIN, CLUSTER]) {
      const t = find(name);
      if (stock && t) {
        notes.push(
          `${label}, ${name} ÷ stock CheerioCrawler: pages/s ${(rate(t) / rate(stock)).toFixed(2)} (target ≥ 3), CPU per page ${(cpu(t) / cpu(stock)).toFixed(2)} (target ≤ 0.3)`,
        );
      }
    }
  }
  for (const shape of shapes) {
    const label = SITE_LABEL[shape] ?? shape;
    const find = (name: string) => rows.find(([l, n]) => l === label && n === name)?.[2];
    const [stock, got] = [find(STOCK), find(`floor: ${FLOORS[0][1]} alone, c=64 (links by regex)`)];
    if (stock && got) notes.push(`${label}, got-scraping alone (no parse, nothing kept) ÷ stock CheerioCrawler: CPU per page ${(cpu(got) / cpu(stock)).toFixed(2)}`);
  }
  if (process.env.BENCH_LATENCY !== '0') {
    const latencyConcurrency = process.env.BENCH_LATENCY_WORKER_CONCURRENCY ?? '16';
    await withSite('hosts', 100, async (port, hosts) => {
      const env = { TRAWL_WORKER_CONCURRENCY: latencyConcurrency };
      rows.push(['20 hosts +100 ms', `Trawl cluster, 1 worker (c=${latencyConcurrency})`, await trawlCluster(port, hosts, 1, env)]);
      rows.push(['20 hosts +100 ms', `Trawl cluster, 2 workers (c=${latencyConcurrency} each)`, await trawlCluster(port, hosts, 2, env)]);
    });
    const lat = rows.filter(([l]) => l === '20 hosts +100 ms').map(([, , r]) => r);
    if (lat.length === 2) notes.push(`2 workers ÷ 1 worker on the +100 ms site: ${(rate(lat[1]) / rate(lat[0])).toFixed(2)}`);
  }
  notes.push(
    'Trawl runs the bundles `npm start` and `npm run worker` run, with its defaults: robots.txt honoured, at most 4 requests in flight per host, every page stored as an item with Markdown and HTML. Each Trawl process first crawls one page (loading its engines and content threads, as a running service has); the clock and CPU start after that, as the peers\' start after their imports.',
  );
  notes.push('delivered once: items read back through GET /v1/crawl/{id}/items, pages whose URL came more than once (Trawl only; the peers keep no items).');
  notes.push('CPU and RSS: the crawler processes only (gateway + workers for Trawl, content threads included); Redis CPU in its own column. The site runs in its own process.');
  return {
    title: 'crawl-light: 2,000 pages of ~20 KB on two local sites, same_hostname',
    columns: ['site', 'crawler', 'pages', 'duplicates', 'pages/s', 'CPU ms/page', 'peak RSS MiB', 'Redis cmds/page', 'Redis CPU ms/page'],
    rows: rows.map(([site, name, r]) => [
      site,
      name,
      r.pages,
      r.duplicates === undefined ? '–' : r.duplicates,
      rate(r),
      cpu(r),
      r.peakRssMb,
      r.redisCommands === undefined ? '–' : (r.redisCommands / Math.max(1, r.pages)).toFixed(1),
      r.redisCpuMs === undefined ? '–' : (r.redisCpuMs / Math.max(1, r.pages)).toFixed(2),
    ]),
    notes,
  };
}
