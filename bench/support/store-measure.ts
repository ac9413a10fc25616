import { existsSync, writeFileSync } from 'node:fs';
import { crawlItems, duplicateCount } from './crawl-items.ts';
import { cpuMsOf, mapsOf, memoryOf, peakRssMbOf, type ProcMemory } from './proc-stats.ts';
import { startNodeProcess } from './processes.ts';
import { timeRestart } from './restart-time.ts';
import { startBackend, storedBytes, type Backend, type BackendName } from './store-backends.ts';
import { baseEnv, crawl } from './trawl-cases.ts';

export interface StoreFigures {
  name: BackendName;
  /** Items read back through the API, against crawls × site pages. */
  delivered: number;
  expected: number;
  /** Items of one crawl with a URL another item of that crawl has, summed over the crawls. */
  duplicates: number;
  wallMs: number;
  /** The Trawl processes (gateway, worker) over the crawls. */
  cpuMs: number;
  redisCpuMs: number | null;
  /** Summed peak RSS of the Trawl processes after the nth crawl. */
  rssAfter: Map<number, number>;
  /** Resident memory now, anonymous and file-backed apart, of each Trawl process (gateway, then worker) after the nth crawl. */
  memAfter: Map<number, ProcMemory[]>;
  /** Maps of the data file (trawl.mdb) in the gateway after the crawls; null without one. */
  dataFileMaps: number | null;
  /** Store bytes per delivered page (growth over the crawls): in use, and the data file on disk. */
  bytesPerPage: { used: number; file: number | null } | null;
  /** Spawn to the first answered authenticated read, per restart, with `restartItems` stored: wall and CPU. */
  restarts: { ms: number; cpuMs: number }[];
  /** Restarts that failed, with what they threw. */
  restartErrors: string[];
  restartItems: number;
}

export interface MeasureOptions {
  site: { port: number; hosts: number; pages: number };
  crawls: number;
  rssAfter: number[];
  /** After which crawls each process's anonymous and file-backed RSS are read. */
  memAfter: number[];
  restarts: number;
  storedItems: number;
  /** A real item is written here from the first store measured, as the template of the seeded ones. */
  templateFile: string;
}

const sum = (xs: number[]) => xs.reduce((a, b) => a + b, 0);

interface Measured {
  b: Backend;
  f: StoreFigures;
  ids: string[];
  before: Awaited<ReturnType<typeof storedBytes>>;
  /** The crawl read after restarts: the last seeded one (or the last crawled). */
  readCrawl?: string;
}

/**
 * The stores side by side, one gateway process each, all running at once and taking turns, so that what else the
 * shared machine does falls on every store alike: crawl n of each store, then crawl n + 1 of each, and so on; then
 * every item read back; then each store stopped, seeded up to `storedItems`, and restarted in turns.
 */
export async function measureStores(names: BackendName[], o: MeasureOptions): Promise<StoreFigures[]> {
  const all: Measured[] = [];
  try {
    for (const name of names) {
      const b = await startBackend(name);
      all.push({ b, f: emptyFigures(name, o, b), ids: [], before: await storedBytes(b) });
    }
    for (let i = 1; i <= o.crawls; i++) {
      for (const m of all) await crawlOnce(m, i, o);
    }
    for (const m of all) await readBack(m, o.templateFile);
    for (const m of all) {
      await m.b.stop();
      if (m.b.name === 'memory') continue;
      const seeded = await seed(m.b.stateEnv, Math.max(0, o.storedItems - m.f.delivered), o.templateFile);
      m.f.restartItems = m.f.delivered + seeded.items;
      m.readCrawl = seeded.crawl_ids.at(-1) ?? m.ids.at(-1)!;
    }
    for (let r = 0; r < o.restarts; r++) {
      for (const m of all) {
        // In memory nothing survives a restart: its figure is the floor, a process start on an empty store.
        try {
          const t = m.readCrawl
            ? await timeRestart(m.b.stateEnv, `/v1/crawl/${m.readCrawl}`, 200, checkCompleted)
            : await timeRestart(m.b.stateEnv, '/v1/crawl/crawl_none', 404);
          m.f.restarts.push(t);
        } catch (err) {
          // One failed restart is reported in the table, not lost with the crawls' figures.
          m.f.restartErrors.push(String(err).slice(0, 500));
          process.stderr.write(`${m.b.name} restart ${r + 1} failed: ${String(err).slice(0, 2000)}\n`);
        }
      }
    }
    return all.map((m) => m.f);
  } finally {
    for (const m of all) {
      await m.b.stop();
      m.b.remove();
    }
  }
}

