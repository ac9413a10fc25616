import { createServer, request as httpRequest, type IncomingMessage, type Server } from 'node:http';
import { connect, createServer as createNetServer, isIP, type Server as NetServer, type Socket } from 'node:net';

/** A local proxy for tests: `url` goes into TRAWL_PROXY_URL / proxyUrl. */
export interface TestProxy {
  url: string;
  port: number;
  /** HTTP requests and CONNECTs the proxy received (forwarded or refused). */
  requests(): number;
  /** TCP connections accepted. */
  connections(): number;
  close(): Promise<void>;
}

/**
 * Where the test proxy really connects: loopback only, whatever the request names. Hostnames (site.test ...)
 * go to 127.0.0.1, loopback literals to themselves, anything else is refused, so a test proxy can never carry
 * traffic off this machine.
 */
function loopbackTarget(host: string): string | null {
  const h = host.replace(/^\[|\]$/g, '');
  if (isIP(h) === 0) return '127.0.0.1';
  if (h === '::1' || /^127\./.test(h)) return h;
  return null;
}

function splitHostPort(authority: string, defaultPort: number): { host: string; port: number } {
  const m = authority.match(/^(\[[^\]]+\]|[^:]+)(?::(\d+))?$/);
  return { host: m?.[1] ?? authority, port: m?.[2] ? Number(m[2]) : defaultPort };
}

async function listen(server: Server | NetServer): Promise<number> {
  await new Promise<void>((resolve, reject) => {
    server.once('error', reject);
    server.listen(0, '127.0.0.1', () => resolve());
  });
  const address = server.address();
  if (address === null || typeof address === 'string') throw new Error('proxy has no TCP address');
  return address.port;
}

function tracked(server: Server | NetServer, counter: { connections: number }): () => Promise<void> {
  const sockets = new Set<Socket>();
  server.on('connection', (s: Socket) => {
    counter.connections++;
    sockets.add(s);
    s.on('close', () => sockets.delete(s));
  });
  return () =>
    new Promise<void>((resolve) => {
      for (const s of sockets) s.destroy();
      server.close(() => resolve());
    });
}

/** A working forward proxy: absolute-form HTTP requests are forwarded, CONNECT is tunnelled. */
export async function startForwardProxy(): Promise<TestProxy> {
  const counter = { connections: 0, requests: 0 };
  const server = createServer((req, res) => {
    counter.requests++;
    let target: URL;
    try {
      target = new URL(req.url ?? '');
    } catch {
      res.writeHead(400).end();
      return;
    }
    const address = loopbackTarget(target.hostname);
    if (address === null || target.protocol !== 'http:') {
      res.writeHead(502).end();
      return;
    }
    const headers = { ...req.headers };
    delete headers['proxy-authorization'];
    delete headers['proxy-connection'];
    const upstream = httpRequest(
      { host: address, port: Number(target.port || 80), method: req.method, path: target.pathname + target.search, headers },
      (up: IncomingMessage) => {
        res.writeHead(up.statusCode ?? 502, up.headers);
        up.pipe(res);
      },
    );
    upstream.on('error', () => (res.headersSent ? res.destroy() : res.writeHead(502).end()));
    res.on('close', () => upstream.destroy());
    req.pipe(upstream);
  });
  server.on('connect', (req: IncomingMessage, client: Socket, head: Buffer) => {
    counter.requests++;
    const { host, port } = splitHostPort(req.url ?? '', 443);
    const address = loopbackTarget(host);
    if (address === null) {
      client.end('HTTP/1.1 502 Bad Gateway\r\n\r\n');
      return;
    }
    const upstream = connect(port, address, () => {
      client.write('HTTP/1.1 200 Connection Established\r\n\r\n');
      if (head.length > 0) upstream.write(head);
      upstream.pipe(client);
      client.pipe(upstream);
    });
    upstream.on('error', () => client.end('HTTP/1.1 502 Bad Gateway\r\n\r\n'));
    client.on('error', () => upstream.destroy());
    client.on('close', () => upstream.destroy());
  });
  const close = tracked(server, counter);
  const port = await listen(server);
  return { url: `http://127.0.0.1:${port}`, port, requests: () => counter.requests, connections: () => counter.connections, close };
}

/**
 * A proxy that fails in one way: `refuse` (nothing listens: ECONNREFUSED), `reset` (accepts, then sends a TCP
 * RST), `bad-gateway` (answers 502 to every request and CONNECT), `hang` (accepts and never answers).
 */
export type FailingProxyMode = 'refuse' | 'reset' | 'bad-gateway' | 'hang';

export async function startFailingProxy(mode: FailingProxyMode): Promise<TestProxy> {
  const counter = { connections: 0, requests: 0 };
  if (mode === 'refuse') {
    // Take a free port and release it: connecting there is refused (a later test could reuse it, which is harmless).
    const probe = createNetServer();
    const port = await listen(probe);
    await new Promise<void>((resolve) => probe.close(() => resolve()));
    return { url: `http://127.0.0.1:${port}`, port, requests: () => 0, connections: () => 0, close: async () => {} };
  }
  let server: Server | NetServer;
  if (mode === 'bad-gateway') {
    const http = createServer((req, res) => {
      counter.requests++;
      req.resume();
      res.writeHead(502, { 'content-type': 'text/plain', connection: 'close' }).end('proxy: bad gateway\n');
    });
    http.on('connect', (_req: IncomingMessage, client: Socket) => {
      counter.requests++;
      client.end('HTTP/1.1 502 Bad Gateway\r\nContent-Length: 0\r\n\r\n');
    });
    server = http;
  } else {
    server = createNetServer((socket) => {
      socket.on('error', () => {});
      if (mode === 'reset') socket.resetAndDestroy();
    });
  }
  const close = tracked(server, counter);
  const port = await listen(server);
  return { url: `http://127.0.0.1:${port}`, port, requests: () => counter.requests, connections: () => counter.connections, close };
}
