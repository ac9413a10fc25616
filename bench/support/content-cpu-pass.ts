// One process of bench/content-cpu.bench.ts: the content step of the checkout whose index.ts is argv[2], over the
// dev pages, passes times; prints {"ms":[per-page CPU of each pass]}. With argv[3], the first pass's Markdown is
// written there (one <id>.md per page) for scoring.
import { writeFileSync } from 'node:fs';
import { join } from 'node:path';
import { qualityPages } from './quality-set.ts';

interface ContentModule {
  normalizeContent(input: { body: Buffer; contentType: string | null; url: string }): { markdown: string };
}

const [entry, saveDir] = process.argv.slice(2);
const passes = Number(process.env.CPU_PASSES ?? 3);
const mod = (await import(entry)) as ContentModule;
const pages = qualityPages().map((p) => ({ id: p.id, url: p.url, body: Buffer.from(p.html()) }));
const pass = (save: boolean) => {
  const before = process.cpuUsage();
  for (const p of pages) {
    const { markdown } = mod.normalizeContent({ body: p.body, contentType: 'text/html; charset=utf-8', url: p.url });
    if (save) writeFileSync(join(saveDir, `${p.id}.md`), markdown);
  }
  const used = process.cpuUsage(before);
  return (used.user + used.system) / 1000 / pages.length;
};
// The first pass warms the JIT and writes the predictions (file writes are not measured afterwards).
pass(saveDir !== undefined);
const ms = Array.from({ length: passes }, () => pass(false));
process.stdout.write(`${JSON.stringify({ ms })}\n`);
