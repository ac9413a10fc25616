import { createServer, type Socket } from 'node:net';

/**
 * A target that closes a kept-alive connection just as the next request arrives on it (what a server does when its
 * keep-alive timeout ends as a client reuses the socket): it answers the first request of every connection with
 * `200 ok` and keep-alive, and drops the connection at the second request's first byte, without an answer.
 */
export async function startKeepAliveDropper(): Promise<{ port: number; connections(): number; close(): Promise<void> }> {
  let connections = 0;
  const sockets = new Set<Socket>();
  const server = createServer((socket) => {
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
  return {
    port: (server.address() as { port: number }).port,
    connections: () => connections,
    async close() {
      for (const s of sockets) s.destroy();
      await new Promise((resolve) => server.close(resolve));
    },
  };
}
