import http from 'node:http';
import { gotScraping } from 'got-scraping';
import { cpuMsOf, peakRssMbOf } from './proc-stats.ts';

// The floor of a Node crawler by HTTP client: links found by a regex, no parse, no Markdown, nothing stored, at
// concurrency 64. The third argument picks the client: `http` (node:http on a kept-alive agent), `fetch` (Node's
// own fetch, undici's pool) or `got` (got-scraping, as our light engine and CheerioCrawler use it).
const [port, hosts] = process.argv.slice(2, 4).map(Number);
const client = process.argv[4] ?? 'http';
const agent = new http.Agent({ keepAlive: true, maxSockets: 64 });
const seen = new Set<string>();
const queue: string[] = [];
for (let i = 1; i <= hosts; i++) {
  const u = `http://127.0.0.${i}:${port}/`;
  seen.add(u);
  queue.push(u);
}
const HREF = /href="([^"#]*)/g;
function get(url: string): Promise<string> {
  if (client === 'fetch') return fetch(url).then((r) => r.text());
  if (client === 'got') return gotScraping.get(url, { retry: { limit: 0 } }).then((r) => r.body);
  return new Promise((resolve, reject) => {
    http
      .get(url, { agent }, (res) => {
        res.setEncoding('utf8');
        let body = '';
        res.on('data', (c: string) => (body += c));
        res.on('end', () => resolve(body));
        res.on('error', reject);
      })
      .on('error', reject);
  });
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
      get(url)
        .then((body) => {
          const base = new URL(url);
          for (const m of body.matchAll(HREF)) {
            const next = new URL(m[1]!, base);
            if (next.host === base.host && !seen.has(next.href)) {
              seen.add(next.href);
              queue.push(next.href);
            }
          }
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
