import { mkdtempSync, rmSync } from 'node:fs';
import { createServer, type IncomingMessage, type Server, type ServerResponse } from 'node:http';
import type { Socket } from 'node:net';
import { tmpdir } from 'node:os';
import { join } from 'node:path';
import { createServer as createHttpsServer, type Server as HttpsServer } from 'node:https';
import { createSecureContext } from 'node:tls';
import { selfSignedCertificate } from './tls-certificate.ts';

/**
 * A crawlable web of our own: HTML pages defined by absolute URL, served by node:http listeners on 127.0.0.1 (one
 * per port, plus an optional https one with a throw-away self-signed certificate) that tell hosts apart by the
 * Host header. Crawls reach them as shop.example.test,
 * a.example.co.uk ... through TRAWL_HOST_RESOLVER_RULES; nothing here touches DNS or the internet.
 * Every request is logged with its arrival time, so tests can assert what the crawler asked for and when, not
 * only what it delivered.
 */
export interface PageSpec {
  /** hrefs written into the page, as they are (relative, absolute, other schemes...). */
  links?: string[];
  title?: string;
  /** Delay before answering, on top of the site's default latency. */
  latencyMs?: number;
  /** A 302 to this Location instead of a page. */
  redirect?: string;
  /** A raw body (e.g. robots.txt) instead of generated HTML. */
  body?: string | Buffer;
  contentType?: string;
  /** Answers for the first hits, in order, before the page is served normally (e.g. one 429 with Retry-After). */
  first?: { status: number; headers?: Record<string, string> }[];
}

export interface SiteRequest {
  /** Arrival time (ms since epoch) at the listener. */
  at: number;
  /** `<scheme>://<host>:<port><path>` as the crawler addressed it (host from the Host header, lower-case). */
  url: string;
  host: string;
  path: string;
  status: number;
}

export interface TlsListener {
  port: number;
  /** TCP connections accepted: any attempt to fetch an https:// URL on this port. */
  connections(): number;
  /** SNI server names seen in TLS handshakes, in order (a handshake counts even if the client then rejects us). */
  serverNames(): string[];
}

export interface CrawlSite {
  /** HTTP listener ports; index 0 is the main one. */
  ports: number[];
  /** An https listener with a self-signed certificate (only when asked for); serves pages defined on its port. */
  tls: TlsListener | null;
  /** `http://<host>:<ports[portIndex]><path>` */
  url(host: string, path?: string, portIndex?: number): string;
  /** Defines (or replaces) the page at an absolute URL on one of our ports (https: the TLS port). */
  page(url: string, spec?: PageSpec): void;
  /** URLs of every HTML page defined (not redirects, not raw bodies). */
  htmlPages(): string[];
  /** A position in the request log, to read only what came after it. */
  mark(): number;
  /** Requests seen (since `since`, a mark), in arrival order; robots.txt fetches are left out unless asked for. */
  requests(opts?: { since?: number; robots?: boolean; host?: string }): SiteRequest[];
  close(): Promise<void>;
}

export interface CrawlSiteOptions {
  /** Number of HTTP listeners (default 1). */
  ports?: number;
  /** Default delay before each answer, ms (default 0). */
  latencyMs?: number;
  /** Also start an https listener with a throw-away self-signed certificate (needs the openssl binary). */
  tls?: boolean;
}

/** The key of a request or a defined page: lower-case host, port, path and query. */
function keyOf(scheme: 'http' | 'https', host: string, port: number, pathAndQuery: string): string {
  return `${scheme}://${host.toLowerCase()}:${port}${pathAndQuery}`;
}

