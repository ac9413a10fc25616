import { describe, expect, it } from 'vitest';
import { randomPrefix, useRedis } from '@trawl/test-support/redis-server.ts';
import { useTempKvs } from '@trawl/test-support/temp-kv.ts';
import { DiskWebhookOutbox, eventId, MemoryWebhookOutbox, RedisWebhookOutbox, type OutboxEntry, type StreamConfig, type WebhookOutbox } from '../src/index.ts';

const redis = useRedis();
const kvs = useTempKvs();

const backends: [string, () => WebhookOutbox][] = [
  ['memory', () => new MemoryWebhookOutbox()],
  ['redis', () => new RedisWebhookOutbox(redis.conn, randomPrefix())],
  ['disk', () => new DiskWebhookOutbox(kvs.open(), randomPrefix())],
];
const CONFIG: StreamConfig = { url: 'http://hooks.test/in', events: ['crawl.page', 'crawl.completed'], secret: 's'.repeat(16), payload: 'full' };
// Near the real clock: an ended stream is forgotten keepMs after `now`, by each backend's own clock.
const NOW = Date.now();
const page = (crawl: string, seq: number): OutboxEntry => ({ id: eventId(crawl, 'crawl.page', seq), type: 'crawl.page', seq, created_at: new Date(NOW).toISOString() });
const DAY = 86_400_000;

describe.each(backends)('webhook outbox conformance: %s', (_name, make) => {
  it('advances by compare and set, queueing each event once', async () => {
    const o = make();
    await o.open('crawl_a', CONFIG);
    await expect(o.open('crawl_a', CONFIG)).rejects.toThrow();
    expect(await o.state('crawl_a')).toEqual({ cursor: 0, started: false, ended: false, pending: 0 });
    expect(await o.advance('crawl_a', { cursor: 0, started: false }, { cursor: 2, started: true, ended: false }, [page('crawl_a', 0), page('crawl_a', 1)], NOW, DAY)).toBe(true);
    // A second pump that read the old position writes nothing.
    expect(await o.advance('crawl_a', { cursor: 0, started: false }, { cursor: 2, started: true, ended: false }, [page('crawl_a', 0), page('crawl_a', 1)], NOW, DAY)).toBe(false);
    // The same event id queued again (a pump repeated after a crash) is not a second event.
    expect(await o.advance('crawl_a', { cursor: 2, started: true }, { cursor: 3, started: true, ended: false }, [page('crawl_a', 1), page('crawl_a', 2)], NOW, DAY)).toBe(true);
    expect(await o.state('crawl_a')).toEqual({ cursor: 3, started: true, ended: false, pending: 3 });
    expect(await o.openStreams(10)).toEqual(['crawl_a']);
    expect(await o.advance('crawl_missing', { cursor: 0, started: false }, { cursor: 1, started: false, ended: false }, [], NOW, DAY)).toBe(false);
  });

  it('claims due deliveries under a lease; a lapsed lease is claimed again with the next attempt, and the old claim settles nothing', async () => {
    const o = make();
    await o.open('crawl_b', CONFIG);
    await o.advance('crawl_b', { cursor: 0, started: false }, { cursor: 2, started: false, ended: false }, [page('crawl_b', 0), page('crawl_b', 1)], NOW, DAY);
    const first = await o.claim(NOW, 10, 1_000);
    expect(first.map((c) => [c.entry.id, c.attempt, c.entry.seq])).toEqual([
      [eventId('crawl_b', 'crawl.page', 0), 1, 0],
      [eventId('crawl_b', 'crawl.page', 1), 1, 1],
    ]);
    expect(first[0]).toMatchObject({ crawl_id: 'crawl_b', config: CONFIG, entry: { type: 'crawl.page' } });
    expect(await o.claim(NOW + 999, 10, 1_000)).toEqual([]);
    const again = await o.claim(NOW + 1_000, 1, 1_000);
    expect(again.map((c) => c.attempt)).toEqual([2]);
    expect(await o.settle(first[0].token, { kind: 'delivered' })).toBeNull();
    expect(await o.settle(again[0].token, { kind: 'delivered' })).toBe(1);
    expect(await o.settle(again[0].token, { kind: 'delivered' })).toBeNull();
    // A retry comes due at its time, counted; giving up settles it as failed.
    expect(await o.settle(first[1].token, { kind: 'retry', reason: 'timeout', at: NOW + 5_000 })).toBe(1);
    expect(await o.claim(NOW + 4_999, 10, 1_000)).toEqual([]);
    const retried = await o.claim(NOW + 5_000, 10, 1_000);
    expect(retried.map((c) => c.attempt)).toEqual([2]);
    expect(await o.settle(retried[0].token, { kind: 'failed', reason: 'http_4xx' })).toBe(0);
    expect(await o.stats('crawl_b')).toEqual({ events: 2, delivered: 1, failed: 1, pending: 0, retries: 1, failure_reasons: { timeout: 1, http_4xx: 1 } });
    expect(await o.claim(NOW + DAY, 10, 1_000)).toEqual([]);
  });

  it('an ended stream leaves the open list; its deliveries still go out until it is forgotten', async () => {
    const o = make();
    await o.open('crawl_c', CONFIG);
    const end: OutboxEntry = { id: eventId('crawl_c', 'crawl.completed', null), type: 'crawl.completed', seq: null, created_at: new Date(NOW).toISOString() };
    expect(await o.advance('crawl_c', { cursor: 0, started: false }, { cursor: 0, started: true, ended: true }, [end], NOW, DAY)).toBe(true);
    expect(await o.openStreams(10)).toEqual([]);
    expect(await o.advance('crawl_c', { cursor: 0, started: true }, { cursor: 0, started: true, ended: true }, [], NOW, DAY)).toBe(false);
    const [c] = await o.claim(NOW, 10, 1_000);
    expect(c.entry).toEqual(end);
    expect(await o.settle(c.token, { kind: 'delivered' })).toBe(0);
    expect((await o.state('crawl_c'))?.ended).toBe(true);
    expect(await o.stats('crawl_missing')).toBeNull();
  });
});
