import { CheerioCrawler } from '@crawlee/cheerio';
import { Configuration, log, LogLevel } from '@crawlee/core';
import { cpuMsOf, peakRssMbOf } from './proc-stats.ts';

// Stock CheerioCrawler: fixed concurrency 64, persistence off, links of the same hostname, no Markdown.
log.setLevel(LogLevel.ERROR);
const [port, hosts] = process.argv.slice(2).map(Number);
const seeds = Array.from({ length: hosts }, (_, i) => `http://127.0.0.${i + 1}:${port}/`);
let pages = 0;
const crawler = new CheerioCrawler(
  {
    minConcurrency: 64,
    maxConcurrency: 64,
    autoscaledPoolOptions: { desiredConcurrency: 64 },
    maxRequestRetries: 0,
    requestHandler: async ({ enqueueLinks }) => {
      pages += 1;
      await enqueueLinks({ strategy: 'same-hostname' });
    },
  },
  new Configuration({ persistStorage: false }),
);
const cpu0 = cpuMsOf(process.pid);
const t0 = performance.now();
await crawler.run(seeds);
const wallMs = performance.now() - t0;
process.stdout.write(`${JSON.stringify({ pages, wallMs, cpuMs: cpuMsOf(process.pid) - cpu0, peakRssMb: peakRssMbOf(process.pid) })}\n`);
process.exit(0);
