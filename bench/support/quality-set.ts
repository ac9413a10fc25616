import { readFileSync } from 'node:fs';
import { gunzipSync } from 'node:zlib';

/**
 * The content-quality dev set (../shared/quality/wcxb-dev, 300 real pages with reference text; not in this repo)
 * and its two fixed halves. Halves are stratified by page type: within each type, ids sorted as strings, the
 * 1st, 3rd, 5th... go to half A and the 2nd, 4th... to half B. A change to extraction is kept only if it helps
 * both halves (README, "Main content").
 */
export const QUALITY_DIR = process.env.TRAWL_QUALITY_DIR ?? new URL('../../../shared/quality/', import.meta.url).pathname;

export interface QualityPage {
  id: string;
  type: string;
  half: 'A' | 'B';
  url: string;
  html(): string;
}

export function qualityPages(dir = QUALITY_DIR): QualityPage[] {
  const manifest = readFileSync(`${dir}/wcxb-dev/MANIFEST.tsv`, 'utf8').trim().split('\n').slice(1);
  const rows = manifest.map((line) => {
    const [id, type, , url] = line.split('\t');
    return { id, type, url };
  });
  const byType = new Map<string, string[]>();
  for (const r of rows) byType.set(r.type, [...(byType.get(r.type) ?? []), r.id]);
  const half = new Map<string, 'A' | 'B'>();
  for (const ids of byType.values()) ids.sort().forEach((id, i) => half.set(id, i % 2 === 0 ? 'A' : 'B'));
  return rows
    .sort((a, b) => a.id.localeCompare(b.id))
    .map((r) => ({
      ...r,
      half: half.get(r.id)!,
      html: () => gunzipSync(readFileSync(`${dir}/wcxb-dev/html/${r.id}.html.gz`)).toString('utf8'),
    }));
}
