import { execFileSync } from 'node:child_process';
import { mkdtempSync, readFileSync, rmSync } from 'node:fs';
import { tmpdir } from 'node:os';
import { join } from 'node:path';
import { QUALITY_DIR, type QualityPage } from './quality-set.ts';

export interface PageScore {
  id: string;
  type: string;
  precision: number;
  recall: number;
  f1: number;
}

/** Scores a folder of predictions (<id>.md or <id>.txt) with the set's own scorer (score.mjs), per page. */
export function scorePredictions(dir: string): Map<string, PageScore> {
  const tmp = mkdtempSync(join(tmpdir(), 'trawl-score-'));
  try {
    const json = join(tmp, 'scores.json');
    execFileSync(process.execPath, [join(QUALITY_DIR, 'score.mjs'), '--predictions', dir, '--json', json], { stdio: 'ignore' });
    const { pages } = JSON.parse(readFileSync(json, 'utf8')) as { pages: PageScore[] };
    return new Map(pages.map((p) => [p.id, p]));
  } finally {
    rmSync(tmp, { recursive: true, force: true });
  }
}

export interface Figures {
  pages: number;
  precision: number;
  recall: number;
  f1: number;
}

export function figures(scores: PageScore[]): Figures {
  const mean = (xs: number[]) => (xs.length === 0 ? NaN : xs.reduce((a, b) => a + b, 0) / xs.length);
  return {
    pages: scores.length,
    precision: mean(scores.map((s) => s.precision)),
    recall: mean(scores.map((s) => s.recall)),
    f1: mean(scores.map((s) => s.f1)),
  };
}

/** Per half (A, B) and per page type within it, plus overall per half. */
export function byHalfAndType(pages: QualityPage[], scores: Map<string, PageScore>) {
  const out: { half: string; type: string; figures: Figures }[] = [];
  for (const half of ['A', 'B'] as const) {
    const inHalf = pages.filter((p) => p.half === half);
    const types = [...new Set(inHalf.map((p) => p.type))].sort();
    for (const type of [...types, 'overall']) {
      const ps = inHalf.filter((p) => type === 'overall' || p.type === type);
      out.push({ half, type, figures: figures(ps.map((p) => scores.get(p.id)!).filter(Boolean)) });
    }
  }
  return out;
}
