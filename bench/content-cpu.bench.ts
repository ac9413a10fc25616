import { execFileSync } from 'node:child_process';
import { existsSync, mkdtempSync, rmSync } from 'node:fs';
import { tmpdir } from 'node:os';
import { join, resolve } from 'node:path';
import { byHalfAndType, scorePredictions } from './support/quality-score.ts';
import { qualityPages } from './support/quality-set.ts';
import type { ScenarioResult } from './support/table.ts';

/**
 * CPU of Fetch's content step (normalizeContent) per dev page, this checkout against another one (BENCH_BASE: the
 * path of a checkout with its own `npm ci`, such as the commit an issue's CPU budget was set at), with the F1 each
 * one's Markdown scores on the two dev halves. Each measurement is a fresh process of its own (no shared heap or
 * JIT state) running CPU_PASSES passes over the 300 pages after a warm-up pass; the two checkouts alternate,
 * BENCH_REPS rounds (default 4), and a process counts by its fastest pass.
 */
const REPS = Number(process.env.BENCH_REPS ?? 4);
const PASS = new URL('./support/content-cpu-pass.ts', import.meta.url).pathname;
const ROOT = new URL('../', import.meta.url).pathname;

interface Tree {
  name: string;
  entry: string;
  best: number[];
  f1: { A: number; B: number };
}

function revision(dir: string): string {
  try {
    return execFileSync('git', ['-C', dir, 'rev-parse', '--short', 'HEAD'], { encoding: 'utf8' }).trim();
  } catch {
    return dir;
  }
}

function measure(tree: Tree, saveDir?: string): number {
  const out = execFileSync(process.execPath, ['--import', 'tsx', PASS, tree.entry, ...(saveDir ? [saveDir] : [])], { cwd: ROOT, encoding: 'utf8' });
  const { ms } = JSON.parse(out.trim().split('\n').pop()!) as { ms: number[] };
  return Math.min(...ms);
}

export default async function run(): Promise<ScenarioResult> {
  const base = process.env.BENCH_BASE;
  if (!base || !existsSync(join(base, 'packages/content/src/index.ts')) || !existsSync(join(base, 'node_modules'))) {
    throw new Error('content-cpu: set BENCH_BASE to another checkout of Trawl, with its own npm ci (git worktree add <dir> <rev>)');
  }
  const trees: Tree[] = [
    { name: `base ${revision(base)}`, entry: resolve(base, 'packages/content/src/index.ts'), best: [], f1: { A: NaN, B: NaN } },
    { name: `this checkout ${revision(ROOT)}`, entry: resolve(ROOT, 'packages/content/src/index.ts'), best: [], f1: { A: NaN, B: NaN } },
  ];
  const pages = qualityPages();
  for (const tree of trees) {
    const dir = mkdtempSync(join(tmpdir(), 'trawl-cpu-'));
    try {
      tree.best.push(measure(tree, dir));
      const overall = byHalfAndType(pages, scorePredictions(dir)).filter((r) => r.type === 'overall');
      tree.f1 = { A: overall.find((r) => r.half === 'A')!.figures.f1, B: overall.find((r) => r.half === 'B')!.figures.f1 };
    } finally {
      rmSync(dir, { recursive: true, force: true });
    }
  }
  for (let round = 1; round < REPS; round++) {
    process.stderr.write(`content-cpu: round ${round + 1} of ${REPS}\n`);
    const order = round % 2 === 0 ? trees : [...trees].reverse();
    for (const tree of order) tree.best.push(measure(tree));
  }
  const mean = (xs: number[]) => xs.reduce((a, b) => a + b, 0) / xs.length;
  const [b, h] = trees;
  const ratios = h.best.map((x, i) => x / b.best[i]);
  return {
    title: 'content-cpu: CPU of the content step per dev page, against another checkout',
    columns: ['checkout', 'F1 A', 'F1 B', 'CPU ms/page (mean of rounds)', 'fastest round', 'rounds'],
    rows: trees.map((t) => [t.name, t.f1.A.toFixed(3), t.f1.B.toFixed(3), mean(t.best), Math.min(...t.best), t.best.map((x) => x.toFixed(1)).join(' ')]),
    notes: [
      `this checkout / base: ${mean(ratios).toFixed(3)} (mean of the rounds' ratios; per round ${ratios.map((r) => r.toFixed(2)).join(' ')})`,
      'Each figure: one process, the fastest of its passes over the 300 dev pages (process CPU: user + system, GC threads included, parse included).',
    ],
  };
}
