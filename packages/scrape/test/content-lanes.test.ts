import { afterAll, beforeAll, describe, expect, it } from 'vitest';
import { randomBytes } from 'node:crypto';
import { DEFAULT_CONTENT_LIMITS, UnsupportedContentTypeError } from '@trawl/content';
import { laneContentProcessor } from '../src/content-lanes.ts';
import { ContentTimeoutError, defaultContentThreads } from '../src/index.ts';

// With no depth limit, 500,000 nested elements take seconds of a thread's time (300,000 took about 1.5 s on this
// 2-core machine): with a deadline of 500 ms, a page that never finishes in time.
const UNBOUNDED = { ...DEFAULT_CONTENT_LIMITS, maxDepth: 100_000_000 };
const deep = Buffer.from(`<html><body>${'<div>'.repeat(500_000)}x${'</div>'.repeat(500_000)}</body></html>`);
const ordinary = (n: number) =>
  Buffer.from(`<html><head><title>Page ${n}</title></head><body><main><p>${'Tidal energy in small harbours. '.repeat(40)}</p></main></body></html>`);
const input = (body: Buffer, deadline?: number) => ({ body, contentType: 'text/html', url: 'http://site.test/', deadline });

describe('content lanes', () => {
  const pool = laneContentProcessor({ threads: 1, slowThreads: 1, slowBytes: 1_000_000, limits: UNBOUNDED, threadHeapMb: 512 });
  // Both lanes' threads booted before anything is timed (a boot takes seconds on a busy machine; the slow lane
  // starts with its first large page).
  beforeAll(() => Promise.all([pool.normalize(input(ordinary(0))), pool.normalize(input(Buffer.concat([ordinary(0), Buffer.alloc(1_000_000, ' ')])))]));
  afterAll(() => pool.close());

  it('stops a page at its deadline, and ordinary pages keep flowing meanwhile', async () => {
    const started = Date.now();
    const stuck = pool.normalize(input(deep, Date.now() + 500)).catch((e) => e);
    const quick = await Promise.all(Array.from({ length: 10 }, (_, n) => pool.normalize(input(ordinary(n), Date.now() + 5000))));
    expect(quick.map((r) => r.title)).toEqual(Array.from({ length: 10 }, (_, n) => `Page ${n}`));
    expect(await stuck).toBeInstanceOf(ContentTimeoutError);
    expect(Date.now() - started).toBeLessThan(5000);
  });

  it('replaces the stopped thread: the lane works again', async () => {
    const r = await pool.normalize(input(Buffer.concat([ordinary(1), Buffer.alloc(1_000_000, ' ')]), Date.now() + 10_000));
    expect(r.title).toBe('Page 1');
  });

  it('drops a page still queued at its deadline without touching the page ahead of it', async () => {
    const one = laneContentProcessor({ threads: 1, slowThreads: 0, slowBytes: Number.MAX_SAFE_INTEGER, limits: UNBOUNDED, threadHeapMb: 512 });
    try {
      const ahead = one.normalize(input(deep.subarray(0, 200_012), Date.now() + 20_000)); // ~20,000 levels: a moment's work
      const queued = one.normalize(input(ordinary(2), Date.now() + 1)).catch((e) => e);
      expect(await queued).toBeInstanceOf(ContentTimeoutError);
      expect((await ahead).markdown).toBeDefined();
    } finally {
      await one.close();
    }
  });

  it('re-sends the page that waited behind a stopped one in the same thread', async () => {
    const one = laneContentProcessor({ threads: 1, slowThreads: 0, slowBytes: Number.MAX_SAFE_INTEGER, limits: UNBOUNDED, threadHeapMb: 512 });
    try {
      const stuck = one.normalize(input(deep, Date.now() + 500)).catch((e) => e);
      const behind = one.normalize(input(ordinary(4), Date.now() + 15_000));
      expect(await stuck).toBeInstanceOf(ContentTimeoutError);
      expect((await behind).title).toBe('Page 4');
    } finally {
      await one.close();
    }
  });

  it('refuses a large binary body at once, without queueing it behind a page that holds the slow lane', async () => {
    const holding = pool.normalize(input(deep, Date.now() + 500)).catch((e) => e); // the slow lane is busy
    const binary = await pool.normalize(input(randomBytes(5 * 1048576), Date.now() + 1000)).catch((e) => e);
    expect(binary).toBeInstanceOf(UnsupportedContentTypeError);
    expect((binary as UnsupportedContentTypeError).notText).toBe(true);
    await holding; // finished or stopped at its deadline: either way the binary body did not wait for it
  });

  it('refuses a page whose deadline has already passed', async () => {
    await expect(pool.normalize(input(ordinary(3), Date.now() - 1))).rejects.toBeInstanceOf(ContentTimeoutError);
  });

  it('sizes the ordinary lane from cores and memory (1 GiB of heap per thread, the slow lane and 1 GiB counted first)', () => {
    const GiB = 1024 ** 3;
    expect(defaultContentThreads(1, 2, 24 * GiB)).toBe(1); // this machine: one core left beside the event loop
    expect(defaultContentThreads(1, 16, 24 * GiB)).toBe(4);
    expect(defaultContentThreads(1, 16, 4 * GiB)).toBe(2);
    expect(defaultContentThreads(1, 1, 1 * GiB)).toBe(1); // never 0: a page must always have a thread to stop
  });
});
