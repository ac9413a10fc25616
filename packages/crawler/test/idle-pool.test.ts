import { KvCrawlStore } from '@trawl/frontier';
import { describe, expect, it } from 'vitest';
import { HostScheduler } from '../src/worker/host-scheduler.ts';
import { pages, seedCrawl, settings } from './support.ts';
import { memoryKv } from '@trawl/test-support/backends.ts';

describe('HostScheduler.nextReadyAt: when a host may have a page with no news from outside', () => {
  it('is null with nothing to wait for: no host, a host serving no crawl, a host at its concurrency', async () => {
    const crawls = new KvCrawlStore(memoryKv());
    const s = new HostScheduler(crawls, settings({ hostConcurrency: 1 }));
    expect(s.nextReadyAt()).toBeNull();
    s.addHost('h.test', 0);
    expect(s.nextReadyAt()).toBeNull();
    await seedCrawl(crawls, 'crawl_a', pages('h.test', 2));
    s.slot('h.test')!.crawls = ['crawl_a'];
    expect(s.nextReadyAt()).toBe(0);
    expect(await s.next()).not.toBeNull();
    // One page in flight, the host's concurrency: that page ending is what frees it.
    expect(s.nextReadyAt()).toBeNull();
  });

  it('is when an empty queue backoff or a politeness pause runs out', async () => {
    const crawls = new KvCrawlStore(memoryKv());
    await seedCrawl(crawls, 'crawl_a', pages('other.test', 1));
    const s = new HostScheduler(crawls, settings());
    s.addHost('h.test', 0).crawls = ['crawl_a'];
    expect(await s.next()).toBeNull();
    const slot = s.slot('h.test')!;
    expect(slot.nextRefillAt).toBeGreaterThan(Date.now() - 1);
    expect(s.nextReadyAt()).toBe(slot.nextRefillAt);
    slot.slowUntil = slot.nextRefillAt + 5_000;
    expect(s.nextReadyAt()).toBe(slot.slowUntil);
  });

  it('tells its listener when a host is taken on or woken', () => {
    const s = new HostScheduler(new KvCrawlStore(memoryKv()), settings());
    let told = 0;
    s.onReady(() => told++);
    s.addHost('h.test', 0);
    s.addHost('h.test', 0);
    s.wakeHost('h.test');
    s.wakeHost('unknown.test');
    s.wake();
    expect(told).toBe(3);
  });
});
