import { BasicCrawler } from '@crawlee/basic';
import { log as crawleeLog } from '@crawlee/core';
import { SILENT_LOG, type Log } from '@trawl/contract';
import { KvCrawlStore } from '@trawl/frontier';
import { describe, expect, it } from 'vitest';
import { attachRequestManager, createBasicCrawler, createPageRunner, SchedulerRequestManager } from '../src/worker/crawlee-adapter.ts';
import { HostScheduler } from '../src/worker/host-scheduler.ts';
import { settings } from './support.ts';
import { memoryKv } from '@trawl/test-support/backends.ts';

// Guards crawlee-adapter.ts's reliance on BasicCrawler internals: when one of these fails after a Crawlee
// upgrade, read the new BasicCrawler constructor and run() before changing anything else. run() itself, which
// starts `ps` for Crawlee's autoscaled pool: crawlee-adapter.e2e.test.ts.
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
    const manager = new SchedulerRequestManager(new HostScheduler(new KvCrawlStore(memoryKv()), s));
    attachRequestManager(crawler, manager);
    expect(internals(crawler).requestManager).toBe(manager);
    expect(internals(crawler).requestQueue).toBe(manager);
  });

  it('BasicCrawler still rejects the documented requestManager option (if not, pass it and drop the assignment)', () => {
    const manager = new SchedulerRequestManager(new HostScheduler(new KvCrawlStore(memoryKv()), s));
    expect(() => new BasicCrawler({ requestManager: manager, requestHandler: async () => undefined })).toThrow(/requestManager/);
  });

  it('hands what Crawlee still logs to the process log as one error line, its text as the err the process logger scrubs', () => {
    const seen: [Record<string, unknown>, string][] = [];
    const target: Log = { ...SILENT_LOG, error: (fields, msg) => void seen.push([fields, msg]) };
    createPageRunner(new HostScheduler(new KvCrawlStore(memoryKv()), s), s, target, async () => undefined);
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
