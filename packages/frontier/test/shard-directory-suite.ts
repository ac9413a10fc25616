import { describe, expect, it } from 'vitest';
import type { ShardDirectory, WorkerReport } from '../src/index.ts';

export /** Heartbeat TTL of the directories under test: a worker is lost after it, forgotten after 6 of them. */
const TTL = 1_000;

/** Two handles on one directory, as two processes would hold them (Redis: two connections). */
export type MakeDirectories = () => [ShardDirectory, ShardDirectory];

function report(over: Partial<WorkerReport> = {}): WorkerReport {
  return {
    host: 'box-1',
    pid: 4242,
    started_at: '2024-01-01T00:00:00.000Z',
    shards: 2,
    shard_hosts: ['a.test', 'b.test'],
    pages_in_flight: 3,
    pages_per_second: 1.5,
    ...over,
  };
}

/** The shard directory's rules: shard-directory-conformance.test.ts (Kv directory) and .e2e.test.ts (Redis). */
export function shardDirectoryConformance(backends: [string, MakeDirectories][]): void {
  describe.each(backends)('shard directory conformance: %s', (_name, make) => {
    it('gives a shard to one worker at a time, renews it for its owner only, and frees it on release', async () => {
      const [a, b] = make();
      await a.registerHost('a.test', 'crawl_1');
      expect(await b.shards()).toEqual(['a.test']);
      expect(await a.claimShard('a.test', 'w1', 10_000)).toBe(true);
      expect(await b.claimShard('a.test', 'w2', 10_000)).toBe(false);
      expect(await b.renewShards(['a.test'], 'w2', 10_000)).toEqual(['a.test']);
      expect(await a.renewShards(['a.test'], 'w1', 10_000)).toEqual([]);
      await b.releaseShard('a.test', 'w2'); // not the owner: no effect
      expect(await b.claimShard('a.test', 'w2', 10_000)).toBe(false);
      await a.releaseShard('a.test', 'w1');
      expect(await b.claimShard('a.test', 'w2', 10_000)).toBe(true);
      await a.unregisterCrawl('a.test', 'crawl_1');
      expect(await b.shards()).toEqual([]);
    });

    it('publishes each worker’s report with its heartbeat: live, then lost, then forgotten; leaving removes it at once', async () => {
      const [a, b] = make();
      const now = Date.now();
      await a.heartbeat('w1', now - 2 * TTL, report({ pid: 1 }));
      await a.heartbeat('w1', now, report({ pid: 1, pages_in_flight: 5 }));
      await b.heartbeat('w2', now - 2 * TTL, report({ pid: 2, shards: 0, shard_hosts: [] }));
      await b.heartbeat('w3', now, report({ pid: 3 }));
      const seen = await a.workers(now);
      expect(seen.map((w) => [w.id, w.state, w.pid]).sort()).toEqual([
        ['w1', 'live', 1],
        ['w2', 'lost', 2],
        ['w3', 'live', 3],
      ]);
      expect(seen.find((w) => w.id === 'w1')).toEqual({ id: 'w1', state: 'live', last_heartbeat: new Date(now).toISOString(), ...report({ pid: 1, pages_in_flight: 5 }) });
      expect(await b.liveWorkers(now)).toBe(2);
      await b.leave('w3');
      expect((await a.workers(now)).map((w) => w.id).sort()).toEqual(['w1', 'w2']);
      // Six TTLs without a heartbeat: forgotten.
      expect((await a.workers(now + 7 * TTL)).map((w) => w.id)).toEqual([]);
    });

    it('names the owner of each shard, none once its lease lapses or is released', async () => {
      const [a, b] = make();
      await a.claimShard('a.test', 'w1', 200);
      await b.claimShard('b.test', 'w2', 10_000);
      expect(await b.shardOwners(['a.test', 'b.test', 'c.test'])).toEqual(['w1', 'w2', null]);
      await b.releaseShard('b.test', 'w2');
      await new Promise((r) => setTimeout(r, 300));
      expect(await a.shardOwners(['a.test', 'b.test'])).toEqual([null, null]);
      expect(await a.shardOwners([])).toEqual([]);
    });

    it('shares host slow-downs, never moving one earlier', async () => {
      const [a, b] = make();
      const now = Date.now();
      await a.slowHost('slow.test', now + 5_000, now);
      await b.slowHost('slow.test', now + 1_000, now);
      expect(await b.slowUntil('slow.test')).toBe(now + 5_000);
      expect(await a.slowUntil('other.test')).toBe(0);
    });

    it('caches robots.txt bodies (an absent one too) until their time is up', async () => {
      const [a, b] = make();
      await a.setRobots('https://r.test', 'User-agent: *', 10_000);
      await a.setRobots('https://none.test', null, 10_000);
      await a.setRobots('https://brief.test', 'Disallow: /', 150);
      expect(await b.getRobots('https://r.test')).toBe('User-agent: *');
      expect(await b.getRobots('https://none.test')).toBeNull();
      expect(await b.getRobots('https://brief.test')).toBe('Disallow: /');
      expect(await b.getRobots('https://unknown.test')).toBeUndefined();
      await new Promise((r) => setTimeout(r, 250));
      expect(await b.getRobots('https://brief.test')).toBeUndefined();
    });

    it('keeps the active crawls and each host’s crawls, dropping a host from the shards with its last crawl', async () => {
      const [a, b] = make();
      await a.addActiveCrawl('crawl_1');
      await a.addActiveCrawl('crawl_2');
      await b.removeActiveCrawl('crawl_1');
      expect(await b.activeCrawls()).toEqual(['crawl_2']);
      await a.registerHost('h.test', 'crawl_1');
      await b.registerHost('h.test', 'crawl_2');
      expect((await b.crawlsOf('h.test')).sort()).toEqual(['crawl_1', 'crawl_2']);
      await b.unregisterCrawl('h.test', 'crawl_1');
      expect(await a.crawlsOf('h.test')).toEqual(['crawl_2']);
      expect(await a.shards()).toEqual(['h.test']);
      await a.unregisterCrawl('h.test', 'crawl_2');
      expect(await b.shards()).toEqual([]);
      expect(await b.crawlsOf('h.test')).toEqual([]);
    });

    it('delivers an announcement of work to every watcher, and none after it stops watching', async () => {
      const [a, b] = make();
      let seenByB = 0;
      let seenByA = 0;
      const stopB = await b.watchWork(() => seenByB++);
      const stopA = await a.watchWork(() => seenByA++);
      await a.announceWork();
      await expect.poll(() => seenByB, { timeout: 2_000 }).toBe(1);
      await expect.poll(() => seenByA, { timeout: 2_000 }).toBe(1);
      await stopB();
      await a.announceWork();
      await expect.poll(() => seenByA, { timeout: 2_000 }).toBe(2);
      expect(seenByB).toBe(1);
      await stopA();
    });
  });
}
