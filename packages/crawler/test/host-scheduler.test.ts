import { KvCrawlStore, type CrawlStore, type Lease, type LeaseBatch } from '@trawl/frontier';
import { afterEach, describe, expect, it, vi } from 'vitest';
import { HostScheduler } from '../src/worker/host-scheduler.ts';
import { pages, seedCrawl, settings } from './support.ts';
import { memoryKv } from '@trawl/test-support/backends.ts';

/** A scheduler owning `hosts`, each serving `crawlIds` (what the shard keeper sets at a heartbeat). */
function scheduler(
  crawls: CrawlStore,
  hosts: string[],
  crawlIds: string[],
  hostConcurrency = 1,
  onError: (err: unknown) => void = () => undefined,
) {
  const s = new HostScheduler(crawls, settings({ hostConcurrency }), onError);
  for (const h of hosts) s.addHost(h, 0).crawls = [...crawlIds];
  return s;
}

async function drain(s: HostScheduler, n: number): Promise<string[]> {
  const out: string[] = [];
  for (let i = 0; i < n; i++) {
    const h = await s.next();
    if (!h) break;
    out.push(`${h.crawlId} ${h.lease.request.url}`);
    s.markHandled(h.lease.token);
  }
  return out;
}

afterEach(() => {
  vi.useRealTimers();
});

