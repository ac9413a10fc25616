import { mkdtempSync, rmSync } from 'node:fs';
import { tmpdir } from 'node:os';
import { join } from 'node:path';
import { expect, it } from 'vitest';
import { openKv, openMemoryKv } from '@trawl/kv';
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

it('an ended stream forgets its delivery log without rewriting it: the sweep deletes every record once the stream is due', async () => {
  let t = Date.now();
  const kv = openMemoryKv({ now: () => t });
  const o = new KvWebhookOutbox(kv);
  await o.open('crawl_l', { url: 'http://hooks.test/', events: ['crawl.page'], secret: 's'.repeat(16), payload: 'thin' });
  const entries = Array.from({ length: 5 }, (_, seq) => ({ id: eventId('crawl_l', 'crawl.page', seq), type: 'crawl.page' as const, seq, created_at: new Date(t).toISOString() }));
  await o.advance('crawl_l', { cursor: 0, started: false }, { cursor: 5, started: false, ended: true }, entries, t, 1_000);
  const logKeys = () => kv.transact((tx) => [...tx.range({ prefix: 'w:l:crawl_l:' })].length);
  expect(logKeys()).toBe(5);
  // No record carries an expiry of its own: the log goes with its prefix.
  expect(kv.transact((tx) => [...tx.range({ prefix: 'w:l:crawl_l:' })].map((e) => tx.expiresAt(e.key)))).toEqual([null, null, null, null, null]);
  t += 1_000;
  expect(await o.deliveryLog('crawl_l', 0, 10)).toBeNull();
  kv.sweepExpired(1_000);
  expect(logKeys()).toBe(0);
});
