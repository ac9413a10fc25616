import { spawn, type ChildProcess } from 'node:child_process';
import { mkdtempSync, rmSync } from 'node:fs';
import { tmpdir } from 'node:os';
import { join } from 'node:path';
import { connectRedis } from '@trawl/redis';
import { BUNDLES, buildBundles, stale } from '../../scripts/build.mjs';
import { crawlItems, duplicateCount } from './crawl-items.ts';
import { cpuMsOf, peakRssMbOf, type PeerResult } from './proc-stats.ts';
import { startBundledGateway, startWorkerProcess, stop } from './processes.ts';

export const KEY = 'bench-key-0123456789abcdef';
const root = new URL('../../', import.meta.url).pathname;

export function baseEnv(extra: Record<string, string>): Record<string, string> {
  return {
    PORT: '0',
    TRAWL_BOOTSTRAP_KEY: KEY,
    TRAWL_ALLOW_PRIVATE: '127.0.0.0/8',
    LOG_LEVEL: 'warn',
    ...extra,
  };
}

async function api(url: string, method: string, path: string, body?: unknown): Promise<any> {
  const res = await fetch(`${url}${path}`, {
    method,
    headers: { authorization: `Bearer ${KEY}`, ...(body ? { 'content-type': 'application/json' } : {}) },
    body: body ? JSON.stringify(body) : undefined,
  });
  const json = await res.json();
  if (res.status >= 400) throw new Error(`${method} ${path}: ${res.status} ${JSON.stringify(json).slice(0, 300)}`);
  return json;
}

/** Creates the benchmark crawl and waits for its end; returns its id, pages delivered and wall time. */
export async function crawl(gatewayUrl: string, port: number, hosts: number, maxPages = 10_000): Promise<{ id: string; pages: number; wallMs: number }> {
  const urls = Array.from({ length: hosts }, (_, i) => `http://127.0.0.${i + 1}:${port}/`);
  const t0 = performance.now();
  const { crawl: c } = await api(gatewayUrl, 'POST', '/v1/crawl', { urls, scope: 'same_hostname', max_depth: 10, max_pages: maxPages });
  for (;;) {
    await new Promise((r) => setTimeout(r, 100));
    const { crawl: s } = await api(gatewayUrl, 'GET', `/v1/crawl/${c.id}`);
    if (!['queued', 'running'].includes(s.status)) {
      if (s.status !== 'completed') throw new Error(`crawl ended ${s.status}`);
      return { id: c.id as string, pages: s.progress.pages_completed, wallMs: performance.now() - t0 };
    }
  }
}

/** The bundles `npm start` and `npm run worker` run, built first when a source is newer (as `npm start` does). */
async function bundle(name: keyof typeof BUNDLES): Promise<string> {
  if (stale()) await buildBundles();
  return join(root, BUNDLES[name].out);
}

/**
 * A crawl of the site's first host capped at one page, before the clock starts: the process loads its engines and
 * starts its content threads, as a service does once, so the measured crawl is the steady state (the peers' figures
 * also start after their imports).
 */
/** One page (the default), or a crawl of `pages` pages over every host so that every worker process takes part. */
async function warmUp(gatewayUrl: string, port: number, pages = 1, hosts = 1): Promise<void> {
  await crawl(gatewayUrl, port, pages === 1 ? 1 : hosts, pages);
}

/** Pages delivered more than once, from the crawl's items read back (its URLs; 0 when every page came once). */
async function duplicatesOf(gatewayUrl: string, crawlId: string): Promise<number> {
  const items = await crawlItems(gatewayUrl, crawlId);
  return duplicateCount(items.map((i) => String(i.url)));
}

/**
 * Crawls of the whole site, one after another in one embedded gateway (`rounds`, default 1): the first is a process
 * just started, a later one a service that has run a while (its code compiled and its heap grown).
 */
