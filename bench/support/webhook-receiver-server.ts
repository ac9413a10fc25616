import { createServer } from 'node:http';
import type { AddressInfo } from 'node:net';
import { startWebhookReceiver } from '@trawl/test-support/webhook-receiver.ts';

// A webhook receiver in its own process, so its answers wait on nothing of the crawler's. GET /report on the second
// port hands back, per event id, the first 2xx delivery: when it came, its type and the timestamps in its body.
const receiver = await startWebhookReceiver(() => ({ status: 204 }));
const report = createServer((_req, res) => {
  const first = new Map<string, { at: number; type: string; created_at: string; item_id: string | null; item_created_at: string | null }>();
  for (const h of receiver.received()) {
    if (h.status < 200 || h.status >= 300 || first.has(h.id)) continue;
    const body = JSON.parse(h.body);
    const item = h.type === 'crawl.page' ? body.data.item : null;
    first.set(h.id, { at: h.at, type: h.type, created_at: body.created_at, item_id: item?.id ?? null, item_created_at: item?.created_at ?? null });
  }
  res.writeHead(200, { 'content-type': 'application/json' });
  res.end(JSON.stringify({ deliveries: receiver.received().length, first: Object.fromEntries(first) }));
});
await new Promise<void>((resolve) => report.listen(0, '127.0.0.1', resolve));
process.stdout.write(`${JSON.stringify({ url: receiver.url, report: `http://127.0.0.1:${(report.address() as AddressInfo).port}/report` })}\n`);
process.on('SIGTERM', () => {
  report.close();
  receiver.close().then(() => process.exit(0));
});
