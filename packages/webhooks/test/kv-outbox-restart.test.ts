import { mkdtempSync, rmSync } from 'node:fs';
import { tmpdir } from 'node:os';
import { join } from 'node:path';
import { expect, it } from 'vitest';
import { openKv } from '@trawl/kv';
import { KvWebhookOutbox, eventId } from '../src/index.ts';

it('embedded mode: a process killed mid-delivery loses nothing; after a restart the event is claimed again, same id', async () => {
  const dir = mkdtempSync(join(tmpdir(), 'trawl-outbox-'));
  try {
    const now = Date.now();
    let kv = openKv({ dir });
    let o = new KvWebhookOutbox(kv);
    await o.open('crawl_r', { url: 'http://hooks.test/', events: ['crawl.page'], secret: 's'.repeat(16), payload: 'thin' });
    const entry = { id: eventId('crawl_r', 'crawl.page', 0), type: 'crawl.page' as const, seq: 0, created_at: new Date(now).toISOString() };
    await o.advance('crawl_r', { cursor: 0, started: false }, { cursor: 1, started: false, ended: false }, [entry], now, 60_000);
    expect((await o.claim(now, 10, 1_000)).map((c) => c.attempt)).toEqual([1]);
    // The process dies holding the claim: nothing was settled.
    await kv.close();
    kv = openKv({ dir });
    o = new KvWebhookOutbox(kv);
    expect(await o.claim(now + 500, 10, 1_000)).toEqual([]);
    const again = await o.claim(now + 1_000, 10, 1_000);
    expect(again.map((c) => [c.entry.id, c.attempt])).toEqual([[entry.id, 2]]);
    expect(await o.settle(again[0].token, { kind: 'delivered' }, { http_status: 200, duration_ms: 5 })).toBe(0);
    // The delivery log tells the whole story: two attempts (the first died with its process), then delivered.
    expect((await o.deliveryLog('crawl_r', 0, 10))?.records).toEqual([
      { ...entry, status: 'delivered', attempts: 2, last_attempt_at: now + 1_000, next_attempt_at: null, last_outcome: { reason: 'none', http_status: 200, duration_ms: 5 } },
    ]);
    await kv.close();
  } finally {
    rmSync(dir, { recursive: true, force: true });
  }
});
