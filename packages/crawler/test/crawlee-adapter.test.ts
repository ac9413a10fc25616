import { BasicCrawler } from '@crawlee/basic';
import { MemoryCrawlStore } from '@trawl/frontier';
import { describe, expect, it } from 'vitest';
import { attachRequestManager, createBasicCrawler, createPageRunner, SchedulerRequestManager } from '../src/worker/crawlee-adapter.ts';
import { HostScheduler } from '../src/worker/host-scheduler.ts';
import { pages, seedCrawl, settings } from './support.ts';

// Guards crawlee-adapter.ts's reliance on BasicCrawler internals: when one of these fails after a Crawlee
// upgrade, read the new BasicCrawler constructor and run() before changing anything else.
/** The fields BasicCrawler declares protected; read here only to check what attachRequestManager relies on. */
const internals = (c: BasicCrawler) => c as unknown as { requestManager: unknown; requestQueue: unknown };

describe('Crawlee adapter', () => {
  const s = settings({ concurrency: 2 });

  it('BasicCrawler still has the private fields attachRequestManager sets', () => {
    const crawler = createBasicCrawler(s, async () => undefined);
    expect(Object.keys(crawler), 'BasicCrawler no longer declares requestManager/requestQueue').toEqual(
      expect.arrayContaining(['requestManager', 'requestQueue']),
    );
    expect(internals(crawler).requestManager).toBeUndefined();
    const manager = new SchedulerRequestManager(new HostScheduler(new MemoryCrawlStore(), s));
    attachRequestManager(crawler, manager);
    expect(internals(crawler).requestManager).toBe(manager);
    expect(internals(crawler).requestQueue).toBe(manager);
  });

  it('BasicCrawler still rejects the documented requestManager option (if not, pass it and drop the assignment)', () => {
    const manager = new SchedulerRequestManager(new HostScheduler(new MemoryCrawlStore(), s));
    expect(() => new BasicCrawler({ requestManager: manager, requestHandler: async () => undefined })).toThrow(/requestManager/);
  });

  it("run() pulls pages from the attached scheduler and hands each page's lease token to the handler", async () => {
    const crawls = new MemoryCrawlStore();
    await seedCrawl(crawls, 'crawl_a', pages('h.test', 3));
    const scheduler = new HostScheduler(crawls, s);
    scheduler.addHost('h.test', 0).crawls = ['crawl_a'];
    const seen: string[] = [];
    const runner = createPageRunner(scheduler, s, async (token) => {
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
});
