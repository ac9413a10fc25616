import { randomBytes } from 'node:crypto';
import { existsSync, mkdtempSync, readFileSync, rmSync, statSync } from 'node:fs';
import { tmpdir } from 'node:os';
import { join } from 'node:path';
import { describe, expect, it } from 'vitest';
import { openKv } from '../src/index.ts';

/** This process's maps of `file` (Linux /proc). */
function mapsOf(file: string): string[] {
  return readFileSync('/proc/self/maps', 'utf8')
    .split('\n')
    .filter((l) => l.endsWith(` ${file}`));
}

const linux = existsSync('/proc/self/maps') && /^Max address space\s+unlimited\s/m.test(readFileSync('/proc/self/limits', 'utf8'));

describe.skipIf(!linux)('the data file in memory', () => {
  // Left to grow its map, lmdb-js mapped 128 KiB and doubled from there, keeping each old map: 24 MiB of writes
  // left the file mapped 9 times, and VmRSS counted its resident pages once per map.
  it('is mapped once, however many times the file grows', async () => {
    const dir = mkdtempSync(join(tmpdir(), 'trawl-kv-map-'));
    const kv = openKv({ dir });
    try {
      const file = join(dir, 'trawl.mdb');
      // Random characters, so LZ4 (new directories compress large values) leaves them their size.
      const value = randomBytes(6_000).toString('base64');
      let n = 0;
      for (let i = 0; i < 300; i++) kv.transact((tx) => {
        for (let j = 0; j < 10; j++) tx.put(`k${n++}`, value);
      });
      // Grown from a few pages to tens of MiB (what took nine maps before).
      expect(statSync(file).size).toBeGreaterThan(20 * 2 ** 20);
      expect(mapsOf(file)).toHaveLength(1);
      // Written and read back through the one map.
      expect(kv.transact((tx) => tx.get<string>('k2999'))).toBe(value);
    } finally {
      await kv.close();
      rmSync(dir, { recursive: true, force: true });
    }
  });
});
