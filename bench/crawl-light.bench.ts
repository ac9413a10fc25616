import { spawn } from 'node:child_process';
import { createInterface } from 'node:readline';
import type { PeerResult } from './support/proc-stats.ts';
import { startNodeProcess, stop } from './support/processes.ts';
import type { ScenarioResult } from './support/table.ts';
import { trawlCluster, trawlEmbedded } from './support/trawl-cases.ts';

/**
 * Crawl throughput on a local 2,000-page site (20 hosts × 100 pages, ~20 KB, 5 links each), side by side in one run:
 * Trawl embedded, Trawl cluster with 1 and 2 workers, stock Crawlee CheerioCrawler, Scrapy (when installed) and a
 * bare got-scraping + cheerio + turndown loop; then the cluster cases again with 100 ms latency per page.
 */
const here = (p: string) => new URL(p, import.meta.url).pathname;

async function nodePeer(script: string, port: number, hosts: number): Promise<PeerResult> {
  return runJson(process.execPath, ['--import', 'tsx', here(script), String(port), String(hosts)]);
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

export default async function run(): Promise<ScenarioResult> {
  const rows: Row[] = [];
  const notes: string[] = [];
  const latencyConcurrency = process.env.BENCH_LATENCY_WORKER_CONCURRENCY ?? '16';
  for (const latency of [0, 100]) {
    const site = await startNodeProcess<{ port: number; hosts: number; pages: number }>(here('./support/bench-site.ts'), {}, [
      '--latency-ms',
      String(latency),
    ]);
    const { port, hosts } = site.info;
    const label = latency === 0 ? 'local' : `+${latency} ms`;
    try {
      if (latency === 0) {
        rows.push([label, 'Trawl embedded (Markdown)', await trawlEmbedded(port, hosts, {})]);
        rows.push([label, 'Trawl cluster, 1 worker (Markdown)', await trawlCluster(port, hosts, 1, {})]);
        rows.push([label, 'Trawl cluster, 2 workers (Markdown)', await trawlCluster(port, hosts, 2, {})]);
        rows.push([label, 'Crawlee CheerioCrawler, stock, c=64 (no Markdown)', await nodePeer('./support/peer-crawlee-cheerio.ts', port, hosts)]);
        if (await scrapyAvailable()) {
          rows.push([label, 'Scrapy, c=64 (no Markdown)', await runJson('/usr/bin/python3', [here('./support/peer_scrapy.py'), String(port), String(hosts)])]);
        } else notes.push('Scrapy skipped: /usr/bin/python3 -c "import scrapy" failed (apt-get install python3-scrapy).');
        rows.push([label, 'bare got-scraping + cheerio + turndown, c=64', await nodePeer('./support/peer-bare-loop.ts', port, hosts)]);
      } else {
        const env = { TRAWL_WORKER_CONCURRENCY: latencyConcurrency };
        rows.push([label, `Trawl cluster, 1 worker (c=${latencyConcurrency})`, await trawlCluster(port, hosts, 1, env)]);
        rows.push([label, `Trawl cluster, 2 workers (c=${latencyConcurrency} each)`, await trawlCluster(port, hosts, 2, env)]);
      }
    } finally {
      await stop(site.child);
    }
  }
  const rate = (r: PeerResult) => (r.pages * 1000) / r.wallMs;
  const find = (s: string) => rows.find(([, n]) => n.startsWith(s))?.[2];
  const stock = find('Crawlee CheerioCrawler');
  const emb = find('Trawl embedded');
  const one = rows.find(([l, n]) => l !== 'local' && n.startsWith('Trawl cluster, 1'))?.[2];
  const two = rows.find(([l, n]) => l !== 'local' && n.startsWith('Trawl cluster, 2'))?.[2];
  if (stock && emb) notes.push(`Trawl embedded ÷ stock CheerioCrawler pages/s: ${(rate(emb) / rate(stock)).toFixed(2)} (target ≥ 1.2, with Markdown)`);
  if (one && two) notes.push(`2 workers ÷ 1 worker on the +100 ms site: ${(rate(two) / rate(one)).toFixed(2)} (target ≥ 1.7)`);
  notes.push('CPU and RSS: the crawler processes only (gateway + workers for Trawl); Redis CPU in its own column. The site runs in its own process.');
  notes.push('Trawl runs with its defaults: robots.txt honoured, at most 4 requests in flight per host, every page stored as an item with Markdown and HTML.');
  return {
    title: 'crawl-light: 2,000 pages (20 hosts × 100, ~20 KB, 5 links), same_hostname',
    columns: ['site', 'crawler', 'pages', 'pages/s', 'CPU ms/page', 'peak RSS MiB', 'Redis cmds/page', 'Redis CPU ms/page'],
    rows: rows.map(([site, name, r]) => [
      site,
      name,
      r.pages,
      rate(r),
      r.cpuMs / Math.max(1, r.pages),
      r.peakRssMb,
      r.redisCommands === undefined ? '–' : (r.redisCommands / Math.max(1, r.pages)).toFixed(1),
      r.redisCpuMs === undefined ? '–' : (r.redisCpuMs / Math.max(1, r.pages)).toFixed(2),
    ]),
    notes,
  };
}
