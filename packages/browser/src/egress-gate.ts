import { createServer, request as httpRequest, Agent, type IncomingMessage, type Server, type ServerResponse } from 'node:http';
import { connect, type Socket } from 'node:net';
import type { Duplex } from 'node:stream';
import type { EgressPolicy } from './egress-policy.ts';

/**
 * The only way out of a browser context: an HTTP proxy on 127.0.0.1 that Chromium is told to use for everything
 * (loopback included, Playwright adds `<-loopback>` to the bypass list). Chromium therefore never resolves a
 * target name nor opens a socket to a target; this gate does, to the address the render's EgressPolicy checked.
 * That covers what request interception cannot see: redirect hops (Playwright continues them without asking),
 * WebSocket handshakes, worker and prerender requests, WebRTC over TCP (--force-webrtc-ip-handling-policy).
 *
 * Plain http arrives as absolute-form requests and is forwarded; https and ws(s) arrive as CONNECT and are tunnelled.
 * A refused target gets a 403 from the gate itself and the target sees no packet. With `policy` null the gate
 * refuses everything: the pool points the browser-wide proxy setting at such a gate so that anything outside a
 * render's context fails closed.
 */
export interface EgressGate {
  /** `http://127.0.0.1:<port>` for Chromium's proxy setting. */
  readonly server: string;
  close(): Promise<void>;
}

const HOP_BY_HOP = new Set([
  'connection',
  'proxy-connection',
  'keep-alive',
  'proxy-authorization',
  'proxy-authenticate',
  'te',
  'trailer',
  'transfer-encoding',
  'upgrade',
]);

export async function startEgressGate(policy: EgressPolicy | null): Promise<EgressGate> {
  const sockets = new Set<Duplex>();
  const agent = new Agent({ keepAlive: true, maxSockets: 16 });
  const track = (s: Duplex) => {
    // Keep-alive sockets come back for request after request; listen for their close once.
    if (sockets.has(s)) return;
    sockets.add(s);
    s.once('close', () => sockets.delete(s));
  };

  const server: Server = createServer((req, res) => void forward(policy, agent, track, req, res));
  server.on('connection', track);
  server.on('connect', (req: IncomingMessage, client: Duplex, head: Buffer) => void tunnel(policy, track, req, client, head));
  // Chromium tunnels WebSockets with CONNECT; an Upgrade on the plain path is not something it sends.
  server.on('upgrade', (_req: IncomingMessage, client: Duplex) => refuseRaw(client));
  server.on('clientError', (_err, socket) => socket.destroy());

  await new Promise<void>((resolve, reject) => {
    server.once('error', reject);
    server.listen(0, '127.0.0.1', () => {
      server.off('error', reject);
      resolve();
    });
  });
  const address = server.address();
  if (address === null || typeof address === 'string') throw new Error('egress gate has no TCP address');
  return {
    server: `http://127.0.0.1:${address.port}`,
    close: () =>
      new Promise<void>((resolve) => {
        for (const s of sockets) s.destroy();
        agent.destroy();
        server.close(() => resolve());
      }),
  };
}