function emptyFigures(name: BackendName, o: MeasureOptions, b: Backend): StoreFigures {
  return {
    name,
    delivered: 0,
    expected: o.crawls * o.site.pages,
    duplicates: 0,
    wallMs: 0,
    cpuMs: 0,
    redisCpuMs: b.redis ? 0 : null,
    rssAfter: new Map(),
    memAfter: new Map(),
    dataFileMaps: null,
    bytesPerPage: null,
    restarts: [],
    restartErrors: [],
    restartItems: 0,
  };
}

async function crawlOnce({ b, f, ids }: Measured, i: number, o: MeasureOptions): Promise<void> {
  const cpu0 = sum(b.pids.map(cpuMsOf));
  const redis0 = b.redis ? cpuMsOf(b.redis.pid) : 0;
  const c = await crawl(b.url, o.site.port, o.site.hosts);
  f.cpuMs += sum(b.pids.map(cpuMsOf)) - cpu0;
  if (b.redis) f.redisCpuMs! += cpuMsOf(b.redis.pid) - redis0;
  f.wallMs += c.wallMs;
  ids.push(c.id);
  process.stderr.write(`${b.name} crawl ${i}: ${c.pages} pages in ${(c.wallMs / 1000).toFixed(1)} s\n`);
  if (o.rssAfter.includes(i)) f.rssAfter.set(i, sum(b.pids.map(peakRssMbOf)));
  if (o.memAfter.includes(i)) f.memAfter.set(i, b.pids.map(memoryOf));
  if (b.dataDir && i === o.crawls) f.dataFileMaps = mapsOf(b.pids[0]!, '/trawl.mdb');
}

/** After the RSS figures: what a caller gets back, every page once; then the store's growth per page. */
async function readBack(m: Measured, templateFile: string): Promise<void> {
  for (const id of m.ids) {
    const items = await crawlItems(m.b.url, id);
    m.f.delivered += items.length;
    m.f.duplicates += duplicateCount(items.map((it) => String(it.url)));
    if (!existsSync(templateFile)) writeFileSync(templateFile, JSON.stringify(storedItemOf(items[0]!)));
  }
  // The disk gauge is measured at most once a second.
  await new Promise((r) => setTimeout(r, 1100));
  const after = await storedBytes(m.b);
  if (m.before && after) {
    m.f.bytesPerPage = {
      used: (after.used - m.before.used) / m.f.delivered,
      file: after.file !== null && m.before.file !== null ? (after.file - m.before.file) / m.f.delivered : null,
    };
  }
}

function checkCompleted(body: unknown): void {
  const job = (body as { crawl: { status: string; progress: { pages_completed: number } } }).crawl;
  if (job.status !== 'completed' || job.progress.pages_completed === 0) throw new Error(`crawl after restart: ${JSON.stringify(job)}`);
}

/** A public crawl item as the store keeps it (StoredItem: without the fields the view adds). */
function storedItemOf(item: Record<string, unknown>): Record<string, unknown> {
  const { id: _id, crawl_id: _c, page_run_id: _p, artifacts: _a, usage: _u, ...stored } = item;
  return stored;
}

async function seed(stateEnv: Record<string, string>, count: number, templateFile: string): Promise<{ crawl_ids: string[]; items: number }> {
  if (count === 0) return { crawl_ids: [], items: 0 };
  const script = new URL('./seed-items.ts', import.meta.url).pathname;
  const p = await startNodeProcess<{ crawl_ids: string[]; items: number; ms: number }>(script, baseEnv(stateEnv), [String(count), templateFile]);
  // The data directory is free again only once the seeding process is gone.
  if (p.child.exitCode === null) await new Promise((r) => p.child.once('exit', r));
  process.stderr.write(`seeded ${p.info.items} items in ${(p.info.ms / 1000).toFixed(1)} s\n`);
  return p.info;
}
