import { createServer, type Server, type Socket } from 'node:net';
import { afterAll, beforeAll, describe, expect, it } from 'vitest';
import { createLightEngine } from '../src/index.ts';
import { testGuard, within } from './test-setup.ts';

/**
 * A server that closes a kept-alive connection just as the next request arrives on it (what a server does when its
 * keep-alive timeout ends as a client reuses the socket): it answers the first request of every connection with
 * keep-alive and drops the connection at the second request's first byte, without an answer.
 */
let server: Server;
let port = 0;
let connections = 0;
const sockets = new Set<Socket>();
beforeAll(async () => {
  server = createServer((socket) => {
    connections++;
    sockets.add(socket);
    socket.once('close', () => sockets.delete(socket));
    let answered = false;
    let pending = '';
    socket.on('data', (chunk) => {
      if (answered) return socket.destroy();
      pending += chunk.toString('latin1');
      if (!pending.includes('\r\n\r\n')) return;
      answered = true;
      socket.write('HTTP/1.1 200 OK\r\ncontent-type: text/plain\r\ncontent-length: 2\r\nconnection: keep-alive\r\n\r\nok');
    });
  });
  await new Promise<void>((resolve) => server.listen(0, '127.0.0.1', resolve));
  port = (server.address() as { port: number }).port;
});
afterAll(async () => {
  for (const s of sockets) s.destroy();
  await new Promise((resolve) => server.close(resolve));
});

describe('light engine on kept-alive connections', () => {
  it('sends a request again on a fresh connection when the server closed the reused one under it', async () => {
    const engine = createLightEngine({ guard: testGuard() });
    try {
      const first = await engine.fetch({ url: `http://keepalive.test:${port}/one`, deadline: within(10_000) });
      expect(first).toMatchObject({ ok: true, statusCode: 200 });
      const second = await engine.fetch({ url: `http://keepalive.test:${port}/two`, deadline: within(10_000) });
      expect(second).toMatchObject({ ok: true, statusCode: 200 });
      if (second.ok) expect(second.body.toString()).toBe('ok');
      // The second request went out on the first connection, was dropped, and was answered on a new one.
      expect(connections).toBe(2);
    } finally {
      await engine.close();
    }
  });
});
