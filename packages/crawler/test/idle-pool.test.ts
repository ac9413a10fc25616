import { SILENT_LOG } from '@trawl/contract';
import { MemoryCrawlStore } from '@trawl/frontier';
import { describe, expect, it } from 'vitest';
import { createPageRunner } from '../src/worker/crawlee-adapter.ts';
import { HostScheduler } from '../src/worker/host-scheduler.ts';
import { pages, seedCrawl, settings } from './support.ts';

const sleep = (ms: number) => new Promise((r) => setTimeout(r, ms));

describe('HostScheduler.nextReadyAt: when a host may have a page with no news from outside', () => {
  it('is null with nothing to wait for: no host, a host serving no crawl, a host at its concurrency', async () => {
    const crawls = new MemoryCrawlStore();
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
    const crawls = new MemoryCrawlStore();
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
    const s = new HostScheduler(new MemoryCrawlStore(), settings());
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

describe('the page runner on an idle scheduler', () => {
  // Crawlee's pool used to look for a page every 20 ms: an idle worker woke 50 times a second for it.
  it('looks for a page on news, not on a poll: barely while idle, at once when a host is taken on', async () => {
    const crawls = new MemoryCrawlStore();
    await seedCrawl(crawls, 'crawl_a', pages('h.test', 3));
    const scheduler = new HostScheduler(crawls, settings({ concurrency: 2 }));
    let looks = 0;
    const isEmpty = scheduler.isEmpty.bind(scheduler);
    scheduler.isEmpty = () => {
      looks++;
      return isEmpty();
    };
    // Crawlee marks each page handled through the adapter.
    const runner = createPageRunner(scheduler, settings({ concurrency: 2 }), SILENT_LOG, async () => undefined);
    const running = runner.run();
    try {
      await sleep(300);
      const before = looks;
      await sleep(2_000);
      // The pool's safety look once a second, nothing else.
      expect(looks - before).toBeLessThanOrEqual(4);
      // Taken on as the shard keeper does it: the host, then its crawls.
      scheduler.addHost('h.test', 0).crawls = ['crawl_a'];
      scheduler.wakeHost('h.test');
      const deadline = Date.now() + 10_000;
      while (scheduler.handledCount() < 3 && Date.now() < deadline) await sleep(10);
      expect(scheduler.handledCount()).toBe(3);
    } finally {
      await runner.stop();
      await running;
    }
  });
});
