import { describe, expect, it } from 'vitest';
import { eventId, type OutboxEntry, type StreamConfig, type WebhookOutbox } from '../src/index.ts';

const CONFIG: StreamConfig = { url: 'http://hooks.test/in', events: ['crawl.page', 'crawl.completed'], secret: 's'.repeat(16), payload: 'full' };
// Near the real clock: an ended stream is forgotten keepMs after `now`, by each backend's own clock.
const NOW = Date.now();
const page = (crawl: string, seq: number): OutboxEntry => ({ id: eventId(crawl, 'crawl.page', seq), type: 'crawl.page', seq, created_at: new Date(NOW).toISOString() });
const DAY = 86_400_000;
const OK = { http_status: 200, duration_ms: 12 };

/**
 * The outbox's rules, the same on every backend: run on the Kv outbox over both Kvs by outbox-conformance.test.ts,
 * on Redis by outbox-conformance.e2e.test.ts. Each `make` is a fresh, empty outbox.
 */
export function outboxConformance(backends: [string, () => WebhookOutbox][]): void {
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
      expect(await o.settle(first[0].token, { kind: 'delivered' }, OK)).toBeNull();
      expect(await o.settle(again[0].token, { kind: 'delivered' }, OK)).toBe(1);
      expect(await o.settle(again[0].token, { kind: 'delivered' }, OK)).toBeNull();
      // A retry comes due at its time, counted; giving up settles it as failed.
      expect(await o.settle(first[1].token, { kind: 'retry', reason: 'timeout', at: NOW + 5_000 }, OK)).toBe(1);
      expect(await o.claim(NOW + 4_999, 10, 1_000)).toEqual([]);
      const retried = await o.claim(NOW + 5_000, 10, 1_000);
      expect(retried.map((c) => c.attempt)).toEqual([2]);
      expect(await o.settle(retried[0].token, { kind: 'failed', reason: 'http_4xx' }, OK)).toBe(0);
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
      expect(await o.settle(c.token, { kind: 'delivered' }, OK)).toBe(0);
      expect((await o.state('crawl_c'))?.ended).toBe(true);
      expect(await o.stats('crawl_missing')).toBeNull();
    });

    it('keeps a delivery log: one record per event in queueing order, each attempt and outcome, paged, forgotten with the stream', async () => {
      const o = make();
      await o.open('crawl_d', CONFIG);
      expect(await o.deliveryLog('crawl_d', 0, 10)).toEqual({ records: [], events: 0, ended: false });
      const entries = [0, 1, 2].map((seq) => page('crawl_d', seq));
      await o.advance('crawl_d', { cursor: 0, started: false }, { cursor: 3, started: false, ended: false }, entries, NOW, DAY);
      // Queued again by a repeated pump: still one record.
      await o.advance('crawl_d', { cursor: 3, started: false }, { cursor: 3, started: true, ended: false }, [entries[2]], NOW, DAY);
      const queued = await o.deliveryLog('crawl_d', 0, 10);
      expect(queued?.events).toBe(3);
      expect(queued?.records[0]).toEqual({ ...entries[0], status: 'pending', attempts: 0, last_attempt_at: null, next_attempt_at: NOW, last_outcome: null });

      const claimed = await o.claim(NOW + 1, 10, 1_000);
      const token = (seq: number) => claimed.find((c) => c.entry.seq === seq)!.token;
      // In flight: the attempt has started, no outcome yet, nothing due.
      expect((await o.deliveryLog('crawl_d', 0, 1))?.records[0]).toMatchObject({ status: 'pending', attempts: 1, last_attempt_at: NOW + 1, next_attempt_at: null, last_outcome: null });
      await o.settle(token(0), { kind: 'retry', reason: 'http_5xx', at: NOW + 500 }, { http_status: 503, duration_ms: 7 });
      await o.settle(token(1), { kind: 'failed', reason: 'timeout' }, { http_status: null, duration_ms: 400 });
      await o.settle(token(2), { kind: 'delivered' }, { http_status: 204, duration_ms: 3.6 });
      const [second] = await o.claim(NOW + 500, 10, 1_000);
      await o.settle(second.token, { kind: 'delivered' }, OK);

      const log = await o.deliveryLog('crawl_d', 0, 10);
      expect(log?.records.map((r) => [r.id, r.status, r.attempts, r.next_attempt_at, r.last_outcome])).toEqual([
        [entries[0].id, 'delivered', 2, null, { reason: 'none', http_status: 200, duration_ms: 12 }],
        [entries[1].id, 'failed', 1, null, { reason: 'timeout', http_status: null, duration_ms: 400 }],
        [entries[2].id, 'delivered', 1, null, { reason: 'none', http_status: 204, duration_ms: 4 }],
      ]);
      expect(log?.records[0].last_attempt_at).toBe(NOW + 500);
      // Paged by position.
      expect((await o.deliveryLog('crawl_d', 1, 1))?.records.map((r) => r.id)).toEqual([entries[1].id]);
      expect((await o.deliveryLog('crawl_d', 3, 10))?.records).toEqual([]);
      expect(await o.deliveryLog('crawl_missing', 0, 10)).toBeNull();

      // Ended: the end's record joins the log, which is kept as long as the stream, then forgotten with it.
      const end: OutboxEntry = { id: eventId('crawl_d', 'crawl.completed', null), type: 'crawl.completed', seq: null, created_at: new Date(NOW).toISOString() };
      await o.advance('crawl_d', { cursor: 3, started: true }, { cursor: 3, started: true, ended: true }, [end], Date.now(), 300);
      const ended = await o.deliveryLog('crawl_d', 3, 10);
      expect(ended).toMatchObject({ events: 4, ended: true, records: [{ id: end.id, type: 'crawl.completed', seq: null, status: 'pending' }] });
      await new Promise((r) => setTimeout(r, 400));
      expect(await o.deliveryLog('crawl_d', 0, 10)).toBeNull();
    });
  });
}
