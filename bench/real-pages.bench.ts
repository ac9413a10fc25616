import { spawnSync } from 'node:child_process';
import { mkdirSync, mkdtempSync, readFileSync, rmSync, writeFileSync } from 'node:fs';
import { createServer, Agent, request, type Server } from 'node:http';
import { loadavg, tmpdir } from 'node:os';
import { join } from 'node:path';
import { gunzipSync } from 'node:zlib';
import { BUNDLES, buildBundles, stale } from '../scripts/build.mjs';
import { cpuMsOf, descendantsCpuMs } from './support/proc-stats.ts';
import { startBundledGateway, stop } from './support/processes.ts';
import { byHalfAndType, scorePredictions, type PageScore } from './support/quality-score.ts';
import { QUALITY_DIR, qualityPages, type QualityPage } from './support/quality-set.ts';
import type { ScenarioResult } from './support/table.ts';

/**
 * Fetch on real pages, as the product runs it: the 300 dev pages of ../shared/quality served from a loopback HTTP
 * server (each at its original host and path, as text/html; charset=utf-8, the encoding the set stores them in),
 * every one asked for with POST /v1/fetch from a gateway process started like `npm start` (the bundle). Reported:
 * the gateway's CPU per page from /proc (its content threads are inside it), F1 per fixed half scored by the set's
 * own score.mjs, the pages that fell back to the browser and what each render yielded, and Chromium's CPU.
 *
 * Cases: Fetch with the browser unavailable (TRAWL_CHROMIUM_PATH names no file: the light path, every fallback ends
 * at a failed launch), Fetch as configured by default (browser on), and trafilatura's extract() alone on the same
 * pages in a Python process of its own (a bench-only copy named by BENCH_TRAFILATURA_PATH, used as PYTHONPATH;
 * skipped with a note when it does not import). Every process is fresh and warms up on BENCH_WARMUP pages of
 * wcxb-dev-all that are not among the 300, so the measured pass is each one's first look at the measured pages.
 * The light-only gateway and trafilatura alternate for BENCH_ROUNDS rounds; the browser case runs once
 * (BENCH_BROWSER=off leaves it out). BENCH_CONCURRENCY requests in flight (2); BENCH_SAVE=dir keeps the outputs.
 */
const KEY = 'bench-key-0123456789abcdef';
const ROUNDS = Number(process.env.BENCH_ROUNDS ?? 2);
const WARMUP = Number(process.env.BENCH_WARMUP ?? 30);
const CONCURRENCY = Number(process.env.BENCH_CONCURRENCY ?? 2);
const WITH_BROWSER = process.env.BENCH_BROWSER !== 'off';
const PYTHON = process.env.BENCH_PYTHON ?? '/usr/bin/python3';
const TRAFILATURA_PATH = process.env.BENCH_TRAFILATURA_PATH ?? '';
const TRAFILATURA_FORMAT = process.env.BENCH_TRAFILATURA_FORMAT ?? 'markdown';
const SAVE = process.env.BENCH_SAVE;
const ROOT = new URL('../', import.meta.url).pathname;
// Chromium's processes (browser, zygotes, renderers, utility) among the gateway's descendants.
const CHROMIUM = /chrom/i;
// A page that only a render fills, fetched during the warm-up: the browser-on gateway launches Chromium then, so the
// measured renders are the steady state (a launch is once per process and per TRAWL_BROWSER_RECYCLE_PAGES renders).
const SHELL = {
  id: 'shell',
  url: 'http://warm-up.test/shell',
  html:
    '<!doctype html><html><head><title>shell</title></head><body><div id="root"></div><script>' +
    'document.getElementById("root").innerHTML = "<article><h1>Rendered</h1>" + ' +
    '"<p>A paragraph the script writes, long enough to count as content for the quality score.</p>".repeat(40) + "</article>";' +
    '</script></body></html>',
};

interface Answer {
  id: string;
  ok: boolean;
  markdown: string;
  winner: string | null;
  attempted: string[];
  reasons: string[];
  browserFailure: string | null;
  qualityScore: number | null;
  error?: string;
}

