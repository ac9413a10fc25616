import { rmSync } from 'node:fs';
import { loadavg, tmpdir } from 'node:os';
import { join } from 'node:path';
import { startNodeProcess, stop } from './support/processes.ts';
import { BACKENDS } from './support/store-backends.ts';
import { measureStores, type StoreFigures } from './support/store-measure.ts';
import type { ScenarioResult } from './support/table.ts';
import type { ProcMemory } from './support/proc-stats.ts';

/**
 * Issue 16's store comparison, in one run: the crawl-light scenario (2,000 pages, 20 hosts × 100, ~20 KB, 5 links)
 * crawled BENCH_CRAWLS times (10) in one gateway process per store: embedded in memory (`TRAWL_DATA_DIR=:memory:`),
 * embedded on disk (the default), cluster mode on Redis with one worker; the stores run at once and take turns,
 * crawl by crawl. Then every item is read back through the API (delivered, duplicates), the store's bytes per
 * page, and the restart: what `npm start` runs on the same store with BENCH_STORED_ITEMS (100,000) items (the
 * crawls' own plus seeded ones), from spawn to the first answered authenticated read (GET of a crawl), three
 * times. BENCH_STORES (e.g. `disk,memory`) runs some of them only.
 */
const CRAWLS = Number(process.env.BENCH_CRAWLS ?? 10);
const STORED_ITEMS = Number(process.env.BENCH_STORED_ITEMS ?? 100_000);
const RSS_AFTER = [1, 5, 10].filter((n) => n <= CRAWLS);
/** Anonymous RSS after the second crawl (the first warms caches and loads engines) and after the last. */
const MEM_AFTER = [...new Set([Math.min(2, CRAWLS), CRAWLS])];
const RESTARTS = 3;

const median = (xs: number[]) => [...xs].sort((a, b) => a - b)[Math.floor(xs.length / 2)]!;
const secs = (ms: number) => (ms / 1000).toFixed(2);
/** Median wall time and median CPU time of the restarts, in seconds. */
const restart = (f: StoreFigures) =>
  f.restarts.length === 0 ? 'failed' : `${secs(median(f.restarts.map((r) => r.ms)))} (CPU ${secs(median(f.restarts.map((r) => r.cpuMs)))})`;
const each = (f: StoreFigures) =>
  [...f.restarts.map((r) => `${secs(r.ms)} (${secs(r.cpuMs)})`), ...f.restartErrors.map((e) => `failed: ${e}`)].join(', ');
const rate = (f: StoreFigures) => (f.delivered * 1000) / f.wallMs;
const LABEL = { memory: 'embedded, in memory', disk: 'embedded, on disk', redis: 'Redis (cluster, 1 worker)' } as const;

