import { spawn } from 'node:child_process';
import { createInterface } from 'node:readline';
import { MATRIX, type MatrixPage } from '@trawl/test-support/render-matrix/pages.ts';
import { judge } from '@trawl/test-support/render-matrix/text.ts';
import { startNodeProcess, stop } from './support/processes.ts';
import type { ScenarioResult } from './support/table.ts';

/**
 * Render fidelity: every page of the render matrix (test/support/render-matrix/pages.ts), rendered REPS times by
 * Trawl (POST /v1/browser-scrape, judged on the Markdown) and by two bare playwright-core loops (goto with
 * waitUntil "networkidle" and "load", judged on the body's visible text), interleaved in one run. Per page: the
 * share of renders with the whole content and the p50/p99 render time of each.
 */
const KEY = 'bench-key-0123456789abcdef';
const REPS = Number(process.env.BENCH_REPS ?? 6);
const BARE_TIMEOUT_MS = Number(process.env.BENCH_BARE_TIMEOUT_MS ?? 10_000);
const ONLY = process.env.BENCH_PAGES?.split(',');
const here = (p: string) => new URL(p, import.meta.url).pathname;

interface Sample {
  ms: number;
  whole: boolean;
}

function bareRenderer() {
  const child = spawn(process.execPath, ['--import', 'tsx', here('./support/bare-render.ts')], { stdio: ['pipe', 'pipe', 'inherit'] });
  const lines = createInterface({ input: child.stdout! })[Symbol.asyncIterator]();
  const next = async () => JSON.parse((await lines.next()).value as string) as { ms: number; text: string; ready?: boolean };
  return {
    ready: next(),
    async render(waitUntil: 'load' | 'networkidle', url: string) {
      child.stdin!.write(`${waitUntil} ${BARE_TIMEOUT_MS} ${url}\n`);
      return next();
    },
    /** Ends its input: it closes its browser and exits (a signal would meet Playwright's own handlers). */
    async close() {
      const exited = new Promise((r) => child.once('exit', r));
      child.stdin!.end();
      const timer = setTimeout(() => child.kill('SIGKILL'), 10_000);
      await exited;
      clearTimeout(timer);
    },
  };
}

async function trawlRender(gateway: string, url: string): Promise<{ ms: number; markdown: string }> {
  const t0 = performance.now();
  const res = await fetch(`${gateway}/v1/browser-scrape`, {
    method: 'POST',
    headers: { authorization: `Bearer ${KEY}`, 'content-type': 'application/json' },
    body: JSON.stringify({ url }),
  });
  const body = (await res.json()) as { result?: { content: { markdown: string } } };
  return { ms: performance.now() - t0, markdown: body.result?.content.markdown ?? '' };
}

const pct = (xs: number[], p: number) => {
  const s = [...xs].sort((a, b) => a - b);
  return s[Math.min(s.length - 1, Math.ceil((p / 100) * s.length) - 1)] ?? NaN;
};
const share = (xs: Sample[]) => `${Math.round((100 * xs.filter((x) => x.whole).length) / xs.length)}%`;
const times = (xs: Sample[]) => `${pct(xs.map((x) => x.ms), 50).toFixed(0)} / ${pct(xs.map((x) => x.ms), 99).toFixed(0)}`;

export default async function run(): Promise<ScenarioResult> {
  const site = await startNodeProcess<{ port: number }>(here('./support/matrix-server.ts'));
  const gw = await startNodeProcess<{ url: string }>(here('./support/gateway-server.ts'), {
    PORT: '0',
    TRAWL_BOOTSTRAP_KEY: KEY,
    TRAWL_ALLOW_PRIVATE: '127.0.0.1/32',
    TRAWL_WORKERS: '0',
    TRAWL_BROWSER_PAGES: '2',
    LOG_LEVEL: 'warn',
  });
  const bare = bareRenderer();
  await bare.ready;
  const pages: MatrixPage[] = MATRIX.filter((p) => !ONLY || ONLY.includes(p.name));
  const rows: (string | number)[][] = [];
  const all = { trawl: [] as Sample[], idle: [] as Sample[], load: [] as Sample[] };
  const atLoad = { trawl: [] as number[], idle: [] as number[] };
  try {
    const url = (p: MatrixPage) => `http://127.0.0.1:${site.info.port}/matrix/${p.name}`;
    await trawlRender(gw.info.url, url(pages[0])); // launch and warm the browser
    await bare.render('load', url(pages[0]));
    for (const p of pages) {
      process.stderr.write(`render-fidelity: ${p.name}\n`);
      const s = { trawl: [] as Sample[], idle: [] as Sample[], load: [] as Sample[] };
      for (let i = 0; i < REPS; i++) {
        const t = await trawlRender(gw.info.url, url(p));
        s.trawl.push({ ms: t.ms, whole: judge(p, t.markdown).whole });
        const idle = await bare.render('networkidle', url(p));
        s.idle.push({ ms: idle.ms, whole: judge(p, idle.text).whole });
        const load = await bare.render('load', url(p));
        s.load.push({ ms: load.ms, whole: judge(p, load.text).whole });
      }
      rows.push([p.name, p.draws, share(s.trawl), times(s.trawl), share(s.idle), times(s.idle), share(s.load), times(s.load)]);
      for (const k of ['trawl', 'idle', 'load'] as const) all[k].push(...s[k]);
      if (p.atLoad) {
        atLoad.trawl.push(pct(s.trawl.map((x) => x.ms), 50));
        atLoad.idle.push(pct(s.idle.map((x) => x.ms), 50));
      }
    }
  } finally {
    await bare.close();
    await stop(gw.child);
    await stop(site.child);
  }
  rows.push(['all pages', '', share(all.trawl), times(all.trawl), share(all.idle), times(all.idle), share(all.load), times(all.load)]);
  const notes = [
    `${REPS} renders per page and contender, interleaved; Trawl through POST /v1/browser-scrape (gateway, egress gate, settling, Markdown), judged on the Markdown; bare loops: fresh context, goto(waitUntil), body innerText, judged on that text (goto timeout ${BARE_TIMEOUT_MS} ms, then whatever is there).`,
    'whole: every marker word of the page present and no placeholder text left (test/support/render-matrix/text.ts).',
  ];
  if (atLoad.trawl.length > 0) {
    const t = pct(atLoad.trawl, 50);
    const i = pct(atLoad.idle, 50);
    notes.push(`pages whose content is there at load: median of per-page p50 ${t.toFixed(0)} ms (Trawl) vs ${i.toFixed(0)} ms (networkidle), ratio ${(t / i).toFixed(2)} (target ≤ 1)`);
  }
  return {
    title: 'render-fidelity: whole content and render time per matrix page',
    columns: ['page', 'how it draws', 'Trawl whole', 'Trawl p50/p99 ms', 'networkidle whole', 'networkidle p50/p99 ms', 'load whole', 'load p50/p99 ms'],
    rows,
    notes,
  };
}
