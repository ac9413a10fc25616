import http from 'node:http';
import { gotScraping } from 'got-scraping';
import { runPeerLoop } from './peer-loop.ts';

// The floor of a Node crawler by HTTP client: links found by a regex, no parse, no Markdown, nothing stored, at
// concurrency 64. The third argument picks the client: `http` (node:http on a kept-alive agent), `fetch` (Node's
// own fetch, undici's pool) or `got` (got-scraping, as our light engine and CheerioCrawler use it).
const [port, hosts] = process.argv.slice(2, 4).map(Number);
const client = process.argv[4] ?? 'http';
const agent = new http.Agent({ keepAlive: true, maxSockets: 64 });
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

await runPeerLoop(port!, hosts!, async (url) => Array.from((await get(url)).matchAll(HREF), (m) => m[1]!));