export async function startCrawlSite(opts: CrawlSiteOptions = {}): Promise<CrawlSite> {
  const pages = new Map<string, PageSpec & { hits: number }>();
  const log: SiteRequest[] = [];
  const defaultLatency = opts.latencyMs ?? 0;
  const servers: Server[] = [];
  const sockets = new Set<Socket>();
  const timers = new Set<NodeJS.Timeout>();

  const handle = (scheme: 'http' | 'https', port: number) => (req: IncomingMessage, res: ServerResponse) => {
    const at = Date.now();
    const host = (req.headers.host ?? '').replace(/:\d+$/, '').toLowerCase();
    const path = req.url ?? '/';
    const entry: SiteRequest = { at, url: keyOf(scheme, host, port, path), host, path, status: 0 };
    log.push(entry);
    req.resume();
    const spec = pages.get(entry.url);
    const answer = (status: number, headers: Record<string, string>, body: string | Buffer) => {
      entry.status = status;
      const buf = Buffer.from(body);
      res.writeHead(status, { ...headers, 'content-length': String(buf.length) });
      res.end(buf);
    };
    const respond = () => {
      if (!spec) return answer(404, { 'content-type': 'text/html; charset=utf-8' }, page404());
      const hit = spec.hits++;
      const early = spec.first?.[hit];
      if (early) return answer(early.status, { 'content-type': 'text/plain; charset=utf-8', ...early.headers }, `status ${early.status}\n`);
      if (spec.redirect !== undefined) return answer(302, { location: spec.redirect }, '');
      if (spec.body !== undefined) return answer(200, { 'content-type': spec.contentType ?? 'text/plain; charset=utf-8' }, spec.body);
      answer(200, { 'content-type': 'text/html; charset=utf-8' }, htmlPage(spec, entry.url));
    };
    const delay = defaultLatency + (spec?.latencyMs ?? 0);
    if (delay <= 0) return respond();
    const t = setTimeout(() => {
      timers.delete(t);
      respond();
    }, delay);
    timers.add(t);
    res.on('close', () => {
      clearTimeout(t);
      timers.delete(t);
    });
  };

  const ports: number[] = [];
  for (let i = 0; i < (opts.ports ?? 1); i++) {
    const server = createServer();
    const port = await listen(server);
    server.on('request', handle('http', port));
    server.on('connection', (s: Socket) => {
      sockets.add(s);
      s.on('close', () => sockets.delete(s));
    });
    servers.push(server);
    ports.push(port);
  }

  let tls: TlsListener | null = null;
  let httpsServer: HttpsServer | null = null;
  let certDir: string | null = null;
  if (opts.tls) {
    certDir = mkdtempSync(join(tmpdir(), 'trawl-crawl-tls-'));
    const cert = selfSignedCertificate(certDir);
    let connections = 0;
    const names: string[] = [];
    const context = createSecureContext(cert);
    httpsServer = createHttpsServer({
      ...cert,
      SNICallback: (name, cb) => {
        names.push(name.toLowerCase());
        cb(null, context);
      },
    });
    httpsServer.on('connection', (s: Socket) => {
      connections++;
      sockets.add(s);
      s.on('close', () => sockets.delete(s));
    });
    const port = await listen(httpsServer);
    httpsServer.on('request', handle('https', port));
    tls = { port, connections: () => connections, serverNames: () => [...names] };
  }

  return {
    ports,
    tls,
    url(host, path = '/', portIndex = 0) {
      return `http://${host}:${ports[portIndex]}${path}`;
    },
    page(url, spec = {}) {
      const u = new URL(url);
      const ours = u.protocol === 'http:' ? ports.includes(Number(u.port)) : u.protocol === 'https:' && Number(u.port) === tls?.port;
      if (!ours) throw new Error(`not a URL of this site: ${url}`);
      pages.set(keyOf(u.protocol === 'http:' ? 'http' : 'https', u.hostname, Number(u.port), u.pathname + u.search), { ...spec, hits: 0 });
    },
    htmlPages() {
      const out: string[] = [];
      for (const [key, spec] of pages) if (spec.redirect === undefined && spec.body === undefined) out.push(key);
      return out;
    },
    mark: () => log.length,
    requests(o = {}) {
      return log.slice(o.since ?? 0).filter((r) => (o.robots || !r.path.startsWith('/robots.txt')) && (o.host === undefined || r.host === o.host));
    },
    async close() {
      for (const t of timers) clearTimeout(t);
      for (const s of sockets) s.destroy();
      await Promise.all([...servers, ...(httpsServer ? [httpsServer] : [])].map((s) => new Promise((r) => s.close(r))));
      if (certDir) rmSync(certDir, { recursive: true, force: true });
    },
  };
}