/** Pages of wcxb-dev-all outside the 300, evenly spaced by id: what every process warms up on. */
function warmupPages(n: number): { id: string; url: string }[] {
  const rows = readFileSync(join(QUALITY_DIR, 'wcxb-dev-all/MANIFEST.tsv'), 'utf8').trim().split('\n').slice(1);
  const pool = rows.map((l) => l.split('\t')).filter((c) => c[3] === 'no').map((c) => ({ id: c[0], url: c[4] })).sort((a, b) => a.id.localeCompare(b.id));
  return Array.from({ length: Math.min(n, pool.length) }, (_, i) => pool[Math.floor(((i + 0.5) * pool.length) / n)]);
}

/**
 * Every page at its own address: the host and path of its original URL (http, on this server's port), resolved to
 * the loopback by the gateway's host rules. The address is part of what the content step reads (a forum's host or
 * path says "discussion"), so a page served under another address scores differently. Anything else (robots.txt,
 * the pages' own assets that a render asks for) is a 404.
 */
async function startPageServer(pages: Map<string, Buffer>): Promise<{ server: Server; port: number; misses: () => number }> {
  let misses = 0;
  const server = createServer((req, res) => {
    const body = pages.get(pageKey(`http://${req.headers.host ?? ''}${req.url ?? '/'}`));
    if (!body) {
      misses++;
      res.writeHead(404, { 'content-type': 'text/plain' }).end('not found');
      return;
    }
    res.writeHead(200, { 'content-type': 'text/html; charset=utf-8', 'content-length': body.length }).end(body);
  });
  await new Promise<void>((r) => server.listen(0, '127.0.0.1', r));
  return { server, port: (server.address() as { port: number }).port, misses: () => misses };
}

/** A page's key on the server: host, path and query of its URL (scheme and port left out). */
function pageKey(url: string): string {
  const u = new URL(url);
  return `${u.hostname}${u.pathname}${u.search}`;
}

/** Where the gateway is asked for a page: its own URL, on the loopback server's port (a made-up one when the set has none). */
function servedUrl(page: { id: string; url: string }, port: number): string {
  const u = new URL(page.url || `http://page-${page.id}.wcxb.test/`);
  return `http://${u.hostname}:${port}${u.pathname}${u.search}`;
}

function fetchPage(gateway: string, agent: Agent, url: string): Promise<{ status: number; body: string }> {
  return new Promise((resolve, reject) => {
    const req = request(
      new URL('/v1/fetch', gateway),
      { method: 'POST', agent, timeout: 120_000, headers: { authorization: `Bearer ${KEY}`, 'content-type': 'application/json' } },
      (res) => {
        const chunks: Buffer[] = [];
        res.on('data', (c: Buffer) => chunks.push(c));
        res.on('end', () => resolve({ status: res.statusCode ?? 0, body: Buffer.concat(chunks).toString('utf8') }));
        res.on('error', reject);
      },
    );
    req.on('timeout', () => req.destroy(new Error('client timeout')));
    req.on('error', reject);
    req.end(JSON.stringify({ url }));
  });
}

interface Target {
  id: string;
  url: string;
}

async function fetchAll(gateway: string, targets: Target[], concurrency = CONCURRENCY): Promise<Map<string, Answer>> {
  const agent = new Agent({ keepAlive: true, maxSockets: concurrency });
  const answers = new Map<string, Answer>();
  let next = 0;
  const lane = async () => {
    while (next < targets.length) {
      const { id, url } = targets[next++];
      const empty = { id, ok: false, markdown: '', winner: null, attempted: [], reasons: [], browserFailure: null, qualityScore: null };
      try {
        const { status, body } = await fetchPage(gateway, agent, url);
        if (status !== 200) {
          answers.set(id, { ...empty, error: `${status} ${body.slice(0, 160)}` });
          continue;
        }
        const { result } = JSON.parse(body) as { result: any };
        answers.set(id, {
          id,
          ok: true,
          markdown: result.content?.markdown ?? '',
          winner: result.audit.engine_winner,
          attempted: result.audit.engines_attempted,
          reasons: result.audit.fallback_reasons,
          browserFailure: result.diagnostics?.browser_failure?.error_code ?? null,
          qualityScore: result.audit.quality_score,
        });
      } catch (err) {
        answers.set(id, { ...empty, error: String(err) });
      }
    }
  };
  try {
    await Promise.all(Array.from({ length: concurrency }, lane));
  } finally {
    agent.destroy();
  }
  return answers;
}

