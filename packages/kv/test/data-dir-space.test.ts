import { randomBytes } from 'node:crypto';
import { describe, expect, it } from 'vitest';
import { useKvBackends, useLmdbKvs } from '@trawl/test-support/backends.ts';
import { DataDirSpace, type DataDirUsage, type Kv } from '../src/index.ts';

const backends = useKvBackends();
const lmdbKv = useLmdbKvs();
const MiB = 1024 * 1024;
// ~30 KB: a value takes whole 16 KiB pages (lmdb-kv.ts PAGE_BYTES), so one this size fills its two pages nearly,
// as a crawl item (~40 KB in three) does.
const VALUE = randomBytes(23_000).toString('base64');
const COUNT = 67;

/** COUNT values of ~30,700 bytes (2 MB), expiring at `at`. */
function fill(kv: Kv, prefix: string, at: number): void {
  kv.transact((tx) => {
    for (let i = 0; i < COUNT; i++) tx.put(`${prefix}:${i}`, VALUE, { expiresAt: at });
  });
}
function sweepAll(kv: Kv): void {
  while (kv.sweepExpired(500) > 0);
}

describe('data directory space on LMDB', () => {
  it('measures the bytes in use: up with what is stored, down again when expired keys are swept, while the file keeps its size', () => {
    let t = 1_000_000;
    const kv = lmdbKv(() => t);
    const empty = kv.space();
    expect(empty.usedBytes).toBeGreaterThan(0);
    expect(empty.usedBytes).toBeLessThanOrEqual(empty.fileBytes);
    fill(kv, 'a', t + 10);
    const full = kv.space();
    const stored = COUNT * VALUE.length;
    // Each value takes whole pages, with its key and its expiry-index entry: more than its bytes, not much more.
    expect(full.usedBytes - empty.usedBytes).toBeGreaterThanOrEqual(stored);
    expect(full.usedBytes - empty.usedBytes).toBeLessThan(stored * 1.3);
    expect(full.fileBytes).toBeGreaterThanOrEqual(full.usedBytes);

    t += 10;
    sweepAll(kv);
    const swept = kv.space();
    expect(swept.usedBytes - empty.usedBytes).toBeLessThan(64 * 1024);
    // The file never shrinks: measuring it would keep a store "full" for good once it had been.
    expect(swept.fileBytes).toBeGreaterThanOrEqual(full.fileBytes);
  });

});

describe.each(backends)('data size limit on %s', (_name, open) => {
  it('is full once the bytes in use reach the limit, measured at most once per refresh, and has room again after expiry', () => {
    let t = 1_000_000;
    const kv = open(() => t);
    const changes: DataDirUsage[] = [];
    const maxBytes = kv.space().usedBytes + MiB;
    const space = new DataDirSpace(kv, { maxBytes, now: () => t, refreshMs: 1_000, onChange: (u) => changes.push(u) });
    expect(space.usage()).toMatchObject({ maxBytes, full: false });

    fill(kv, 'a', t + 5_000);
    // The measure is reused within the refresh: the burst that filled the store still passes.
    expect(space.full()).toBe(false);
    t += 1_000;
    expect(space.full()).toBe(true);
    expect(space.usage().usedBytes).toBeGreaterThanOrEqual(maxBytes);
    expect(changes.map((c) => c.full)).toEqual([true]);

    t += 3_500;
    expect(space.full()).toBe(true);
    t += 500;
    sweepAll(kv);
    // Swept, but the last measure is half a second old.
    expect(space.full()).toBe(true);
    t += 1_000;
    expect(space.full()).toBe(false);
    expect(changes.map((c) => c.full)).toEqual([true, false]);
  });

  it('without a limit is never full; a store already over its limit is full (and reported) at the first measure', () => {
    const t = 1_000_000;
    const kv = open(() => t);
    fill(kv, 'a', t + 60_000);
    expect(new DataDirSpace(kv, { maxBytes: null }).usage()).toMatchObject({ maxBytes: null, full: false });
    const changes: boolean[] = [];
    const small = new DataDirSpace(kv, { maxBytes: MiB, onChange: (u) => changes.push(u.full) });
    expect(small.full()).toBe(true);
    expect(changes).toEqual([true]);
  });
});
