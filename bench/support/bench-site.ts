import { createServer, type Server } from 'node:http';
import { parseArgs } from 'node:util';

/**
 * The crawl benchmark site: HOSTS loopback addresses (127.0.0.1 … 127.0.0.<HOSTS>, distinct hostnames without any
 * resolver trick, so every peer can crawl it), PAGES_PER_HOST pages each, ~20 KB per page, 5 links per page. Each
 * host's pages form a 5-ary tree from `/` (page i links to 5i+1 … 5i+5; leaves link back into the host), so every
 * page is reachable within depth 3. Optional added latency per page. Prints {"port": …} when ready.
 */
export const HOSTS = 20;
export const PAGES_PER_HOST = 100;

const { values } = parseArgs({ options: { 'latency-ms': { type: 'string', default: '0' } }, strict: true });
const latency = Number(values['latency-ms']);

const WORDS = 'harbour tide energy turbine fishery weather coast survey grant council report season vessel quay'.split(' ');
function paragraph(seed: number): string {
  let s = '';
  for (let i = 0; i < 60; i++) s += `${WORDS[(seed * 7 + i * 13) % WORDS.length]} `;
  return `<p>${s.trim()}.</p>`;
}

function pagePath(i: number): string {
  return i === 0 ? '/' : `/p/${i}`;
}

function render(host: string, i: number): Buffer {
  const links: string[] = [];
  for (let k = 1; k <= 5; k++) {
    const child = 5 * i + k;
    links.push(pagePath(child < PAGES_PER_HOST ? child : (i * 31 + k * 17) % PAGES_PER_HOST));
  }
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

const pages = new Map<string, Buffer>();
for (let h = 1; h <= HOSTS; h++) {
  const host = `127.0.0.${h}`;
  for (let i = 0; i < PAGES_PER_HOST; i++) pages.set(`${host}${pagePath(i)}`, render(host, i));
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