function halves(pages: QualityPage[], scores: Map<string, PageScore>): { A: number; B: number } {
  const overall = byHalfAndType(pages, scores).filter((r) => r.type === 'overall');
  return { A: overall.find((r) => r.half === 'A')!.figures.f1, B: overall.find((r) => r.half === 'B')!.figures.f1 };
}

function outputDir(name: string): string {
  const dir = SAVE ? join(SAVE, name.replace(/\W+/g, '-').toLowerCase()) : mkdtempSync(join(tmpdir(), 'trawl-real-pages-'));
  mkdirSync(dir, { recursive: true });
  return dir;
}

function scoreDir(dir: string): Map<string, PageScore> {
  const scores = scorePredictions(dir);
  if (SAVE) writeFileSync(join(dir, 'scores.json'), JSON.stringify([...scores.values()], null, 1));
  else rmSync(dir, { recursive: true, force: true });
  return scores;
}

interface RenderCost {
  id: string;
  gatewayMs: number;
  chromiumMs: number;
  wallMs: number;
  winner: string | null;
}

interface Pass {
  name: string;
  cpuMs: number;
  chromiumMs: number;
  wallMs: number;
  answers: Map<string, Answer>;
  scores: Map<string, PageScore>;
  f1: { A: number; B: number };
  /** Browser on: each page that fell back, fetched again alone after the pass, with the CPU it took. */
  renderCosts: RenderCost[];
}

async function gatewayPass(name: string, env: Record<string, string>, targets: Target[], warm: Target[], pages: QualityPage[]): Promise<Pass> {
  const dataDir = mkdtempSync(join(tmpdir(), 'trawl-real-pages-data-'));
  const gw = await startBundledGateway(join(ROOT, BUNDLES.gateway.out), {
    PORT: '0',
    TRAWL_BOOTSTRAP_KEY: KEY,
    TRAWL_ALLOW_PRIVATE: '127.0.0.1/32',
    // Every host to the loopback page server; the pages' other hosts (assets in a render) end at a closed port.
    TRAWL_HOST_RESOLVER_RULES: 'MAP * 127.0.0.1',
    TRAWL_DATA_DIR: dataDir,
    // The limiter stays in the path, counting, without refusing the bench's pace (600 a minute by default).
    TRAWL_RATE_LIMIT_FETCH_PER_MIN: '0',
    ...env,
  });
  try {
    const pid = gw.child.pid!;
    await fetchAll(gw.info.url, warm);
    const cpu0 = cpuMsOf(pid);
    const chromium0 = descendantsCpuMs(pid, CHROMIUM);
    const t0 = performance.now();
    const answers = await fetchAll(gw.info.url, targets);
    const wallMs = performance.now() - t0;
    const cpuMs = cpuMsOf(pid) - cpu0;
    const chromiumMs = descendantsCpuMs(pid, CHROMIUM) - chromium0;
    const renderCosts: RenderCost[] = [];
    if (!env.TRAWL_CHROMIUM_PATH) {
      // One at a time, so the gateway's CPU of a render (light + Playwright + both content steps) is its own.
      for (const t of targets.filter((x) => answers.get(x.id)?.attempted.includes('browser'))) {
        const [g, c, w] = [cpuMsOf(pid), descendantsCpuMs(pid, CHROMIUM), performance.now()];
        const again = (await fetchAll(gw.info.url, [t], 1)).get(t.id)!;
        renderCosts.push({ id: t.id, gatewayMs: cpuMsOf(pid) - g, chromiumMs: descendantsCpuMs(pid, CHROMIUM) - c, wallMs: performance.now() - w, winner: again.winner });
      }
    }
    const dir = outputDir(name);
    for (const a of answers.values()) writeFileSync(join(dir, `${a.id}.md`), a.markdown);
    if (SAVE) writeFileSync(join(dir, 'answers.json'), JSON.stringify([...answers.values()].map(({ markdown: _, ...a }) => a), null, 1));
    const scores = scoreDir(dir);
    return { name, cpuMs, chromiumMs, wallMs, answers, scores, f1: halves(pages, scores), renderCosts };
  } finally {
    await stop(gw.child);
    rmSync(dataDir, { recursive: true, force: true });
  }
}

