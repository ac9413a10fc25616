import { readFileSync } from 'node:fs';
import { createServer, type ServerResponse } from 'node:http';

/**
 * The local site the browser tests render. One server on 127.0.0.1 answers for every Host (a.test, b.test, ...
 * reach it through `MAP *.test 127.0.0.1`). Pages come from ../fixtures/<name>.html, with two substitutions:
 * `{{ORIGIN:<host>}}` becomes `http://<host>:<port>` and `{{VAR:<name>}}` a value set with setVar().
 * Extra routes:
 *   /hang-once?id=X      the first request for X never gets an answer; later ones get a small page at once
 *   /slow?ms=N           a small page after N ms
 *   /stall?shown=0|1     a document that starts and never ends: only a menu (0), or a menu and a whole article (1)
 *   /data/article.json   the data the JS-rendered article fetches
 *   /set-cookie          a page whose response sets a cookie
 *   /redirect-to?url=U   302 to U;  /redirect/N  N hops ending at /plain
 *   /plain               a small static page
 */
export interface BrowserSite {
  port: number;
  origin(host: string): string;
  setVar(name: string, value: string): void;
  /** Requests seen for a path (query ignored), any host. */
  hits(path: string): number;
  /** Resolves once a request for `path` has arrived. */
  waitForHit(path: string): Promise<void>;
  close(): Promise<void>;
}

const fixture = (name: string) => readFileSync(new URL(`../fixtures/${name}`, import.meta.url), 'utf8');
const HTML = 'text/html; charset=utf-8';

export async function startBrowserSite(): Promise<BrowserSite> {
  const vars = new Map<string, string>();
  const hits = new Map<string, number>();
  const waiters = new Map<string, (() => void)[]>();
  const hungOnce = new Set<string>();
  let port = 0;

  const render = (text: string) =>
    text
      .replace(/\{\{ORIGIN:([a-z0-9.-]+)\}\}/g, (_m, host: string) => `http://${host}:${port}`)
      .replace(/\{\{VAR:([A-Z_]+)\}\}/g, (_m, name: string) => vars.get(name) ?? '');

  const server = createServer((req, res) => {
    const url = new URL(req.url ?? '/', 'http://fixture.invalid');
    const path = url.pathname;
    hits.set(path, (hits.get(path) ?? 0) + 1);
    for (const wake of waiters.get(path) ?? []) wake();
    waiters.delete(path);

    if (path === '/hang-once') {
      const id = url.searchParams.get('id') ?? '';
      if (!hungOnce.has(id)) {
        hungOnce.add(id);
        return; // never answered; the socket dies with the browser
      }
      return send(res, 200, HTML, page('Second try', '<p>The page answered on the second request.</p>'));
    }
    if (path === '/slow') {
      const ms = Math.min(Number(url.searchParams.get('ms') ?? 1000) || 0, 30_000);
      const timer = setTimeout(() => send(res, 200, HTML, page('Slow page', `<p>Answered after ${ms} ms.</p>`)), ms);
      res.on('close', () => clearTimeout(timer));
      return;
    }
    if (path === '/stall') {
      res.writeHead(200, { 'content-type': HTML });
      res.write(`<!DOCTYPE html><html lang="en"><head><meta charset="utf-8"><title>Stalled</title></head><body><nav>Home · Harbour · Log</nav>`);
      if (url.searchParams.get('shown') === '1') res.write(`<main><h1>Stalled article</h1>${STALLED_ARTICLE}</main>`);
      else res.write('<main><div><div>');
      return; // never ended; the socket dies with the browser or the server
    }
    if (path === '/data/article.json') {
      return send(res, 200, 'application/json', JSON.stringify(ARTICLE_DATA));
    }
    if (path === '/set-cookie') {
      res.setHeader('set-cookie', 'session=secret-session-value; Path=/');
      return send(res, 200, HTML, page('Cookie page', '<p>This response set a cookie.</p>'));
    }
    if (path === '/redirect-to') {
      res.writeHead(302, { location: url.searchParams.get('url') ?? '/plain', 'content-length': 0 });
      return res.end();
    }
    const hops = path.match(/^\/redirect\/(\d{1,2})$/);
    if (hops) {
      const n = Number(hops[1]);
      res.writeHead(302, { location: n > 1 ? `/redirect/${n - 1}` : '/plain', 'content-length': 0 });
      return res.end();
    }
    if (path === '/plain') return send(res, 200, HTML, page('Plain page', '<p>A small static page.</p>'));
    const name = path.match(/^\/([a-z0-9-]+\.html)$/)?.[1];
    if (name) {
      try {
        return send(res, 200, HTML, render(fixture(name)));
      } catch {
        // fall through to 404
      }
    }
    send(res, 404, HTML, page('Not found', '<p>Nothing here.</p>'));
  });
  await new Promise<void>((resolve) => server.listen(0, '127.0.0.1', resolve));
  const address = server.address();
  if (address === null || typeof address === 'string') throw new Error('browser site has no TCP address');
  port = address.port;

  return {
    port,
    origin: (host) => `http://${host}:${port}`,
    setVar: (name, value) => void vars.set(name, value),
    hits: (path) => hits.get(path) ?? 0,
    waitForHit: (path) =>
      (hits.get(path) ?? 0) > 0
        ? Promise.resolve()
        : new Promise<void>((resolve) => waiters.set(path, [...(waiters.get(path) ?? []), resolve])),
    close: () =>
      new Promise<void>((resolve) => {
        server.closeAllConnections();
        server.close(() => resolve());
      }),
  };
}

function send(res: ServerResponse, status: number, type: string, body: string): void {
  const buf = Buffer.from(body);
  res.writeHead(status, { 'content-type': type, 'content-length': buf.length });
  res.end(buf);
}

function page(title: string, body: string): string {
  return `<!DOCTYPE html><html lang="en"><head><meta charset="utf-8"><title>${title}</title></head><body><main><h1>${title}</h1>${body}</main></body></html>`;
}

const ARTICLE_DATA = {
  title: 'Night Shift at the Lighthouse',
  paragraphs: [
    'The keeper climbs the one hundred and twelve steps at dusk, trims the wick and winds the clockwork that turns the lens.',
    'Between rounds she logs the weather every three hours: wind force, visibility, the height of the swell against the rocks.',
    'Ships pass in the dark as moving constellations; each one answers the beam with a flash of its own running lights.',
    'At dawn the lamp is extinguished, the lens curtains are drawn against the sun, and the log is signed for the day keeper.',
  ],
};

/** Well over the reader's-text threshold of a thin page (content-ready.js): an article a reader would read. */
const STALLED_ARTICLE = ARTICLE_DATA.paragraphs.map((p) => `<p>${p}</p>`).join('');
