import { createServer, type Server } from 'node:http';
import { parseArgs } from 'node:util';

/**
 * The crawl benchmark sites, in two shapes (`--shape`):
 * - `hosts` (default): 20 loopback addresses (127.0.0.1 … 127.0.0.20, distinct hostnames without any resolver
 *   trick, so every peer can crawl it), 100 pages each, ~20 KB per page, 5 links per page. Each host's pages form a
 *   5-ary tree from `/` (page i links to 5i+1 … 5i+5; leaves link back into the host), reachable within depth 3.
 * - `one-host`: one host of 2,000 pages of ~20 KB shaped like an ordinary article page (a nav bar, sections of
 *   paragraphs under h2s, a 12-row table, a footer), six links a page (a 6-ary tree, reachable within depth 5).
 * Optional added latency per page. Prints {"port": …, "hosts": …, "pages": …} when ready.
 */
const { values } = parseArgs({
  options: { 'latency-ms': { type: 'string', default: '0' }, shape: { type: 'string', default: 'hosts' } },
  strict: true,
});
const latency = Number(values['latency-ms']);
const oneHost = values.shape === 'one-host';
if (!oneHost && values.shape !== 'hosts') throw new Error(`--shape: hosts or one-host, not ${values.shape}`);
const HOSTS = oneHost ? 1 : 20;
const PAGES_PER_HOST = oneHost ? 2000 : 100;
const FANOUT = oneHost ? 6 : 5;

const WORDS = 'harbour tide energy turbine fishery weather coast survey grant council report season vessel quay'.split(' ');
// Each paragraph its own words (a page's paragraphs are not copies of each other: with a fixed cycle through the
// words, the 48 paragraphs of a page were two texts repeated, which a reader, and our duplicate rule, emits once).
function paragraph(seed: number): string {
  let x = (seed * 2654435761 + 1) >>> 0;
  let s = '';
  for (let i = 0; i < 60; i++) {
    x = (Math.imul(x, 1103515245) + 12345) >>> 0;
    s += `${WORDS[(x >>> 16) % WORDS.length]} `;
  }
  return `<p>${s.trim()}.</p>`;
}

function pagePath(i: number): string {
  return i === 0 ? '/' : `/p/${i}`;
}

function linksOf(i: number): string[] {
  const links: string[] = [];
  for (let k = 1; k <= FANOUT; k++) {
    const child = FANOUT * i + k;
    links.push(pagePath(child < PAGES_PER_HOST ? child : (i * 31 + k * 17) % PAGES_PER_HOST));
  }
  return links;
}

function render(host: string, i: number): Buffer {
  const links = linksOf(i);
  const paras: string[] = [];
  for (let p = 0; p < 48; p++) paras.push(paragraph(i * 100 + p));
  const html = `<!doctype html><html lang="en"><head><meta charset="utf-8"><title>Page ${i} on ${host}</title>
<meta name="description" content="Benchmark page ${i}"></head><body>
<header><nav><a href="/">Home</a></nav></header>
<main><article><h1>Page ${i}</h1>${paras.join('\n')}
<ul>${links.map((l, k) => `<li><a href="${l}">Related ${k + 1}</a></li>`).join('')}</ul></article></main>
<footer><p>Benchmark site footer</p></footer></body></html>`;
  return Buffer.from(html);
}

/** An article page as sites draw it: nav, sections of paragraphs, a table, related links, a footer (~20 KB). */
function renderArticle(host: string, i: number): Buffer {
  const links = linksOf(i);
  const sections: string[] = [];
  for (let sec = 0; sec < 6; sec++) {
    const paras: string[] = [];
    for (let p = 0; p < 7; p++) paras.push(paragraph(i * 100 + sec * 10 + p));
    sections.push(`<section><h2>Section ${sec + 1} of page ${i}</h2>\n${paras.join('\n')}</section>`);
  }
  const rows: string[] = [];
  for (let r = 0; r < 12; r++) rows.push(`<tr><td>${WORDS[(i + r) % WORDS.length]}</td><td>${(i * 7 + r * 3) % 100}</td><td>${r + 1}.${i % 10}</td></tr>`);
  const html = `<!doctype html><html lang="en"><head><meta charset="utf-8"><title>Page ${i} on ${host}</title>
<meta name="description" content="Benchmark article ${i}"><link rel="stylesheet" href="/site.css"></head><body>
<header class="site-header"><a class="logo" href="/">Coastal Survey</a><nav class="main-nav"><ul>
<li><a href="/">Home</a></li><li><a href="${links[0]}">Reports</a></li><li><a href="${links[1]}">Data</a></li></ul></nav></header>
<main><article><h1>Page ${i}</h1><p class="byline">By the survey team</p>
${sections.join('\n')}
<table><thead><tr><th>Site</th><th>Count</th><th>Index</th></tr></thead><tbody>${rows.join('')}</tbody></table>
<h2>Related</h2><ul class="related">${links.slice(2).map((l, k) => `<li><a href="${l}">Related report ${k + 1}</a></li>`).join('')}</ul>
</article></main>
<footer class="site-footer"><p>Coastal Survey, benchmark site</p></footer></body></html>`;
  return Buffer.from(html);
}

const pages = new Map<string, Buffer>();
for (let h = 1; h <= HOSTS; h++) {
  const host = `127.0.0.${h}`;
  for (let i = 0; i < PAGES_PER_HOST; i++) pages.set(`${host}${pagePath(i)}`, oneHost ? renderArticle(host, i) : render(host, i));
}

const handler = (req: import('node:http').IncomingMessage, res: import('node:http').ServerResponse) => {
  const host = (req.headers.host ?? '').replace(/:\d+$/, '');
  const body = pages.get(`${host}${req.url ?? '/'}`);
  const send = () => {
    if (!body) {
      res.writeHead(404, { 'content-type': 'text/plain' }).end('not found');
      return;
    }
    res.writeHead(200, { 'content-type': 'text/html; charset=utf-8', 'content-length': body.length }).end(body);
  };
  if (latency > 0) setTimeout(send, latency);
  else send();
};

const servers: Server[] = [];
const first = createServer(handler);
await new Promise<void>((r) => first.listen(0, '127.0.0.1', r));
const port = (first.address() as { port: number }).port;
servers.push(first);
for (let h = 2; h <= HOSTS; h++) {
  const s = createServer(handler);
  await new Promise<void>((r) => s.listen(port, `127.0.0.${h}`, r));
  servers.push(s);
}
for (const s of servers) s.keepAliveTimeout = 30_000;
process.stdout.write(`${JSON.stringify({ port, hosts: HOSTS, pages: HOSTS * PAGES_PER_HOST, bytes: pages.get('127.0.0.1/')!.length })}\n`);
process.on('SIGTERM', () => process.exit(0));