interface PeerPass {
  cpuMs: number;
  version: string;
  scores: Map<string, PageScore>;
  f1: { A: number; B: number };
}

function trafilaturaEnv(): NodeJS.ProcessEnv {
  return { ...process.env, PYTHONPATH: TRAFILATURA_PATH };
}

/** Why trafilatura cannot run here, or null when it imports. */
function trafilaturaMissing(): string | null {
  const r = spawnSync(PYTHON, ['-c', 'import trafilatura'], { env: trafilaturaEnv(), encoding: 'utf8' });
  if (r.status === 0) return null;
  return (r.error?.message ?? r.stderr.trim().split('\n').pop() ?? `exit ${r.status}`).slice(0, 200);
}

function trafilaturaPass(pages: QualityPage[], warm: string[]): PeerPass {
  const dir = outputDir('trafilatura');
  const r = spawnSync(PYTHON, [new URL('./support/peer-trafilatura.py', import.meta.url).pathname, QUALITY_DIR, dir, TRAFILATURA_FORMAT, warm.join(',')], {
    env: trafilaturaEnv(),
    encoding: 'utf8',
    maxBuffer: 64 * 1024 * 1024,
  });
  if (r.status !== 0) throw new Error(`peer-trafilatura.py exited with ${r.status}: ${r.stderr.slice(-500)}`);
  const out = JSON.parse(r.stdout.trim().split('\n').pop()!) as { version: string; ms: Record<string, number> };
  const scores = scoreDir(dir);
  return { cpuMs: Object.values(out.ms).reduce((a, b) => a + b, 0), version: out.version, scores, f1: halves(pages, scores) };
}

const f3 = (x: number) => x.toFixed(3);
const mean = (xs: number[]) => xs.reduce((a, b) => a + b, 0) / xs.length;

/** Fallbacks of one pass: renders asked for, and how each ended. */
function renders(p: Pass) {
  const fell = [...p.answers.values()].filter((a) => a.attempted.includes('browser'));
  return {
    fell,
    won: fell.filter((a) => a.winner === 'browser'),
    worse: fell.filter((a) => a.reasons.includes('browser_result_worse')),
    failed: fell.filter((a) => a.winner !== 'browser' && !a.reasons.includes('browser_result_worse')),
  };
}

