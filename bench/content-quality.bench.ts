import { mkdirSync, mkdtempSync, rmSync, writeFileSync } from 'node:fs';
import { tmpdir } from 'node:os';
import { join } from 'node:path';
import { onHiddenClasses } from './support/hidden-classes.ts';
import { readability, trawl, wholePage, type Extractor } from './support/quality-extractors.ts';
import { byHalfAndType, type PageScore } from './support/quality-score.ts';
import { qualityPages } from './support/quality-set.ts';
import { scorePredictions } from './support/quality-score.ts';
import type { ScenarioResult } from './support/table.ts';

/**
 * Main-content quality: word precision, recall and F1 of Fetch's content step (normalizeContent, as Fetch runs it
 * on a light page) on the two fixed halves of the dev set (bench/support/quality-set.ts), per page type, side by
 * side in one run with Mozilla Readability 0.6.0 (jsdom 27) and the whole-page floor, with CPU ms per page.
 * Scored by the set's own scorer (../shared/quality/score.mjs). Ours and Readability also run on the same pages
 * with their class names hidden (support/hidden-classes.ts): how much of each one's F1 rests on class words, a probe
 * for the sites whose classes are generated hashes. BENCH_ONLY=Trawl runs ours alone (classes as they are;
 * BENCH_ONLY='Trawl,Trawl (classes hidden)' adds the other); BENCH_SAVE=dir keeps the predictions and per-page
 * scores there.
 */
const ONLY = process.env.BENCH_ONLY;
const SAVE = process.env.BENCH_SAVE;

interface Run {
  extractor: Extractor;
  scores: Map<string, PageScore>;
  cpuMs: number[];
}

function runExtractor(extractor: Extractor, pages: ReturnType<typeof qualityPages>): Run {
  const dir = SAVE ? join(SAVE, extractor.name.replace(/\W+/g, '-').toLowerCase()) : mkdtempSync(join(tmpdir(), 'trawl-quality-'));
  mkdirSync(dir, { recursive: true });
  const cpuMs: number[] = [];
  for (const page of pages) {
    const html = page.html();
    const before = process.cpuUsage();
    let out = '';
    try {
      out = extractor.run(html, page.url);
    } catch {
      out = '';
    }
    const used = process.cpuUsage(before);
    cpuMs.push((used.user + used.system) / 1000);
    writeFileSync(join(dir, `${page.id}.${extractor.ext}`), out);
  }
  const scores = scorePredictions(dir);
  if (SAVE) writeFileSync(join(dir, 'scores.json'), JSON.stringify([...scores.values()], null, 1));
  else rmSync(dir, { recursive: true, force: true });
  return { extractor, scores, cpuMs };
}

const f = (x: number) => (Number.isFinite(x) ? x.toFixed(3) : '-');
const median = (xs: number[]) => [...xs].sort((a, b) => a - b)[Math.floor(xs.length / 2)] ?? NaN;

export default async function run(): Promise<ScenarioResult> {
  const pages = qualityPages();
  const extractors = [trawl, readability, wholePage, onHiddenClasses(trawl), onHiddenClasses(readability)].filter((e) => !ONLY || ONLY.split(',').includes(e.name));
  // Warm each extractor (JIT, lazy module state) on a few pages before the measured pass.
  for (const e of extractors) for (const p of pages.slice(0, 5)) e.run(p.html(), p.url);
  const runs = extractors.map((e) => {
    process.stderr.write(`content-quality: ${e.name}\n`);
    return runExtractor(e, pages);
  });
  const tables = runs.map((r) => byHalfAndType(pages, r.scores));
  const rows: (string | number)[][] = [];
  for (let i = 0; i < tables[0].length; i++) {
    const { half, type, figures } = tables[0][i];
    const row: (string | number)[] = [half, type, figures.pages];
    for (const t of tables) row.push(`${f(t[i].figures.f1)} (P ${f(t[i].figures.precision)}, R ${f(t[i].figures.recall)})`);
    rows.push(row);
  }
  const notes = runs.map((r) => `${r.extractor.name}: CPU per page mean ${(r.cpuMs.reduce((a, b) => a + b, 0) / r.cpuMs.length).toFixed(1)} ms, median ${median(r.cpuMs).toFixed(1)} ms (this process, parse included).`);
  const ours = runs.find((r) => r.extractor === trawl);
  const peer = runs.find((r) => r.extractor === readability);
  if (ours && peer) {
    const worse = pages.filter((p) => (ours.scores.get(p.id)?.f1 ?? 0) < (peer.scores.get(p.id)?.f1 ?? 0) - 0.3);
    notes.push(`pages where Trawl's F1 is more than 0.3 below Readability's: ${worse.length}${worse.length ? ` (${worse.map((p) => `${p.id} ${p.type}`).join(', ')})` : ''}`);
  }
  if (runs.some((r) => r.extractor.name.endsWith('(classes hidden)'))) notes.push('(classes hidden): every class token of the page replaced by a hash of it before extraction (bench/support/hidden-classes.ts); its CPU includes that rewrite.');
  notes.push('Halves: within each page type, ids in string order alternate A, B (bench/support/quality-set.ts). Scores: ../shared/quality/score.mjs (word multiset P/R/F1, mean over pages).');
  return {
    title: 'content-quality: main-content F1 on the two dev halves',
    columns: ['half', 'page type', 'pages', ...runs.map((r) => r.extractor.name)],
    rows,
    notes,
  };
}
