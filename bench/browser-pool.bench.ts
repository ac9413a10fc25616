import { spawn } from 'node:child_process';
import { createInterface } from 'node:readline';
import { startNodeProcess, stop } from './support/processes.ts';
import { chromiumPssMb } from './support/pss.ts';
import type { ScenarioResult } from './support/table.ts';

/**
 * Browser pool capacity: pages/s and Chromium memory (PSS) per open page at pool sizes 1, 2, 4, 8 and 16, rendering
 * a local JavaScript page through POST /v1/browser-scrape, side by side with a bare playwright-core loop at the
 * same sizes (our limit); then time-to-reject at 3× capacity.
 */
const KEY = 'bench-key-0123456789abcdef';
const SECONDS = Number(process.env.BENCH_SECONDS ?? 8);
const SIZES = (process.env.BENCH_SIZES ?? '1,2,4,8,16').split(',').map(Number);
const here = (p: string) => new URL(p, import.meta.url).pathname;

async function startGateway(pages: number) {
  return startNodeProcess<{ url: string }>(here('./support/gateway-server.ts'), {
    PORT: '0',
    TRAWL_BOOTSTRAP_KEY: KEY,
    TRAWL_ALLOW_PRIVATE: '127.0.0.1/32',
    TRAWL_WORKERS: '0',
    TRAWL_BROWSER_PAGES: String(pages),
    LOG_LEVEL: 'warn',
  });
}

// The first and last sentences the page's script draws (test/support/fixture-pages/app.js): a render counts only
// when its Markdown holds both, so speed is measured on whole results.
const FIRST = 'High water is at 06:42';
const LAST = 'the west channel buoy was moved last week';

async function scrape(gateway: string, url: string, waitForArticle = true): Promise<{ status: number; ms: number; whole: boolean }> {
  const t0 = performance.now();
  const res = await fetch(`${gateway}/v1/browser-scrape`, {
    method: 'POST',
    headers: { authorization: `Bearer ${KEY}`, 'content-type': 'application/json' },
    body: JSON.stringify({ url, ...(waitForArticle ? { browser: { wait_for_selector: 'article' } } : {}) }),
  });
  const text = await res.text();
  let whole = false;
  if (res.status === 200) {
    const markdown = (JSON.parse(text) as { result?: { content?: { markdown?: string } } }).result?.content?.markdown ?? '';
    whole = markdown.includes(FIRST) && markdown.includes(LAST);
  }
  return { status: res.status, ms: performance.now() - t0, whole };
}

async function throughput(gateway: string, url: string, size: number, pid: number) {
  for (let i = 0; i < size; i++) await scrape(gateway, url); // launch and warm the browser
  let ok = 0;
  let answered = 0;
  let pss = 0;
  const end = Date.now() + SECONDS * 1000;
  const sampler = setInterval(() => (pss = Math.max(pss, chromiumPssMb(pid))), 500);
  await Promise.all(
    Array.from({ length: size }, async () => {
      while (Date.now() < end) {
        const r = await scrape(gateway, url);
        answered += 1;
        if (r.whole) ok += 1;
      }
    }),
  );
  clearInterval(sampler);
  return { rate: ok / SECONDS, whole: answered === 0 ? 0 : ok / answered, pss };
}

function bare(url: string, size: number): Promise<{ renders: number; seconds: number; pssMb: number }> {
  return new Promise((resolve, reject) => {
    const child = spawn(process.execPath, ['--import', 'tsx', here('./support/bare-playwright.ts'), url, String(size), String(SECONDS)], {
      stdio: ['ignore', 'pipe', 'inherit'],
    });
    let last = '';
    createInterface({ input: child.stdout! }).on('line', (l) => (last = l));
    child.once('exit', (code) => (code === 0 ? resolve(JSON.parse(last)) : reject(new Error(`bare loop exited ${code}`))));
  });
}

const pct = (xs: number[], p: number) => {
  const s = [...xs].sort((a, b) => a - b);
  return s[Math.min(s.length - 1, Math.floor((p / 100) * s.length))] ?? NaN;
};

export default async function run(): Promise<ScenarioResult> {
  const site = await startNodeProcess<{ port: number }>(here('./support/fixture-server.ts'));
  const jsPage = `http://127.0.0.1:${site.info.port}/js-shell`;
  const slowPage = `http://127.0.0.1:${site.info.port}/slow?ms=1500`;
  const rows: (string | number)[][] = [];
  const notes: string[] = [];
  let best = { trawl: 0, bare: 0, size: 0 };
  try {
    for (const size of SIZES) {
      process.stderr.write(`browser-pool: size ${size}: Trawl\n`);
      const gw = await startGateway(size);
      let t;
      try {
        t = await throughput(gw.info.url, jsPage, size, gw.child.pid!);
      } finally {
        await stop(gw.child);
      }
      process.stderr.write(`browser-pool: size ${size}: bare loop\n`);
      const b = await bare(jsPage, size);
      const bareRate = b.renders / b.seconds;
      rows.push([size, `${(t.whole * 100).toFixed(0)}%`, t.rate, bareRate, t.rate / bareRate, t.pss / size, b.pssMb / size]);
      if (t.rate > best.trawl) best = { trawl: t.rate, bare: Math.max(...rows.map((r) => Number(r[3]))), size };
    }
    const bestBare = Math.max(...rows.map((r) => Number(r[3])));
    notes.push(`best pool size ${best.size}: ${best.trawl.toFixed(1)} pages/s = ${((best.trawl / bestBare) * 100).toFixed(0)}% of the bare loop's best (${bestBare.toFixed(1)}) (target ≥ 85%)`);

    // Time to reject at 3× capacity: fill the pool with slow renders, then measure the answers beyond capacity.
    const cap = 4;
    process.stderr.write('browser-pool: time to reject\n');
    const gw = await startGateway(cap);
    try {
      await scrape(gw.info.url, jsPage);
      const rejects: number[] = [];
      for (let round = 0; round < 15; round++) {
        const all = await Promise.all(Array.from({ length: 3 * cap }, () => scrape(gw.info.url, slowPage, false)));
        for (const r of all) if (r.status === 503) rejects.push(r.ms);
      }
      notes.push(
        `time to reject at 3× capacity (pool ${cap}, ${rejects.length} rejections over 15 rounds): p50 ${pct(rejects, 50).toFixed(1)} ms, p99 ${pct(rejects, 99).toFixed(1)} ms (target p99 < 100 ms)`,
      );
    } finally {
      await stop(gw.child);
    }
  } finally {
    await stop(site.child);
  }
  notes.push('Trawl: POST /v1/browser-scrape end to end (egress gate, controls, serialization, Markdown); bare: newContext, goto, waitForSelector, content().');
  notes.push(`Trawl whole: answers whose Markdown holds the article's first and last sentences; pages/s counts whole answers only.`);
  notes.push('PSS: all Chromium processes of the run, peak over the run, divided by the pool size.');
  return {
    title: 'browser-pool: rendering a local JavaScript page',
    columns: ['pool size', 'Trawl whole', 'Trawl pages/s', 'bare playwright pages/s', 'ratio', 'Trawl PSS MiB/page', 'bare PSS MiB/page'],
    rows,
    notes,
  };
}
