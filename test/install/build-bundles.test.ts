import { existsSync, mkdirSync, mkdtempSync, readdirSync, readFileSync, rmSync, utimesSync, writeFileSync } from 'node:fs';
import { tmpdir } from 'node:os';
import { join } from 'node:path';
import { afterAll, describe, expect, it } from 'vitest';
import { buildBundles } from '../../scripts/build.mjs';

/**
 * What `npm start` runs is rebuilt under processes already running from an earlier build (a test run beside a
 * developer's `npm start`, a gateway and a worker started together after a pull). A running process loads its lazy
 * modules later, from the chunk names it was built with: a rebuild must leave those chunks, and two builds at once
 * must leave one whole build. Built into a directory of its own, never the checkout's dist/.
 */
const dist = mkdtempSync(join(tmpdir(), 'trawl-dist-'));
afterAll(() => rmSync(dist, { recursive: true, force: true }));

/** Every relative module an entry or chunk imports, as a path under dist. */
function importsOf(file: string): string[] {
  const text = readFileSync(join(dist, file), 'utf8');
  const base = file.includes('/') ? file.slice(0, file.lastIndexOf('/') + 1) : '';
  return [...text.matchAll(/(?:from|import\()\s*"(\.\.?\/[^"]+)"/g)].map((m) => new URL(m[1], `file:///${base}`).pathname.slice(1));
}

describe('building the bundles under running processes', () => {
  it("keeps an earlier build's chunks, drops only old unused ones, and two builds at once leave a whole build", async () => {
    mkdirSync(join(dist, 'chunks'), { recursive: true });
    // What a process started from an earlier build may still import, and a chunk nothing has used for weeks.
    writeFileSync(join(dist, 'chunks', 'crawlee-adapter-EARLIER1.mjs'), 'export {};\n');
    writeFileSync(join(dist, 'chunks', 'chunk-ANCIENT1.mjs'), 'export {};\n');
    const weeksAgo = new Date(Date.now() - 30 * 24 * 3600 * 1000);
    utimesSync(join(dist, 'chunks', 'chunk-ANCIENT1.mjs'), weeksAgo, weeksAgo);

    await Promise.all([buildBundles(dist), buildBundles(dist)]);

    const chunks = readdirSync(join(dist, 'chunks'));
    expect(chunks).toContain('crawlee-adapter-EARLIER1.mjs');
    expect(chunks).not.toContain('chunk-ANCIENT1.mjs');
    expect(readdirSync(dist).filter((name) => name.includes('.next-'))).toEqual([]);
    for (const entry of ['gateway.mjs', 'worker.mjs']) {
      const pending = [entry];
      const seen = new Set<string>();
      while (pending.length > 0) {
        const file = pending.pop()!;
        if (seen.has(file)) continue;
        seen.add(file);
        expect(existsSync(join(dist, file)), `${file} (imported from ${entry})`).toBe(true);
        pending.push(...importsOf(file));
      }
      expect(seen.size).toBeGreaterThan(1);
    }
  });
});
