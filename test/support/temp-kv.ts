import { mkdtempSync, rmSync } from 'node:fs';
import { tmpdir } from 'node:os';
import { join } from 'node:path';
import { afterAll } from 'vitest';
import { openKv, type Kv } from '@trawl/kv';

/**
 * Kvs on fresh temporary directories for a test file (the disk backends' conformance entries): each `open` makes
 * one; all are closed and their directories removed after the file's tests.
 */
export function useTempKvs(): { open(now?: () => number): Kv } {
  const opened: Kv[] = [];
  afterAll(async () => {
    for (const kv of opened.splice(0)) {
      await kv.close().catch(() => undefined);
      rmSync(kv.dir, { recursive: true, force: true });
    }
  });
  return {
    open(now) {
      const kv = openKv({ dir: mkdtempSync(join(tmpdir(), 'trawl-kv-test-')), now });
      opened.push(kv);
      return kv;
    },
  };
}