export async function trawlEmbedded(port: number, hosts: number, env: Record<string, string>, rounds = 1): Promise<PeerResult[]> {
  const dataDir = mkdtempSync(join(tmpdir(), 'trawl-bench-data-'));
  const gw = await startBundledGateway(await bundle('gateway'), baseEnv({ TRAWL_WORKERS: '1', TRAWL_DATA_DIR: dataDir, ...env }));
  try {
    await warmUp(gw.info.url, port);
    const out: (PeerResult & { id: string })[] = [];
    for (let r = 0; r < rounds; r++) {
      const cpu0 = cpuMsOf(gw.child.pid!);
      const { id, pages, wallMs } = await crawl(gw.info.url, port, hosts);
      const cpuMs = cpuMsOf(gw.child.pid!) - cpu0;
      out.push({ id, pages, wallMs, cpuMs, peakRssMb: peakRssMbOf(gw.child.pid!) });
    }
    // Read back once every round is measured: 80 MB of items through the API in between would leave its garbage
    // to the next round's collector (the peers read nothing back).
    for (const r of out) r.duplicates = await duplicatesOf(gw.info.url, r.id);
    return out;
  } finally {
    await stop(gw.child);
    rmSync(dataDir, { recursive: true, force: true });
  }
}

/** A throw-away redis-server without persistence on a free port (kill it and remove `dir` when done). */
export async function startRedis(): Promise<{ child: ChildProcess; url: string; dir: string }> {
  const { freePort } = await import('@trawl/test-support/free-port.ts');
  const p = await freePort();
  const dir = mkdtempSync(join(tmpdir(), 'trawl-bench-redis-'));
  const child = spawn('redis-server', ['--port', String(p), '--bind', '127.0.0.1', '--save', '', '--appendonly', 'no', '--dir', dir], {
    stdio: 'ignore',
  });
  const url = `redis://127.0.0.1:${p}`;
  for (let i = 0; ; i++) {
    try {
      const c = await connectRedis(url, 'bench-probe');
      await c.quit();
      break;
    } catch (err) {
      if (i > 100) throw err;
      await new Promise((r) => setTimeout(r, 50));
    }
  }
  return { child, url, dir };
}

/** Commands Redis has run so far (INFO and CLIENT left out: the benchmark's own). */
export async function totalCommands(url: string): Promise<number> {
  const c = await connectRedis(url, 'bench-stats');
  const info = await c.info('commandstats');
  await c.quit();
  let n = 0;
  for (const m of info.matchAll(/^cmdstat_(\w+):calls=(\d+)/gm)) if (m[1] !== 'info' && m[1] !== 'client') n += Number(m[2]);
  return n;
}

export async function trawlCluster(port: number, hosts: number, workers: number, env: Record<string, string>, warmPages = 1): Promise<PeerResult> {
  const redis = await startRedis();
  const common = baseEnv({ REDIS_URL: redis.url, ...env });
  const gw = await startBundledGateway(await bundle('gateway'), { ...common, TRAWL_WORKERS: '0' });
  const ws = [];
  try {
    for (let i = 0; i < workers; i++) ws.push(await startWorkerProcess(await bundle('worker'), common));
    // Let every worker register and take its share of shards before the clock starts.
    await new Promise((r) => setTimeout(r, 2500));
    await warmUp(gw.info.url, port, warmPages, hosts);
    const pids = [gw.child.pid!, ...ws.map((w) => w.pid!)];
    const cpu0 = pids.reduce((a, p) => a + cpuMsOf(p), 0);
    const redisCpu0 = cpuMsOf(redis.child.pid!);
    const cmd0 = await totalCommands(redis.url);
    const { id, pages, wallMs } = await crawl(gw.info.url, port, hosts);
    const cmd1 = await totalCommands(redis.url);
    const cpuMs = pids.reduce((a, p) => a + cpuMsOf(p), 0) - cpu0;
    return {
      pages,
      wallMs,
      cpuMs,
      duplicates: await duplicatesOf(gw.info.url, id),
      peakRssMb: pids.reduce((a, p) => a + peakRssMbOf(p), 0),
      redisCommands: cmd1 - cmd0,
      redisCpuMs: cpuMsOf(redis.child.pid!) - redisCpu0,
    };
  } finally {
    for (const w of ws) await stop(w);
    await stop(gw.child);
    redis.child.kill('SIGKILL');
    rmSync(redis.dir, { recursive: true, force: true });
  }
}
