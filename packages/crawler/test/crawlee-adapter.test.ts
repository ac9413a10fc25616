import { BasicCrawler } from '@crawlee/basic';
import { log as crawleeLog } from '@crawlee/core';
import { SILENT_LOG, type Log } from '@trawl/contract';
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
      const runner = createPageRunner(new HostScheduler(new MemoryCrawlStore(), s), s, SILENT_LOG, async () => undefined);
      const running = runner.run();
      await new Promise((r) => setTimeout(r, delayMs));
      await runner.stop();
      const ended = await Promise.race([running.then(() => true), new Promise((r) => setTimeout(() => r(false), 10_000))]);
      expect(ended, `run() still going 10 s after a stop ${delayMs} ms into it`).toBe(true);
    }
  });

  it('hands what Crawlee still logs to the process log as one error line, its text as the err the process logger scrubs', () => {
    const seen: [Record<string, unknown>, string][] = [];
    const target: Log = { ...SILENT_LOG, error: (fields, msg) => void seen.push([fields, msg]) };
    createPageRunner(new HostScheduler(new MemoryCrawlStore(), s), s, target, async () => undefined);
    const boom = new Error('handler broke');
    crawleeLog.error('Request failed: http://site.test/private?token=1', { url: 'http://site.test/private' });
    crawleeLog.exception(boom, 'Request failed: http://site.test/private');
    expect(seen).toHaveLength(2);
    expect(seen[0]).toEqual([{ source: 'crawlee', err: 'Request failed: http://site.test/private?token=1' }, 'crawlee error']);
    expect(seen[1][1]).toBe('crawlee error');
    const err = seen[1][0].err as Error;
    expect(err).toBeInstanceOf(Error);
    expect([err.name, err.message]).toEqual(['Error', 'handler broke']);
    // Crawlee's copy of the stack (cut at its length limit): its frames, for the process logger to keep.
    expect(err.stack).toMatch(/^Error: handler broke\n\s+at .*crawlee-adapter\.test\.ts/);
  });
});