describe('HostScheduler', () => {
  it('takes pages round-robin across hosts', async () => {
    const crawls = new KvCrawlStore(memoryKv());
    await seedCrawl(crawls, 'crawl_a', [...pages('a.test', 2), ...pages('b.test', 2)]);
    const s = scheduler(crawls, ['a.test', 'b.test'], ['crawl_a']);
    const host = (h: { lease: Lease } | null) => (h ? h.lease.request.host : null);
    // One in flight per host: a, then b, then nothing until one ends.
    const [a, b] = [await s.next(), await s.next()];
    expect([host(a), host(b), host(await s.next())]).toEqual(['a.test', 'b.test', null]);
    s.markHandled(a!.lease.token);
    s.markHandled(b!.lease.token);
    // Both hosts now have a buffered page: the turn goes on from where it stopped.
    const hosts = (await drain(s, 2)).map((l) => new URL(l.split(' ')[1]).host);
    expect(hosts).toEqual(['a.test', 'b.test']);
  });

  it('leases one lease batch per refill and alternates crawls sharing a host', async () => {
    const crawls = new KvCrawlStore(memoryKv());
    await seedCrawl(crawls, 'crawl_a', pages('h.test', 8));
    await seedCrawl(crawls, 'crawl_b', pages('h.test', 8, 100));
    const s = scheduler(crawls, ['h.test'], ['crawl_a', 'crawl_b']);
    // Buffer: 4 leases per host per unit of host concurrency, from one crawl per refill.
    const order = (await drain(s, 16)).map((l) => l.split(' ')[0].slice(-1));
    expect(order.join('')).toBe('aaaabbbbaaaabbbb');
  });

  it('buffers up to 4 × hostConcurrency leases per host and never exceeds hostConcurrency in flight', async () => {
    const crawls = new KvCrawlStore(memoryKv());
    await seedCrawl(crawls, 'crawl_a', pages('h.test', 20));
    const s = scheduler(crawls, ['h.test'], ['crawl_a'], 2);
    const a = await s.next();
    const b = await s.next();
    expect(a && b).toBeTruthy();
    expect(await s.next()).toBeNull();
    expect(s.isEmpty()).toBe(true);
    expect(s.pendingCount()).toBe(6);
    expect((await crawls.getCrawl('crawl_a'))!.counters.in_flight).toBe(8);
    expect(s.totalCount()).toBe(2);
    s.markHandled(a!.lease.token);
    expect(s.isEmpty()).toBe(false);
    expect(s.handledCount()).toBe(1);
    expect(s.heldLease(b!.lease.token)?.crawlId).toBe('crawl_a');
    expect(s.heldLease(a!.lease.token)).toBeUndefined();
  });

  it('waits out a slowed host', async () => {
    const crawls = new KvCrawlStore(memoryKv());
    await seedCrawl(crawls, 'crawl_a', pages('h.test', 2));
    const s = new HostScheduler(crawls, settings({ hostConcurrency: 1 }));
    s.addHost('h.test', Date.now() + 60_000).crawls = ['crawl_a'];
    expect(await s.next()).toBeNull();
    expect(s.isEmpty()).toBe(true);
  });

  it('gives buffered leases back on dropHost; in-flight ones stay held', async () => {
    const crawls = new KvCrawlStore(memoryKv());
    await seedCrawl(crawls, 'crawl_a', pages('h.test', 10));
    const s = scheduler(crawls, ['h.test'], ['crawl_a']);
    const h = await s.next();
    expect((await crawls.getCrawl('crawl_a'))!.counters.in_flight).toBe(4);
    await s.dropHost('h.test');
    const c = (await crawls.getCrawl('crawl_a'))!.counters;
    expect([c.in_flight, c.queued]).toEqual([1, 9]);
    expect(s.ownedHosts()).toEqual([]);
    expect(s.pendingCount()).toBe(0);
    expect(s.heldLease(h!.lease.token)).toBeDefined();
  });

  it('gives back buffered leases of crawls found paused or ended', async () => {
    const crawls = new KvCrawlStore(memoryKv());
    await seedCrawl(crawls, 'crawl_a', pages('h.test', 10));
    const s = scheduler(crawls, ['h.test'], ['crawl_a']);
    await s.next();
    await s.setIdleCrawls(new Set(['crawl_a']));
    expect(s.pendingCount()).toBe(0);
    expect((await crawls.getCrawl('crawl_a'))!.counters.in_flight).toBe(1);
  });

  it('reports buffered and in-flight tokens for renewal, and forgets lost ones', async () => {
    const crawls = new KvCrawlStore(memoryKv());
    await seedCrawl(crawls, 'crawl_a', pages('h.test', 10));
    const s = scheduler(crawls, ['h.test'], ['crawl_a']);
    const h = await s.next();
    const tokens = s.tokensByCrawl().get('crawl_a')!;
    expect(tokens).toHaveLength(4);
    expect(tokens).toContain(h!.lease.token);
    s.forgetTokens(new Set(tokens.filter((t) => t !== h!.lease.token)));
    expect(s.tokensByCrawl().get('crawl_a')).toEqual([h!.lease.token]);
  });

  it('reclaims a page whose handler broke as an internal retry', async () => {
    const crawls = new KvCrawlStore(memoryKv());
    await seedCrawl(crawls, 'crawl_a', pages('h.test', 1));
    const s = scheduler(crawls, ['h.test'], ['crawl_a']);
    const h = await s.next();
    await s.reclaim(h!.lease.token);
    const c = (await crawls.getCrawl('crawl_a'))!.counters;
    expect([c.queued, c.in_flight, c.retry_categories.internal]).toEqual([1, 0, 1]);
    expect(s.totalCount()).toBe(0);
  });

  it('backs off a host whose queues are empty, and wakes it on admitted links', async () => {
    vi.useFakeTimers({ toFake: ['Date'] });
    vi.setSystemTime(1_000_000);
    const crawls = new KvCrawlStore(memoryKv());
    await seedCrawl(crawls, 'crawl_a', pages('other.test', 1));
    const s = scheduler(crawls, ['h.test'], ['crawl_a']);
    const waits: number[] = [];
    for (let i = 0; i < 7; i++) {
      expect(await s.next()).toBeNull();
      waits.push(s.slot('h.test')!.nextRefillAt - Date.now());
      vi.setSystemTime(s.slot('h.test')!.nextRefillAt);
    }
    expect(waits).toEqual([20, 50, 100, 200, 400, 800, 800]);
    vi.setSystemTime(Date.now() - 1);
    expect(s.isEmpty()).toBe(true);
    s.wakeHost('h.test');
    expect(s.isEmpty()).toBe(false);
  });

  it('a host with a page running, or whose last lease emptied its queue, asks again after 200 ms (its pages wake it)', async () => {
    vi.useFakeTimers({ toFake: ['Date'] });
    vi.setSystemTime(1_000_000);
    const crawls = new KvCrawlStore(memoryKv());
    await seedCrawl(crawls, 'crawl_a', pages('h.test', 2));
    const lease = vi.spyOn(crawls, 'lease');
    const s = scheduler(crawls, ['h.test'], ['crawl_a'], 2);
    const first = await s.next();
    // The lease took both queued pages (it asked for 8): the queue is empty, so no ask until 200 ms on.
    expect(lease).toHaveBeenCalledTimes(1);
    expect(s.slot('h.test')!.nextRefillAt - Date.now()).toBe(200);
    const second = await s.next();
    expect([first, second].every((h) => h !== null)).toBe(true);
    expect(await s.next()).toBeNull();
    expect(lease).toHaveBeenCalledTimes(1);
    vi.setSystemTime(1_000_200);
    s.markHandled(first!.lease.token);
    // Asked again and found nothing with a page still running: 200 ms again, not the idle backoff's first step.
    expect(await s.next()).toBeNull();
    expect(lease).toHaveBeenCalledTimes(2);
    expect(s.slot('h.test')!.nextRefillAt - Date.now()).toBe(200);
    // Links this worker admitted to the host wake it at once.
    s.wakeHost('h.test');
    expect(s.isEmpty()).toBe(false);
  });

  it('does not ask for pages of a crawl seen paused or ended, and asks at once when it may run again', async () => {
    const crawls = new KvCrawlStore(memoryKv());
    await seedCrawl(crawls, 'crawl_a', pages('h.test', 2));
    const lease = vi.spyOn(crawls, 'lease');
    const s = scheduler(crawls, ['h.test'], ['crawl_a']);
    await s.setIdleCrawls(new Set(['crawl_a']));
    expect(await s.next()).toBeNull();
    expect(lease).not.toHaveBeenCalled();
    await s.setIdleCrawls(new Set());
    expect(s.slot('h.test')!.nextRefillAt).toBe(0);
    expect(await s.next()).not.toBeNull();
    expect(lease).toHaveBeenCalledTimes(1);
  });

  it('asks again 500 ms after the store failed, without throwing', async () => {
    vi.useFakeTimers({ toFake: ['Date'] });
    vi.setSystemTime(1_000_000);
    const crawls = new KvCrawlStore(memoryKv());
    await seedCrawl(crawls, 'crawl_a', pages('h.test', 2));
    const lease = vi.spyOn(crawls, 'lease').mockRejectedValueOnce(new Error('store down'));
    const errors: unknown[] = [];
    const s = scheduler(crawls, ['h.test'], ['crawl_a'], 1, (e: unknown) => void errors.push(e));
    expect(await s.next()).toBeNull();
    expect(errors).toHaveLength(1);
    vi.setSystemTime(1_000_499);
    expect(await s.next()).toBeNull();
    expect(lease).toHaveBeenCalledTimes(1);
    vi.setSystemTime(1_000_500);
    expect(await s.next()).not.toBeNull();
  });

  it('keeps going when the store cannot take a lease back (the lease lapses instead)', async () => {
    const crawls = new KvCrawlStore(memoryKv());
    await seedCrawl(crawls, 'crawl_a', pages('h.test', 4));
    const errors: unknown[] = [];
    const s = scheduler(crawls, ['h.test'], ['crawl_a'], 1, (e: unknown) => void errors.push(e));
    await s.next();
    vi.spyOn(crawls, 'requeue').mockRejectedValue(new Error('store down'));
    await s.dropHost('h.test');
    expect(errors).toHaveLength(3);
  });

  it('hands leases straight back when the host was dropped during the lease call', async () => {
    const crawls = new KvCrawlStore(memoryKv());
    await seedCrawl(crawls, 'crawl_a', pages('h.test', 3));
    const real = crawls.lease.bind(crawls);
    let release!: () => void;
    const gate = new Promise<void>((r) => (release = r));
    vi.spyOn(crawls, 'lease').mockImplementation(async (...args): Promise<LeaseBatch> => {
      await gate;
      return real(...args);
    });
    const s = scheduler(crawls, ['h.test'], ['crawl_a']);
    const pending = s.next();
    await s.dropHost('h.test');
    release();
    expect(await pending).toBeNull();
    const c = (await crawls.getCrawl('crawl_a'))!.counters;
    expect([c.queued, c.in_flight]).toEqual([3, 0]);
  });
});
