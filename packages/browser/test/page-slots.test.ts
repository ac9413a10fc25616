import { describe, expect, it } from 'vitest';
import { PageSlots } from '../src/page-slots.ts';

function clock(start = 1_000) {
  let t = start;
  return { now: () => t, advance: (ms: number) => (t += ms) };
}

describe('PageSlots', () => {
  it('grants up to its size and hands a released slot to the oldest waiter', async () => {
    const c = clock();
    const slots = new PageSlots(2, c.now);
    const a = await slots.acquire(1000);
    const b = await slots.acquire(1000);
    expect(a && b).toBeTruthy();
    expect(slots.inUse).toBe(2);
    const order: string[] = [];
    const first = slots.acquire(1000).then((l) => (order.push('first'), l));
    const second = slots.acquire(1000).then((l) => (order.push('second'), l));
    expect(slots.waiting).toBe(2);
    a!.release();
    a!.release(); // a second release of the same lease frees nothing more
    const got = await first;
    expect(got).not.toBeNull();
    expect(order).toEqual(['first']);
    expect(slots.inUse).toBe(2);
    b!.release();
    expect(await second).not.toBeNull();
    expect(order).toEqual(['first', 'second']);
  });

  it('gives up after the wait bound while nothing is known about hold times', async () => {
    const slots = new PageSlots(1);
    const held = await slots.acquire(10);
    const started = performance.now();
    expect(await slots.acquire(30)).toBeNull();
    expect(performance.now() - started).toBeGreaterThanOrEqual(25);
    expect(slots.waiting).toBe(0);
    held!.release();
    expect(slots.inUse).toBe(0);
  });

  it('refuses at once when the predicted turn lies beyond the bound', async () => {
    const c = clock();
    const slots = new PageSlots(1, c.now);
    // Teach it that holds last about 1 s.
    const first = await slots.acquire(20);
    c.advance(1000);
    first!.release();
    const held = await slots.acquire(20);
    c.advance(100); // ~900 ms left on the current hold: far beyond a 20 ms bound
    const started = performance.now();
    expect(await slots.acquire(20)).toBeNull();
    expect(performance.now() - started).toBeLessThan(15);
    // A hold running past the average is about to end: waiting is worth it, and it gets the slot.
    c.advance(950);
    const waiting = slots.acquire(20);
    expect(slots.waiting).toBe(1);
    held!.release();
    expect(await waiting).not.toBeNull();
  });

  it('counts the callers already in line when predicting a turn', async () => {
    const c = clock();
    const slots = new PageSlots(2, c.now);
    const warm = await slots.acquire(20);
    c.advance(100);
    warm!.release(); // average hold 100 ms
    const a = await slots.acquire(20);
    c.advance(90);
    const b = await slots.acquire(20);
    c.advance(5); // a has ~5 ms left, b ~95 ms
    const firstInLine = slots.acquire(20); // predicted ~5 ms: waits
    expect(slots.waiting).toBe(1);
    expect(await slots.acquire(20)).toBeNull(); // second in line: predicted ~95 ms, refused at once
    a!.release();
    expect(await firstInLine).not.toBeNull();
    b!.release();
  });

  it('lets a caller that queues wait out its bound even when its turn is predicted beyond it', async () => {
    const c = clock();
    const slots = new PageSlots(1, c.now);
    const first = await slots.acquire(20);
    c.advance(1000);
    first!.release(); // average hold 1 s
    const held = await slots.acquire(20);
    expect(await slots.acquire(20)).toBeNull(); // predicted ~1 s: refused at once
    const queued = slots.acquire(5_000, true);
    expect(slots.waiting).toBe(1);
    held!.release();
    expect(await queued).not.toBeNull();
  });
});