async function listen(server: Server | HttpsServer): Promise<number> {
  await new Promise<void>((resolve, reject) => {
    server.once('error', reject);
    server.listen(0, '127.0.0.1', () => resolve());
  });
  const a = server.address();
  if (a === null || typeof a === 'string') throw new Error('listener has no TCP address');
  return a.port;
}

function escapeHtml(s: string): string {
  return s.replace(/[&<>"']/g, (c) => `&#${c.charCodeAt(0)};`);
}

/** A small article page: enough prose to read as content, and the links in a list. */
function htmlPage(spec: PageSpec, url: string): string {
  const title = spec.title ?? `Page ${new URL(url).pathname}`;
  const links = (spec.links ?? []).map((href, i) => `<li><a href="${escapeHtml(href)}">Link ${i + 1}</a></li>`).join('');
  return `<!DOCTYPE html>\n<html lang="en"><head><meta charset="utf-8"><title>${escapeHtml(title)}</title></head>
<body><main><article><h1>${escapeHtml(title)}</h1>
<p>This page belongs to the crawl fixture web. It has a short article so that content extraction finds a main text,
and a list of links that the crawler may follow depending on the crawl scope, depth and page cap.</p>
<p>The harbour office opens at seven; the tide tables for the week are pinned next to the door.</p>
<ul>${links}</ul></article></main></body></html>\n`;
}

function page404(): string {
  return '<!DOCTYPE html>\n<html lang="en"><head><meta charset="utf-8"><title>Not found</title></head><body><p>Not found.</p></body></html>\n';
}

/**
 * Resolves once the site has answered at least `count` requests, or after `ms` (the caller's assertion then says
 * what came): for tests that check a fetch happened while something else is down, without a fixed sleep that a
 * loaded machine outlasts.
 */
export async function untilRequested(site: CrawlSite, count = 1, ms = 10_000): Promise<void> {
  for (const deadline = Date.now() + ms; site.requests().length < count && Date.now() < deadline; ) await new Promise((r) => setTimeout(r, 50));
}

/**
 * A tree web over several hostnames (all on port index 0): each host has a root `/` and a tree `/n/<path>` of
 * `fanout` children per node, `levels` deep below the root. Roots link to every other host's root; leaves link
 * to a few pseudo-random pages anywhere (deterministic), so many pages are discovered more than once and from
 * other hosts. Returns every page URL; the first host's root is the natural seed.
 */
export function defineTreeWeb(
  site: CrawlSite,
  opts: { hosts: string[]; fanout: number; levels: number; crossLinks?: number; latencyMs?: number },
): string[] {
  const urls: string[] = [];
  const children = new Map<string, string[]>();
  for (const host of opts.hosts) {
    const root = site.url(host, '/');
    urls.push(root);
    let level = [{ url: root, path: '' }];
    for (let d = 1; d <= opts.levels; d++) {
      const next: { url: string; path: string }[] = [];
      for (const parent of level) {
        const kids: string[] = [];
        for (let c = 0; c < opts.fanout; c++) {
          const path = `${parent.path}/${c}`;
          const url = site.url(host, `/n${path}`);
          kids.push(url);
          next.push({ url, path });
          urls.push(url);
        }
        children.set(parent.url, kids);
      }
      level = next;
    }
  }
  let seed = 12345;
  const rand = () => {
    seed = (seed * 1103515245 + 12345) & 0x7fffffff;
    return seed / 0x80000000;
  };
  const roots = opts.hosts.map((h) => site.url(h, '/'));
  for (const url of urls) {
    const links = [...(children.get(url) ?? [])];
    if (roots.includes(url)) links.push(...roots.filter((r) => r !== url));
    else if (!children.has(url)) for (let i = 0; i < (opts.crossLinks ?? 3); i++) links.push(urls[Math.floor(rand() * urls.length)]);
    site.page(url, { links, latencyMs: opts.latencyMs });
  }
  return urls;
}
