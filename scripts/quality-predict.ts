// Runs @trawl/content's normalizeContent over the WCXB quality set and writes one Markdown prediction per page,
// for /work/shared/quality/score.mjs --predictions <outdir>. Prints total and mean CPU-bound time per page
// (decompression and file I/O excluded).
//
//   node --import tsx scripts/quality-predict.ts <outdir> [--data DIR] [--ids 0403,0504]
import { mkdirSync, readFileSync, readdirSync, writeFileSync } from 'node:fs';
import { join } from 'node:path';
import { gunzipSync } from 'node:zlib';
import { normalizeContent } from '@trawl/content';

const args = process.argv.slice(2);
const flag = (name: string): string | undefined => {
  const at = args.indexOf(name);
  return at >= 0 ? args[at + 1] : undefined;
};
const outdir = args.find((arg, i) => !arg.startsWith('--') && (i === 0 || !args[i - 1].startsWith('--')));
if (outdir === undefined) {
  console.error('usage: quality-predict.ts <outdir> [--data DIR] [--ids ID,ID]');
  process.exit(2);
}
const data = flag('--data') ?? new URL('../../shared/quality/wcxb-dev', import.meta.url).pathname;
const only = flag('--ids')?.split(',');

const urls = new Map<string, string>();
for (const line of readFileSync(join(data, 'MANIFEST.tsv'), 'utf8').split('\n').slice(1)) {
  const [id, , , url] = line.split('\t');
  if (id && url) urls.set(id, url.trim());
}

mkdirSync(outdir, { recursive: true });
const ids = readdirSync(join(data, 'html'))
  .filter((file) => file.endsWith('.html.gz'))
  .map((file) => file.slice(0, -'.html.gz'.length))
  .filter((id) => only === undefined || only.includes(id))
  .sort();

let total = 0;
let slowest = { id: '', ms: 0 };
for (const id of ids) {
  const body = gunzipSync(readFileSync(join(data, 'html', `${id}.html.gz`)));
  const url = urls.get(id) || `http://page-${id}.wcxb.test/`;
  const started = performance.now();
  const content = normalizeContent({ body, contentType: 'text/html; charset=utf-8', url });
  const ms = performance.now() - started;
  total += ms;
  if (ms > slowest.ms) slowest = { id, ms };
  writeFileSync(join(outdir, `${id}.md`), content.markdown);
}
const mean = ids.length > 0 ? total / ids.length : 0;
console.log(`${ids.length} pages, total ${total.toFixed(0)} ms, mean ${mean.toFixed(2)} ms/page, slowest ${slowest.id} ${slowest.ms.toFixed(1)} ms`);