async function forward(
  policy: EgressPolicy | null,
  agent: Agent,
  track: (s: Duplex) => void,
  req: IncomingMessage,
  res: ServerResponse,
): Promise<void> {
  let target: URL;
  try {
    target = new URL(req.url ?? '');
  } catch {
    return refuse(res, 400);
  }
  if (target.protocol !== 'http:' || policy === null) return refuse(res, 403);
  const port = target.port === '' ? 80 : Number(target.port);
  const verdict = await policy.check(target.hostname, port);
  if (!verdict.allowed) return refuse(res, verdict.reason === 'blocked' ? 403 : 502);

  const headers: Record<string, string | string[]> = {};
  const connectionListed = listedInConnection(req.headers.connection);
  for (const [name, value] of Object.entries(req.headers)) {
    if (value === undefined || HOP_BY_HOP.has(name) || connectionListed.has(name)) continue;
    headers[name] = value;
  }
  // A request without a body can be sent again: when the kept-alive socket it went out on was closed by the target
  // before any answer (its keep-alive timeout racing the request), it is, once, on a new connection, as a browser
  // would on its own connection (a page's data request otherwise failed with the gate's 502: egress-gate.e2e.test.ts).
  const replayable = (req.method === 'GET' || req.method === 'HEAD') && (req.headers['content-length'] ?? '0') === '0' && req.headers['transfer-encoding'] === undefined;
  const send = (via: Agent | false) => {
    const upstream = httpRequest({
      // The checked address, never the name: no second lookup between the decision and the socket.
      host: verdict.address.address,
      family: verdict.address.family,
      port,
      method: req.method,
      path: `${target.pathname}${target.search}`,
      headers,
      agent: via,
      setHost: false,
    });
    upstream.on('socket', track);
    upstream.on('response', (up) => {
      const raw: string[] = [];
      const upListed = listedInConnection(up.headers.connection);
      for (let i = 0; i < up.rawHeaders.length; i += 2) {
        const name = up.rawHeaders[i].toLowerCase();
        if (HOP_BY_HOP.has(name) || upListed.has(name)) continue;
        raw.push(up.rawHeaders[i], up.rawHeaders[i + 1]);
      }
      res.writeHead(up.statusCode ?? 502, up.statusMessage, raw);
      up.pipe(res);
      up.on('error', () => res.destroy());
    });
    upstream.on('error', () => {
      if (res.headersSent) return void res.destroy();
      if (via !== false && upstream.reusedSocket && replayable && !res.destroyed) return void send(false).end();
      refuse(res, 502);
    });
    res.on('close', () => {
      if (!res.writableFinished) upstream.destroy();
    });
    return upstream;
  };
  req.pipe(send(agent));
}

async function tunnel(
  policy: EgressPolicy | null,
  track: (s: Duplex) => void,
  req: IncomingMessage,
  client: Duplex,
  head: Buffer,
): Promise<void> {
  client.on('error', () => client.destroy());
  const target = parseAuthority(req.url ?? '');
  if (target === null || policy === null) return refuseRaw(client);
  const verdict = await policy.check(target.host, target.port);
  if (!verdict.allowed) return refuseRaw(client);
  const upstream: Socket = connect({ host: verdict.address.address, port: target.port });
  track(upstream);
  let connected = false;
  upstream.once('connect', () => {
    connected = true;
    client.write('HTTP/1.1 200 Connection Established\r\n\r\n');
    if (head.length > 0) upstream.write(head);
    upstream.pipe(client);
    client.pipe(upstream);
  });
  upstream.on('error', () => {
    if (connected) client.destroy();
    else refuseRaw(client, 502);
  });
  upstream.on('close', () => client.destroy());
  client.on('close', () => upstream.destroy());
}

function refuse(res: ServerResponse, status: number): void {
  res.writeHead(status, { 'content-length': '0', connection: 'close' });
  res.end();
}

function refuseRaw(client: Duplex, status = 403): void {
  if (client.destroyed) return;
  client.end(`HTTP/1.1 ${status} ${status === 403 ? 'Forbidden' : 'Bad Gateway'}\r\ncontent-length: 0\r\nconnection: close\r\n\r\n`);
}

function listedInConnection(value: string | string[] | undefined): Set<string> {
  const text = Array.isArray(value) ? value.join(',') : (value ?? '');
  return new Set(text.split(',').map((t) => t.trim().toLowerCase()).filter((t) => t !== ''));
}

/** `host:port` or `[v6]:port` of a CONNECT request; null when malformed. */
export function parseAuthority(authority: string): { host: string; port: number } | null {
  const m = authority.match(/^(\[[0-9a-fA-F:.]+\]|[^\s:/[\]@]+):(\d{1,5})$/);
  if (!m) return null;
  const port = Number(m[2]);
  if (port < 1 || port > 65535) return null;
  return { host: m[1], port };
}
