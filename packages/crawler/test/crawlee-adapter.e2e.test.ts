import { SILENT_LOG } from '@trawl/contract';
import { KvCrawlStore } from '@trawl/frontier';
import { describe, expect, it } from 'vitest';
import { createPageRunner } from '../src/worker/crawlee-adapter.ts';
import { HostScheduler } from '../src/worker/host-scheduler.ts';
import { pages, seedCrawl, settings } from './support.ts';
import { memoryKv } from '@trawl/test-support/backends.ts';

// Crawlee's run(), whose autoscaled pool measures the process tree's memory with `ps`: the adapter's other checks are
// in crawlee-adapter.test.ts.
describe('Crawlee adapter', () => {
  const s = settings({ concurrency: 2 });

  it("run() pulls pages from the attached scheduler and hands each page's lease token to the handler", async () => {
    const crawls = new KvCrawlStore(memoryKv());
    await seedCrawl(crawls, 'crawl_a', pages('h.test', 3));
    const scheduler = new HostScheduler(crawls, s);
    scheduler.addHost('h.test', 0).crawls = ['crawl_a'];
    const seen: string[] = [];
    const runner = createPageRunner(scheduler, s, SILENT_LOG, async (token) => {
      const held = scheduler.heldLease(token);
      seen.push(held ? held.lease.request.url : `unknown ${token}`);
    });
    const running = runner.run();
    try {
      const deadline = Date.now() + 15_000;
      while (scheduler.handledCount() < 3 && Date.now() < deadline) await new Promise((r) => setTimeout(r, 20));
    } finally {
      await runner.stop();
      await running;
    }
    expect(seen.sort()).toEqual(pages('h.test', 3));
    // Every page went back through markRequestHandled: nothing is left held.
    expect([scheduler.handledCount(), scheduler.totalCount()]).toEqual([3, 3]);
  });

  it('stop() ends run() whenever it comes, even before Crawlee has started its pool (an abort then is forgotten)', async () => {
    for (const delayMs of [0, 1, 5, 20, 100]) {
      const runner = createPageRunner(new HostScheduler(new KvCrawlStore(memoryKv()), s), s, SILENT_LOG, async () => undefined);
      const running = runner.run();
      await new Promise((r) => setTimeout(r, delayMs));
      await runner.stop();
      const ended = await Promise.race([running.then(() => true), new Promise((r) => setTimeout(() => r(false), 10_000))]);
      expect(ended, `run() still going 10 s after a stop ${delayMs} ms into it`).toBe(true);
    }
  });
});
