import { randomBytes } from 'node:crypto';
import { createServer as createTcpServer, type Socket } from 'node:net';
import { createServer, type ServerResponse } from 'node:http';
import { gzipSync } from 'node:zlib';

/**
 * A local web site that attacks its client, for the hostile-page suites (issue 12) and bench/hostile-load. One
 * node:http server on 127.0.0.1 answers for any Host (reach it as hostile.test through TRAWL_HOST_RESOLVER_RULES);
 * a second, raw TCP listener serves what node:http refuses to send (headers over its limits). Pages:
 *   /deep?n=     n nested <div>s around one sentence (default 300,000: 3.3 MB, under the 10 MiB body limit)
 *   /links?n=    n links (default: the most that fit in 10 MiB, ~640,000; /links?n=1000000 is over the limit)
 *   /binary?n=   n KiB (default 5 MiB) of random bytes served as text/html
 *   /gzip-bomb   64 MiB of zeros gzipped to 64 KB (Content-Encoding: gzip)
 *   /drip        headers at once, then one byte every 200 ms for ever
 *   /silent      accepts the request and never answers
 *   /loop-a      redirects to /loop-b, which redirects back, for ever
 *   /ordinary?n= an ordinary article page (~12 KB) that names n, so a caller can check it got its own page back
 *   /            links to every page above (a crawl's seed)
 * The huge-headers page is on the raw listener: `hugeHeadersUrl(host)`, a 200 with a 256 KB header.
 */
export interface HostileSite {
  port: number;
  url(host: string, path: string): string;
  /** A page whose response headers total 256 KB (beyond any client's limit). */
  hugeHeadersUrl(host: string): string;
  close(): Promise<void>;
}

export const ORDINARY_MARKER = 'Harbour log entry';
const HTML = 'text/html; charset=utf-8';
const BODY_LIMIT = 10 * 1024 * 1024;

export async function startHostileSite(): Promise<HostileSite> {
  const cache = new Map<string, Buffer>();
  const once = (key: string, make: () => Buffer) => cache.get(key) ?? (cache.set(key, make()), cache.get(key)!);
  // The bodies the suites ask for are built before the site listens: building them takes seconds of this
  // process's event loop, which the gateway under test shares, and would make its answers late for our own reasons.
  for (const depth of [300_000, 500_000]) once(`deep${depth}`, () => deepPage(depth));
  for (const count of [0, 1_000_000]) once(`links${count}`, () => linksPage(count));
  once('binary5120', () => randomBytes(5120 * 1024));
  once('bomb', () => gzipSync(Buffer.alloc(64 * 1024 * 1024), { level: 9 }));
  const open = new Set<ServerResponse>();
  const timers = new Set<NodeJS.Timeout>();

  const server = createServer((req, res) => {
    const url = new URL(req.url ?? '/', 'http://hostile.invalid');
    const n = Number(url.searchParams.get('n') ?? '');
    open.add(res);
    res.on('close', () => open.delete(res));
    switch (url.pathname) {
      case '/':
        return send(res, HTML, Buffer.from(homePage()));
      case '/deep': {
        const depth = Number.isInteger(n) && n > 0 ? Math.min(n, 900_000) : 300_000;
        return send(res, HTML, once(`deep${depth}`, () => deepPage(depth)));
      }
      case '/links': {
        const count = Number.isInteger(n) && n > 0 ? Math.min(n, 2_000_000) : 0;
        return send(res, HTML, once(`links${count}`, () => linksPage(count)));
      }
      case '/binary': {
        const kb = Number.isInteger(n) && n > 0 ? Math.min(n, 10_000) : 5 * 1024;
        return send(res, HTML, once(`binary${kb}`, () => randomBytes(kb * 1024)));
      }
      case '/gzip-bomb': {
        const body = once('bomb', () => gzipSync(Buffer.alloc(64 * 1024 * 1024), { level: 9 }));
        res.writeHead(200, { 'content-type': HTML, 'content-encoding': 'gzip', 'content-length': body.length });
        return void res.end(body);
      }
      case '/drip': {
        res.writeHead(200, { 'content-type': HTML });
        res.write('<html><body><p>');
        const t = setInterval(() => res.write('.'), 200);
        timers.add(t);
        res.on('close', () => (clearInterval(t), timers.delete(t)));
        return;
      }
      case '/silent':
        return; // the request is read and never answered
      case '/loop-a':
      case '/loop-b':
        res.writeHead(302, { location: url.pathname === '/loop-a' ? '/loop-b' : '/loop-a', 'content-length': 0 });
        return void res.end();
      case '/ordinary':
        return send(res, HTML, Buffer.from(ordinaryPage(Number.isInteger(n) ? n : 0)));
    }
    res.writeHead(404, { 'content-type': HTML });
    res.end('<p>not found</p>');
  });
  // Raw TCP: node:http will not write a 256 KB header, but a hostile server will.
  const sockets = new Set<Socket>();
  const raw = createTcpServer((socket) => {
    sockets.add(socket);
    socket.on('close', () => sockets.delete(socket));
    socket.on('error', () => undefined);
    socket.once('data', () => {
      const header = `X-Filler: ${'a'.repeat(256 * 1024)}\r\n`;
      socket.end(`HTTP/1.1 200 OK\r\nContent-Type: text/html\r\n${header}Content-Length: 11\r\n\r\n<p>hi</p>\r\n`);
    });
  });
  await Promise.all([listen(server), listen(raw)]);
  const port = (server.address() as { port: number }).port;
  const rawPort = (raw.address() as { port: number }).port;
  return {
    port,
    url: (host, path) => `http://${host}:${port}${path}`,
    hugeHeadersUrl: (host) => `http://${host}:${rawPort}/huge-headers`,
    close: async () => {
      for (const t of timers) clearInterval(t);
      for (const s of sockets) s.destroy();
      server.closeAllConnections();
      await Promise.all([new Promise<void>((r) => server.close(() => r())), new Promise<void>((r) => raw.close(() => r()))]);
    },
  };
}

