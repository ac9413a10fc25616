import { createServer, type ServerResponse } from 'node:http';
import type { Socket } from 'node:net';
import { CRAWL_SAMPLE, MATRIX, matrixPage } from './pages.ts';
import { articleHtml, chrome, partHtml } from './text.ts';

/**
 * The render-fidelity matrix site on 127.0.0.1 (any Host). Routes:
 *   /matrix/                 an index linking every page (a crawl seed)
 *   /matrix-sample/          an index linking the pages of CRAWL_SAMPLE (the suite's crawl seed)
 *   /matrix/<name>           a page of pages.ts
 *   /matrix-refreshed/<name>  the page's whole article, served (where a meta refresh leads)
 *   /matrix-data/<name>?from=&parts=&delay=&bare=1   JSON {html}: the page's parts from..from+parts-1, after delay
 *                            ms (bare: paragraphs only; else an article with its heading)
 *   /matrix-stream/<name>?gap=   the page's four parts, one line each, gap ms apart (250), in one chunked response
 *   /matrix-poll             JSON at once (a polled status)
 *   /matrix-hold             never answers (a long poll)
 *   /matrix-sse             an event stream that sends a message every 500 ms and never ends
 *   /matrix-beacon           204
 */
export interface MatrixSite {
  port: number;
  origin(host?: string): string;
  url(name: string, host?: string): string;
  close(): Promise<void>;
}

const HTML = 'text/html; charset=utf-8';

export async function startMatrixSite(): Promise<MatrixSite> {
  const sockets = new Set<Socket>();
  const timers = new Set<NodeJS.Timeout>();
  const later = (ms: number, fn: () => void) => {
    const t = setTimeout(() => {
      timers.delete(t);
      fn();
    }, ms);
    timers.add(t);
    return t;
  };
  const server = createServer((req, res) => {
    const url = new URL(req.url ?? '/', 'http://matrix.invalid');
    const path = url.pathname;
    let m: RegExpMatchArray | null;
    if (path === '/matrix/' || path === '/matrix' || path === '/matrix-sample/') {
      const links = (path === '/matrix-sample/' ? CRAWL_SAMPLE : MATRIX).map((p) => `<li><a href="/matrix/${p.name}">${p.name}</a>: ${p.draws}</li>`).join('\n');
      return send(res, 200, HTML, chrome('Render matrix', `<main><h1>Render matrix</h1><ul>${links}</ul></main>`));
    }
    if ((m = path.match(/^\/matrix\/([a-z0-9-]+)$/))) {
      const p = matrixPage(m[1]);
      return p ? send(res, 200, HTML, p.html) : send(res, 404, HTML, chrome('Not found', '<p>No such page.</p>'));
    }
    if ((m = path.match(/^\/matrix-refreshed\/([a-z0-9-]+)$/))) {
      return send(res, 200, HTML, chrome(`Harbour log ${m[1]}`, `<main>${articleHtml(m[1], 4)}</main>`));
    }
    if ((m = path.match(/^\/matrix-data\/([a-z0-9-]+)$/))) {
      const name = m[1];
      const from = clamp(url.searchParams.get('from'), 1, 100, 1);
      const parts = clamp(url.searchParams.get('parts'), 1, 100, 4);
      const delay = clamp(url.searchParams.get('delay'), 0, 30_000, 0);
      const html = url.searchParams.get('bare')
        ? Array.from({ length: parts }, (_, i) => partHtml(name, from + i)).join('')
        : articleHtml(name, parts, from);
      const t = later(delay, () => send(res, 200, 'application/json', JSON.stringify({ html })));
      res.on('close', () => clearTimeout(t));
      return;
    }
    if ((m = path.match(/^\/matrix-stream\/([a-z0-9-]+)$/))) {
      const name = m[1];
      const gap = clamp(url.searchParams.get('gap'), 0, 5_000, 250);
      res.writeHead(200, { 'content-type': 'text/plain; charset=utf-8', 'cache-control': 'no-store' });
      let part = 1;
      const tick = () => {
        if (res.destroyed) return;
        res.write(`${partHtml(name, part)}\n`);
        if (++part > 4) return void res.end();
        later(gap, tick);
      };
      tick();
      return;
    }
    if (path === '/matrix-poll') return send(res, 200, 'application/json', JSON.stringify({ tide: (Date.now() % 97) / 10 }));
    if (path === '/matrix-hold') return; // never answered; the socket closes with the page
    if (path === '/matrix-sse') {
      res.writeHead(200, { 'content-type': 'text/event-stream', 'cache-control': 'no-store' });
      let n = 0;
      const beat = () => {
        if (res.destroyed) return;
        res.write(`data: tick ${n++}\n\n`);
        later(500, beat);
      };
      beat();
      return;
    }
    if (path === '/matrix-beacon') return send(res, 204, 'text/plain', '');
    return send(res, 404, HTML, chrome('Not found', '<p>No such page.</p>'));
  });
  server.on('connection', (s) => {
    sockets.add(s);
    s.on('close', () => sockets.delete(s));
  });
  await new Promise<void>((resolve) => server.listen(0, '127.0.0.1', resolve));
  const port = (server.address() as { port: number }).port;
  const origin = (host = '127.0.0.1') => `http://${host}:${port}`;
  return {
    port,
    origin,
    url: (name, host) => `${origin(host)}/matrix/${name}`,
    async close() {
      for (const t of timers) clearTimeout(t);
      for (const s of sockets) s.destroy();
      await new Promise<void>((resolve) => server.close(() => resolve()));
    },
  };
}

function clamp(v: string | null, min: number, max: number, def: number): number {
  const n = Number(v ?? def);
  return Number.isFinite(n) ? Math.min(max, Math.max(min, Math.floor(n))) : def;
}

function send(res: ServerResponse, status: number, type: string, body: string): void {
  res.writeHead(status, { 'content-type': type, 'content-length': Buffer.byteLength(body), 'cache-control': 'no-store' });
  res.end(body);
}
