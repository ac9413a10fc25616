import { createServer, type IncomingMessage, type ServerResponse } from 'node:http';
import { readFile } from 'node:fs/promises';
import type { AddressInfo } from 'node:net';
import { extname, join, resolve, sep } from 'node:path';
import { fileURLToPath } from 'node:url';

/**
 * The bundled demo site (`npm run demo-site`): a handful of linked static pages the README's quick start fetches and
 * crawls, so trying Trawl needs no internet. Files only, GET and HEAD only, nothing outside `site/` is ever served.
 */
export const DEMO_SITE_DIR = fileURLToPath(new URL('../site/', import.meta.url));
export const DEMO_SITE_DEFAULT_PORT = 8070;

const TYPES: Record<string, string> = {
  '.html': 'text/html; charset=utf-8',
  '.txt': 'text/plain; charset=utf-8',
  '.xml': 'application/xml; charset=utf-8',
  '.css': 'text/css; charset=utf-8',
};

export interface DemoSite {
  url: string;
  close(): Promise<void>;
}

/** The file a request path names (directories serve index.html), or null when it names none of the site's. */
export function sitePath(root: string, urlPath: string): string | null {
  let path: string;
  try {
    path = decodeURIComponent(urlPath.split('?')[0]);
  } catch {
    return null;
  }
  if (path.includes('\0')) return null;
  const file = resolve(root, `.${path.endsWith('/') ? `${path}index.html` : path}`);
  // resolve() collapses `..`: whatever is not under the root is not the site's.
  return file.startsWith(root.endsWith(sep) ? root : root + sep) && TYPES[extname(file)] ? file : null;
}

async function answer(root: string, req: IncomingMessage, res: ServerResponse): Promise<void> {
  if (req.method !== 'GET' && req.method !== 'HEAD') {
    res.writeHead(405, { allow: 'GET, HEAD', 'content-type': TYPES['.txt'] }).end('method not allowed\n');
    return;
  }
  const file = sitePath(root, req.url ?? '/');
  const body = file ? await readFile(file).catch(() => null) : null;
  if (!file || !body) {
    const notFound = await readFile(join(root, '404.html'));
    res.writeHead(404, { 'content-type': TYPES['.html'], 'content-length': notFound.length });
    res.end(req.method === 'HEAD' ? undefined : notFound);
    return;
  }
  res.writeHead(200, { 'content-type': TYPES[extname(file)], 'content-length': body.length, 'cache-control': 'no-cache' });
  res.end(req.method === 'HEAD' ? undefined : body);
}

export async function startDemoSite(opts: { port?: number; host?: string; root?: string } = {}): Promise<DemoSite> {
  const root = resolve(opts.root ?? DEMO_SITE_DIR);
  const server = createServer((req, res) => {
    answer(root, req, res).catch(() => {
      if (!res.headersSent) res.writeHead(500, { 'content-type': TYPES['.txt'] });
      res.end('internal error\n');
    });
  });
  const host = opts.host ?? '127.0.0.1';
  await new Promise<void>((ok, fail) => {
    server.once('error', fail);
    server.listen(opts.port ?? DEMO_SITE_DEFAULT_PORT, host, () => ok());
  });
  const { port } = server.address() as AddressInfo;
  return {
    url: `http://${host.includes(':') ? `[${host}]` : host}:${port}`,
    close: () =>
      new Promise<void>((ok) => {
        server.closeAllConnections();
        server.close(() => ok());
      }),
  };
}