function listen(s: { listen(port: number, host: string, cb: () => void): unknown; once(ev: 'error', cb: (e: Error) => void): unknown }): Promise<void> {
  return new Promise((resolve, reject) => {
    s.once('error', reject);
    s.listen(0, '127.0.0.1', () => resolve());
  });
}

function send(res: ServerResponse, contentType: string, body: Buffer): void {
  res.writeHead(200, { 'content-type': contentType, 'content-length': body.length });
  res.end(body);
}

function deepPage(depth: number): Buffer {
  return Buffer.from(`<!doctype html><html><head><title>Deep</title></head><body>${'<div>'.repeat(depth)}<p>The bottom of the well.</p>${'</div>'.repeat(depth)}</body></html>`);
}

/** `count` links, or (count 0) as many as fit under the 10 MiB body limit. */
function linksPage(count: number): Buffer {
  const head = '<!doctype html><html><head><title>Links</title></head><body>';
  const tail = '</body></html>';
  const parts: string[] = [head];
  let size = head.length + tail.length;
  for (let i = 0; count === 0 || i < count; i++) {
    const a = `<a href=/l/${i.toString(36)}>${i}</a>`;
    if (count === 0 && size + a.length > BODY_LIMIT - 1024) break;
    parts.push(a);
    size += a.length;
  }
  parts.push(tail);
  return Buffer.from(parts.join(''));
}

function homePage(): string {
  const paths = ['/deep', '/links', '/binary', '/gzip-bomb', '/drip', '/silent', '/loop-a', '/ordinary?n=1'];
  return `<!doctype html><html><head><title>Hostile</title></head><body><main><h1>Hostile pages</h1><ul>${paths.map((p) => `<li><a href="${p}">${p}</a></li>`).join('')}</ul></main></body></html>`;
}

/** A plain article of about 12 KB whose text names `n`. */
export function ordinaryPage(n: number): string {
  const para = 'The harbour master logs every vessel that enters the basin, its draught, its berth and the tide it came in on. ';
  const paragraphs = Array.from({ length: 24 }, (_, i) => `<p>${para.repeat(4)}Paragraph ${i + 1}.</p>`).join('');
  return `<!doctype html><html><head><title>Harbour log ${n}</title></head><body><header><nav><a href="/">Home</a></nav></header>` +
    `<main><article><h1>${ORDINARY_MARKER} ${n}</h1>${paragraphs}</article></main><footer>Port authority</footer></body></html>`;
}