export default async function run(): Promise<ScenarioResult> {
  const pages = qualityPages();
  const warm = warmupPages(WARMUP);
  const bodies = new Map<string, Buffer>();
  for (const p of pages) bodies.set(pageKey(servedUrl(p, 80)), Buffer.from(p.html()));
  for (const w of warm) bodies.set(pageKey(servedUrl(w, 80)), gunzipSync(readFileSync(join(QUALITY_DIR, `wcxb-dev-all/html/${w.id}.html.gz`))));
  bodies.set(pageKey(SHELL.url), Buffer.from(SHELL.html));
  const site = await startPageServer(bodies);
  const targets = pages.map((p) => ({ id: p.id, url: servedUrl(p, site.port) }));
  const warmTargets = [...warm, SHELL].map((w) => ({ id: w.id, url: servedUrl(w, site.port) }));
  const missing = trafilaturaMissing();
  if (stale()) await buildBundles();
  const loadStart = loadavg()[0];

  const light: Pass[] = [];
  const peer: PeerPass[] = [];
  let browser: Pass | null = null;
  const lightOnly = () => gatewayPass('Fetch, light only', { TRAWL_CHROMIUM_PATH: '/nonexistent/chromium' }, targets, warmTargets, pages);
  try {
    for (let round = 0; round < ROUNDS; round++) {
      process.stderr.write(`real-pages: round ${round + 1} of ${ROUNDS}\n`);
      // Alternate who goes first, so drift in the machine's load hits both.
      const steps = [async () => light.push(await lightOnly()), async () => missing === null && peer.push(trafilaturaPass(pages, warm.map((w) => w.id)))];
      for (const step of round % 2 === 0 ? steps : steps.reverse()) await step();
      if (round === 0 && WITH_BROWSER) {
        process.stderr.write('real-pages: browser on\n');
        browser = await gatewayPass('Fetch, browser on', {}, targets, warmTargets, pages);
      }
    }
  } finally {
    await new Promise((r) => site.server.close(r));
  }
  const loadEnd = loadavg()[0];

  const n = pages.length;
  const perPage = (ms: number) => ms / n;
  const lightMs = light.map((p) => perPage(p.cpuMs));
  const peerMs = peer.map((p) => perPage(p.cpuMs));
  const rows: (string | number)[][] = [];
  const fallbackCell = (p: Pass) => {
    const r = renders(p);
    const same = r.won.filter((a) => a.markdown === light[0].answers.get(a.id)?.markdown).length;
    return `${r.fell.length} (won ${r.won.length}${r.won.length ? `, ${same} of them with the light Markdown` : ''}, no better ${r.worse.length}, failed ${r.failed.length})`;
  };
  rows.push(['Fetch, light path (browser unavailable)', mean(lightMs), lightMs.map((x) => x.toFixed(1)).join(' '), f3(light[0].f1.A), f3(light[0].f1.B), fallbackCell(light[0]), '-']);
  if (browser) {
    rows.push(['Fetch, browser on (default)', perPage(browser.cpuMs), perPage(browser.cpuMs).toFixed(1), f3(browser.f1.A), f3(browser.f1.B), fallbackCell(browser), perPage(browser.chromiumMs)]);
  }
  if (peer.length > 0) {
    rows.push([`trafilatura ${peer[0].version} extract(), ${TRAFILATURA_FORMAT}`, mean(peerMs), peerMs.map((x) => x.toFixed(1)).join(' '), f3(peer[0].f1.A), f3(peer[0].f1.B), '-', '-']);
  }

  const notes: string[] = [];
  if (peer.length > 0) {
    const ratios = lightMs.map((x, i) => x / peerMs[i]);
    notes.push(`light path ÷ trafilatura, CPU per page: ${(mean(lightMs) / mean(peerMs)).toFixed(3)} (per round ${ratios.map((r) => r.toFixed(3)).join(' ')}; target ≤ 0.25)`);
  } else {
    notes.push(`trafilatura skipped: \`${PYTHON} -c "import trafilatura"\` failed with PYTHONPATH=${TRAFILATURA_PATH || '(unset)'}: ${missing}. Set BENCH_TRAFILATURA_PATH to a folder holding trafilatura and its pure-Python dependencies (README "Benchmarks").`);
  }
  const changed = light.slice(1).map((p) => [...p.answers.values()].filter((a) => a.markdown !== light[0].answers.get(a.id)?.markdown).length);
  if (changed.length > 0) notes.push(`light path: pages whose Markdown differed from round 1's in later rounds: ${changed.join(', ')}`);
  const failedPages = [...light, ...(browser ? [browser] : [])].flatMap((p) => [...p.answers.values()].filter((a) => !a.ok).map((a) => `${p.name} ${a.id}: ${a.error}`));
  if (failedPages.length > 0) notes.push(`requests that failed (scored as empty output): ${failedPages.join('; ')}`);
  if (browser) {
    const r = renders(browser);
    const byReason = new Map<string, number>();
    for (const a of r.fell) for (const reason of a.reasons.filter((x) => x !== 'browser_result_worse')) byReason.set(reason, (byReason.get(reason) ?? 0) + 1);
    notes.push(`browser on: ${r.fell.length} of ${n} pages fell back to the browser (${[...byReason].map(([k, v]) => `${k} ${v}`).join(', ')}): ${r.won.length} renders won, ${r.worse.length} came back no better (browser_result_worse), ${r.failed.length} failed (${r.failed.map((a) => `${a.id} ${a.browserFailure ?? '?'}`).join(', ') || 'none'})`);
    const lightScores = light[0].scores;
    const yieldOf = (a: Answer) => (browser!.scores.get(a.id)?.f1 ?? 0) - (lightScores.get(a.id)?.f1 ?? 0);
    notes.push(
      `per fallback page (id type reason → winner, F1 light-only → browser on): ${r.fell
        .map((a) => {
          const page = pages.find((p) => p.id === a.id)!;
          return `${a.id} ${page.type} ${a.reasons.join('+')} → ${a.winner}, ${f3(lightScores.get(a.id)?.f1 ?? 0)} → ${f3(browser!.scores.get(a.id)?.f1 ?? 0)}`;
        })
        .join('; ')}`,
    );
    const gained = r.won.filter((a) => yieldOf(a) > 0.001).length;
    // A render that wins is one no worse than the light page (waterfall.ts browserWorse): a tie goes to the browser.
    const same = r.won.filter((a) => a.markdown === light[0].answers.get(a.id)?.markdown).length;
    notes.push(
      `yield: renders that won and raised the page's F1 ${gained} of ${r.won.length} (won with the light page's very Markdown: ${same}); F1 the renders added, over all ${n} pages: ${(r.won.reduce((s, a) => s + yieldOf(a), 0) / n).toFixed(4)}. A page's scripts from other hosts cannot load here (every host is the loopback server), so this is the yield of a render that has only the page itself.`,
    );
    const rc = browser.renderCosts;
    const sum = (f: (c: RenderCost) => number) => rc.reduce((t, c) => t + f(c), 0);
    notes.push(
      `browser on: Chromium's processes used ${(browser.chromiumMs / 1000).toFixed(1)} s of CPU in the pass (Chromium launched in the warm-up); the browser-on gateway used ${((browser.cpuMs - light[0].cpuMs) / 1000).toFixed(1)} s more than round 1's light-only gateway (two processes, so load noise included); renders and their gateway side together ${((browser.chromiumMs + browser.cpuMs - light[0].cpuMs) / light[0].cpuMs).toFixed(2)}× the light path's CPU on all ${n} pages`,
    );
    if (rc.length > 0) {
      notes.push(
        `each fallback page fetched again alone after the pass: Chromium ${(sum((c) => c.chromiumMs) / rc.length).toFixed(0)} ms and gateway ${(sum((c) => c.gatewayMs) / rc.length).toFixed(0)} ms of CPU per render (light fetch, Playwright and both content steps), ${(sum((c) => c.wallMs) / rc.length).toFixed(0)} ms wall (${rc.map((c) => `${c.id} ${c.chromiumMs.toFixed(0)}+${c.gatewayMs.toFixed(0)} ms`).join(', ')})`,
      );
    }
  }
  const lr = renders(light[0]);
  notes.push(`light only: the ${lr.fell.length} pages that would render end at a failed launch (TRAWL_CHROMIUM_PATH names no file) and are delivered light, status low_quality; that attempt is part of its figure.`);
  notes.push(
    `CPU: the gateway process's user + system time from /proc over the measured pass (content threads included), Chromium's as the sum over the gateway's descendant processes named chrom*; trafilatura's: time.process_time() around extract() alone, the page already decoded to a str. ${n} pages, concurrency ${CONCURRENCY}, wall ${light.map((p) => (p.wallMs / 1000).toFixed(1)).join(' ')} s (light only), ${browser ? (browser.wallMs / 1000).toFixed(1) : '-'} s (browser on).`,
  );
  notes.push(`Every process warms up on ${warm.length} pages of wcxb-dev-all outside the 300 first, the gateways on one page only a render fills as well. Pages requested at an address the server does not hold: ${site.misses()} (the pages' own assets, asked for by renders). Load average ${loadStart.toFixed(2)} at the first pass, ${loadEnd.toFixed(2)} at the end (2 cores, shared).`);
  notes.push('F1: ../shared/quality/score.mjs on each case\'s Markdown (mean over pages) per fixed half (bench/support/quality-set.ts).');
  return {
    title: 'real-pages: Fetch on the 300 dev pages through the gateway, beside trafilatura',
    columns: ['case', 'CPU ms/page (mean of rounds)', 'per round', 'F1 A', 'F1 B', 'fell back to the browser', 'Chromium CPU ms/page'],
    rows,
    notes,
  };
}
