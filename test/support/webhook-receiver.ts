import { createServer, type IncomingMessage, type ServerResponse } from 'node:http';
import type { AddressInfo, Socket } from 'node:net';

/** One request the receiver saw: when, the event's headers, the raw body (signatures are checked on it) and the answer. */
export interface ReceivedHook {
  at: number;
  id: string;
  type: string;
  attempt: number;
  signature: string;
  body: string;
  /** The status answered, or 0 when the receiver never answered (a hang the sender timed out on). */
  status: number;
}

/** How the receiver answers one attempt: a status after a delay, or never (`hang`). */
export type HookAnswer = { status: number; delayMs?: number } | 'hang';

export interface WebhookReceiver {
  /** `http://127.0.0.1:<port>/hooks` */
  url: string;
  received(): ReceivedHook[];
  /** Distinct event ids answered 2xx (what a deduplicating receiver keeps). */
  accepted(): Set<string>;
  close(): Promise<void>;
}

/**
 * A local webhook endpoint for tests and the benchmark: records every delivery and answers as `answer` says, so it
 * can fail (5xx, 4xx), time out (hang) or answer slowly, per event and attempt.
 */
export async function startWebhookReceiver(answer: (hook: ReceivedHook) => HookAnswer = () => ({ status: 204 })): Promise<WebhookReceiver> {
  const log: ReceivedHook[] = [];
  const sockets = new Set<Socket>();
  const timers = new Set<NodeJS.Timeout>();
  const server = createServer((req: IncomingMessage, res: ServerResponse) => {
    const chunks: Buffer[] = [];
    req.on('data', (c: Buffer) => chunks.push(c));
    req.on('end', () => {
      const header = (name: string) => String(req.headers[name] ?? '');
      const hook: ReceivedHook = {
        at: Date.now(),
        id: header('trawl-event-id'),
        type: header('trawl-event'),
        attempt: Number(header('trawl-delivery-attempt')),
        signature: header('trawl-signature'),
        body: Buffer.concat(chunks).toString('utf8'),
        status: 0,
      };
      log.push(hook);
      const a = answer(hook);
      if (a === 'hang') return;
      const send = () => {
        hook.status = a.status;
        res.writeHead(a.status, { 'content-type': 'text/plain' });
        res.end('ok\n');
      };
      if (!a.delayMs) return send();
      const t = setTimeout(() => {
        timers.delete(t);
        send();
      }, a.delayMs);
      timers.add(t);
    });
  });
  server.on('connection', (s: Socket) => {
    sockets.add(s);
    s.on('close', () => sockets.delete(s));
  });
  await new Promise<void>((resolve) => server.listen(0, '127.0.0.1', resolve));
  const port = (server.address() as AddressInfo).port;
  return {
    url: `http://127.0.0.1:${port}/hooks`,
    received: () => [...log],
    accepted: () => new Set(log.filter((h) => h.status >= 200 && h.status < 300).map((h) => h.id)),
    async close() {
      for (const t of timers) clearTimeout(t);
      for (const s of sockets) s.destroy();
      await new Promise<void>((resolve) => server.close(() => resolve()));
    },
  };
}
