import { SILENT_LOG } from '@trawl/contract';
import { KvCrawlStore } from '@trawl/frontier';
import { describe, expect, it } from 'vitest';
import { createPageRunner } from '../src/worker/crawlee-adapter.ts';
import { HostScheduler } from '../src/worker/host-scheduler.ts';
import { pages, seedCrawl, settings } from './support.ts';
import { memoryKv } from '@trawl/test-support/backends.ts';

const sleep = (ms: number) => new Promise((r) => setTimeout(r, ms));

// Crawlee's pool runs here (it measures the process tree's memory with `ps`); the scheduler alone: idle-pool.test.ts.
describe('the page runner on an idle scheduler', () => {
  // Crawlee's pool used to look for a page every 20 ms: an idle worker woke 50 times a second for it.
  it('looks for a page on news, not on a poll: barely while idle, at once when a host is taken on', async () => {
    const crawls = new KvCrawlStore(memoryKv());
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
