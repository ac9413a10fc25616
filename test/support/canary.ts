import { createServer, type Server } from 'node:http';
import type { Socket } from 'node:net';

/**
 * A listener that only counts: every TCP connection and every HTTP request it sees. SSRF tests aim refused
 * targets at it (127.0.0.2 by default, a loopback address nothing else uses) and assert that it saw nothing.
 */
export interface Canary {
  host: string;
  port: number;
  /** `http://<host>:<port>` (IPv6 hosts bracketed). */
  origin: string;
  connections(): number;
  requests(): number;
  close(): Promise<void>;
}

export interface CanaryOptions {
  /** Default 127.0.0.2. */
  host?: string;
  /** Default: a free port. Pass another canary's port to watch the same port on a second address. */
  port?: number;
}

export async function startCanary(opts: CanaryOptions = {}): Promise<Canary> {
  const host = opts.host ?? '127.0.0.2';
  let connections = 0;
  let requests = 0;
  const sockets = new Set<Socket>();
  const server: Server = createServer((req, res) => {
    requests++;
    req.resume();
    res.writeHead(200, { 'content-type': 'text/plain; charset=utf-8' });
    res.end('canary reached\n');
  });
  server.on('connection', (socket: Socket) => {
    connections++;
    sockets.add(socket);
    socket.on('close', () => sockets.delete(socket));
  });
  // Anything that is not HTTP (a TLS handshake, a CONNECT) still counts as a connection; just drop it.
  server.on('clientError', (_err, socket) => socket.destroy());
  await new Promise<void>((resolve, reject) => {
    server.once('error', reject);
    server.listen(opts.port ?? 0, host, () => {
      server.off('error', reject);
      resolve();
    });
  });
  const address = server.address();
  if (address === null || typeof address === 'string') throw new Error('canary has no TCP address');
  const port = address.port;
  return {
    host,
    port,
    origin: `http://${host.includes(':') ? `[${host}]` : host}:${port}`,
    connections: () => connections,
    requests: () => requests,
    close: () =>
      new Promise<void>((resolve) => {
        for (const s of sockets) s.destroy();
        server.close(() => resolve());
      }),
  };
}

/**
 * A canary on 127.0.0.2 plus a decoy on 127.0.0.1 with the same port. A client that honours our lookup reaches
 * the canary; one that quietly resolves the name itself (`localhost` -> 127.0.0.1) lands on the decoy.
 */
export async function startCanaryWithDecoy(): Promise<{ canary: Canary; decoy: Canary; close(): Promise<void> }> {
  for (let attempt = 0; ; attempt++) {
    const canary = await startCanary();
    try {
      const decoy = await startCanary({ host: '127.0.0.1', port: canary.port });
      return { canary, decoy, close: async () => void (await Promise.all([canary.close(), decoy.close()])) };
    } catch (err) {
      await canary.close();
      if (attempt >= 10) throw err;
    }
  }
}
