import { mkdtempSync, rmSync } from 'node:fs';
import { tmpdir } from 'node:os';
import { join } from 'node:path';
import { afterAll, describe, expect, it } from 'vitest';
import { useKvBackends } from '@trawl/test-support/backends.ts';
import { DataDirLockedError, MEMORY_DIR, openKv, openMemoryKv } from '../src/index.ts';
import { kvSuite } from './kv-suite.ts';

for (const [name, open] of useKvBackends()) kvSuite(name, open);

describe('kv on LMDB only', () => {
  const dirs: string[] = [];
  afterAll(() => {
    for (const d of dirs) rmSync(d, { recursive: true, force: true });
  });
  const tempDir = () => {
    const d = mkdtempSync(join(tmpdir(), 'trawl-kv-'));
    dirs.push(d);
    return d;
  };

  it('keeps its data across a close and reopen', async () => {
    const dir = tempDir();
    const kv = openKv({ dir });
    kv.transact((tx) => tx.put('k', 'v'));
    await kv.close();
    const again = openKv({ dir });
    expect(again.transact((tx) => tx.get('k'))).toBe('v');
    await again.close();
  });

  it('one Kv per directory in a process: a second open is refused until the first is closed', async () => {
    const dir = tempDir();
    const kv = openKv({ dir });
    expect(() => openKv({ dir })).toThrow(DataDirLockedError);
    await kv.close();
    await openKv({ dir }).close();
  });
});

describe('kv in memory only', () => {
  it('has no directory and no file: its bytes in use are its keys and encoded values', () => {
    const kv = openMemoryKv();
    expect(kv.dir).toBe(MEMORY_DIR);
    expect(kv.space()).toEqual({ usedBytes: 0, fileBytes: 0 });
    kv.transact((tx) => tx.put('key', 'x'.repeat(1000)));
    const { usedBytes } = kv.space();
    expect(usedBytes).toBeGreaterThan(1003);
    expect(usedBytes).toBeLessThan(1100);
    kv.transact((tx) => tx.del('key'));
    expect(kv.space().usedBytes).toBe(0);
  });

  it('each memory Kv is its own store', () => {
    const a = openMemoryKv();
    const b = openMemoryKv();
    a.transact((tx) => tx.put('k', 1));
    expect(b.transact((tx) => tx.has('k'))).toBe(false);
  });
});