export default async function run(): Promise<ScenarioResult> {
  const loadAtStart = loadavg()[0]!;
  const site = await startNodeProcess<{ port: number; hosts: number; pages: number }>(new URL('./support/bench-site.ts', import.meta.url).pathname, {}, [
    '--latency-ms',
    '0',
  ]);
  const templateFile = join(tmpdir(), `trawl-bench-item-${process.pid}.json`);
  const stores = BACKENDS.filter((n) => !process.env.BENCH_STORES || process.env.BENCH_STORES.split(',').includes(n));
  let figures: StoreFigures[];
  try {
    process.stderr.write(`${stores.join(', ')}: ${CRAWLS} crawls of ${site.info.pages} pages each, in turns\n`);
    figures = await measureStores(stores, { site: site.info, crawls: CRAWLS, rssAfter: RSS_AFTER, memAfter: MEM_AFTER, restarts: RESTARTS, storedItems: STORED_ITEMS, templateFile });
  } finally {
    await stop(site.child);
    rmSync(templateFile, { force: true });
  }
  const by = (n: string) => figures.find((f) => f.name === n);
  const rssRatio = (f: StoreFigures) => f.rssAfter.get(RSS_AFTER.at(-1)!)! / f.rssAfter.get(1)!;
  const mem = by('memory');
  const disk = by('disk');
  // Per process (gateway; worker on Redis), joined in one cell.
  const [m0, m1] = [MEM_AFTER[0]!, MEM_AFTER.at(-1)!];
  const perProc = (f: StoreFigures, n: number, pick: (m: ProcMemory) => number) => f.memAfter.get(n)!.map((m) => pick(m).toFixed(0)).join('; ');
  const anonRatios = (f: StoreFigures) => f.memAfter.get(m1)!.map((m, i) => m.anonMb / f.memAfter.get(m0)![i]!.anonMb);
  const PROC = (f: StoreFigures) => (f.name === 'redis' ? 'gateway; worker' : 'gateway');
  const kib = (n: number) => `${(n / 1024).toFixed(1)} KiB`;
  return {
    title: `embedded-store: crawl-light (${site.info.pages} pages, 20 hosts × 100, ~20 KB) × ${CRAWLS} per store, restart with ${STORED_ITEMS.toLocaleString('en')} items`,
    columns: [
      'store',
      'delivered / expected',
      'duplicates',
      'pages/s',
      'CPU ms/page',
      'Redis CPU ms/page',
      ...RSS_AFTER.map((n) => `peak RSS MiB after ${n}`),
      `RSS ${RSS_AFTER.at(-1)} ÷ 1`,
      ...MEM_AFTER.map((n) => `anon RSS MiB after ${n}`),
      `anon ${m1} ÷ ${m0}`,
      `file RSS MiB after ${m1}`,
      'data file maps',
      'store bytes/page',
      'restart → first read, s (median of 3)',
      'stored at restart',
    ],
    rows: figures.map((f) => [
      LABEL[f.name],
      `${f.delivered} / ${f.expected}`,
      f.duplicates,
      rate(f),
      f.cpuMs / f.delivered,
      f.redisCpuMs === null ? '–' : f.redisCpuMs / f.delivered,
      ...RSS_AFTER.map((n) => f.rssAfter.get(n)!),
      rssRatio(f),
      ...MEM_AFTER.map((n) => perProc(f, n, (m) => m.anonMb)),
      anonRatios(f).map((r) => r.toFixed(2)).join('; '),
      perProc(f, m1, (m) => m.fileMb),
      f.dataFileMaps ?? '–',
      f.bytesPerPage === null ? '–' : f.bytesPerPage.file === null ? `${kib(f.bytesPerPage.used)} (RAM)` : `${kib(f.bytesPerPage.used)} in use, ${kib(f.bytesPerPage.file)} file`,
      restart(f),
      f.restartItems === 0 ? 'nothing (lost at exit)' : `${f.restartItems.toLocaleString('en')} items`,
    ]),
    notes: [
      ...(mem && disk ? [`pages/s on disk ÷ in memory: ${(rate(disk) / rate(mem)).toFixed(2)} (target ≥ 0.90)`] : []),
      `peak RSS after ${RSS_AFTER.at(-1)} crawls ÷ after 1: ${figures.map((f) => `${LABEL[f.name]} ${rssRatio(f).toFixed(2)}`).join('; ')} (target on disk ≤ 1.15)`,
      `anonymous RSS after ${m1} crawls ÷ after ${m0}: ${figures.map((f) => `${LABEL[f.name]} ${anonRatios(f).map((r) => r.toFixed(2)).join(' (gateway), ')}${f.name === 'redis' ? ' (worker)' : ''}`).join('; ')} (target ≤ 1.15 for the gateway on disk and for the worker)`,
      `memory columns, per process (${figures.map((f) => `${LABEL[f.name]}: ${PROC(f)}`).join('; ')}): RssAnon and RssFile of /proc/<pid>/status read right after the crawl, so the anonymous figure is what the process holds (heaps, stacks) and the file-backed one the mapped files the kernel may drop and read again (the LMDB data file on disk); VmRSS, and so peak RSS, counts both. data file maps: maps of trawl.mdb in the gateway after the last crawl (one: LMDB's map reserved once, not remapped as the file grew).`,
      `restarts, wall (CPU) s: ${figures.map((f) => `${LABEL[f.name]} ${each(f)}`).join('; ')} (target on disk < 2 s, with ${STORED_ITEMS.toLocaleString('en')} items)`,
      'pages/s and CPU: the crawls only (wall time from POST /v1/crawl to the status read that shows the end; CPU of the gateway, and of the worker on Redis); peak RSS: the same processes (VmHWM), summed.',
      'delivered: items read back through GET /v1/crawl/{id}/items after the crawls; duplicates: items of a crawl whose URL another item of that crawl has.',
      'store bytes/page: growth over the crawls per delivered page; on disk the bytes in use (trawl_data_dir_used_bytes) and the data file; Redis its used_memory (it persists nothing here).',
      `restart: what npm start runs (scripts/start.mjs gateway: the bundle of scripts/build.mjs, built beforehand) spawned on the same store, timed to the first 200 of GET /v1/crawl/{id} (a seeded crawl); the stored items are the crawls' own plus crawls of 10,000 seeded through createCrawl, the frontier and finalizeCrawl (bench/support/seed-items.ts), each a copy of a real item. On Redis only the gateway restarts; Redis keeps running.`,
      `load average: ${loadAtStart.toFixed(2)} at start, ${loadavg()[0]!.toFixed(2)} at the end (2 cores, shared machine).`,
    ],
  };
}
