import { gotScraping } from 'got-scraping';
import * as cheerio from 'cheerio';
import TurndownService from 'turndown';
import { cpuMsOf, peakRssMbOf } from './proc-stats.ts';

// Our practical limit: got-scraping + one cheerio parse (+ turndown of the main content with `markdown` as the third
// argument), concurrency 64, nothing else.
const [port, hosts] = process.argv.slice(2, 4).map(Number);
const markdown = process.argv[4] === 'markdown';
const turndown = new TurndownService();
const seen = new Set<string>();
const queue: string[] = [];
for (let i = 1; i <= hosts; i++) {
  const u = `http://127.0.0.${i}:${port}/`;
  seen.add(u);
  queue.push(u);
}
let pages = 0;
let active = 0;
const cpu0 = cpuMsOf(process.pid);
const t0 = performance.now();
await new Promise<void>((done) => {
  const pump = () => {
    while (active < 64 && queue.length > 0) {
      const url = queue.shift()!;
      active += 1;
      gotScraping
        .get(url, { retry: { limit: 0 } })
        .then((res) => {
          const $ = cheerio.load(res.body);
          const base = new URL(url);
          $('a[href]').each((_, a) => {
            const next = new URL($(a).attr('href')!, base);
            next.hash = '';
            if (next.host === base.host && !seen.has(next.href)) {
              seen.add(next.href);
              queue.push(next.href);
            }
          });
          if (markdown) turndown.turndown($('main').html() ?? $('body').html() ?? '');
          pages += 1;
        })
        .catch(() => undefined)
        .finally(() => {
          active -= 1;
          if (active === 0 && queue.length === 0) done();
          else pump();
        });
    }
  };
  pump();
});
const wallMs = performance.now() - t0;
process.stdout.write(`${JSON.stringify({ pages, wallMs, cpuMs: cpuMsOf(process.pid) - cpu0, peakRssMb: peakRssMbOf(process.pid) })}\n`);
process.exit(0);
