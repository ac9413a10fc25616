import { mkdtempSync, rmSync } from 'node:fs';
import { tmpdir } from 'node:os';
import { join } from 'node:path';
import { afterAll } from 'vitest';
import { openKv, type Kv } from '@trawl/kv';

/**
 * Kvs on fresh temporary directories for the disk backends' suites, closed and removed after the file's tests.
 * One Kv serves a whole file (like one Redis server), each backend under a random prefix.
 */
export function useTempKv(now?: () => number): () => Kv {
  const opened: Kv[] = [];
  const dirs: string[] = [];
  afterAll(async () => {
    for (const kv of opened.splice(0)) await kv.close();
    for (const d of dirs.splice(0)) rmSync(d, { recursive: true, force: true });
  });
  return () => {
    const dir = mkdtempSync(join(tmpdir(), 'trawl-frontier-'));
    dirs.push(dir);
    const kv = openKv({ dir, now });
    opened.push(kv);
    return kv;
  };
}
