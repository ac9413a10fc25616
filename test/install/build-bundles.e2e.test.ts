import { existsSync, mkdirSync, mkdtempSync, readdirSync, readFileSync, rmSync, utimesSync, writeFileSync } from 'node:fs';
import { tmpdir } from 'node:os';
import { join } from 'node:path';
import { pathToFileURL } from 'node:url';
import { afterAll, describe, expect, it } from 'vitest';
import { buildBundles } from '../../scripts/build.mjs';
import { esbuildChildrenLeft } from './child-processes.ts';

/**
 * What `npm start` runs is rebuilt under processes already running from an earlier build (a test run beside a
 * developer's `npm start`, a gateway and a worker started together after a pull). A running process loads its lazy
 * modules and its content threads' entry later, from the names it was built with: a rebuild must leave those, and
 * two builds at once must leave one whole build. Built into a directory of its own, never the checkout's dist/.
 */
const dist = mkdtempSync(join(tmpdir(), 'trawl-dist-'));
afterAll(() => rmSync(dist, { recursive: true, force: true }));

/** Every relative module an entry or chunk imports, as a path under dist. */
function importsOf(file: string): string[] {
  const text = readFileSync(join(dist, file), 'utf8');
  const base = file.includes('/') ? file.slice(0, file.lastIndexOf('/') + 1) : '';
  return [...text.matchAll(/(?:from|import\()\s*"(\.\.?\/[^"]+)"/g)].map((m) => new URL(m[1], `file:///${base}`).pathname.slice(1));
}

/** `entry` and every file it imports, directly or not; each one must be there. */
function closure(entry: string): string[] {
  const pending = [entry];
  const seen = new Set<string>();
  while (pending.length > 0) {
    const file = pending.pop()!;
    if (seen.has(file)) continue;
    seen.add(file);
    expect(existsSync(join(dist, file)), `${file} (imported from ${entry})`).toBe(true);
    pending.push(...importsOf(file));
  }
  return [...seen];
}

/** The content thread entries the files name (content-lanes.ts starts its threads from the one its build names). */
function contentWorkersNamed(files: string[]): string[] {
  const prefix = `${pathToFileURL(dist).href}/`;
  const named = new Set<string>();
  for (const file of files) {
    for (const m of readFileSync(join(dist, file), 'utf8').matchAll(/"(file:[^"]*\/content-worker-[^"]*\.mjs)"/g)) {
      expect(m[1].startsWith(prefix), `${m[1]} is under ${prefix}`).toBe(true);
      named.add(m[1].slice(prefix.length));
    }
  }
  return [...named];
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
    for (const entry of ['gateway.mjs', 'worker.mjs', 'cli.mjs']) {
      const files = closure(entry);
      expect(files.length).toBeGreaterThan(1);
      if (entry === 'cli.mjs') continue;
      // The content threads of a process start from the entry its own build made, under dist/chunks.
      const workers = contentWorkersNamed(files);
      expect(workers).toHaveLength(1);
      expect(workers[0]).toMatch(/^chunks\/content-worker-[^/]+\.mjs$/);
      expect(closure(workers[0]).length).toBeGreaterThan(1);
    }
    // What `trawl` checks for staleness at every run: the CLI's own sources, lazily loaded ones included.
    const cliSources = JSON.parse(readFileSync(join(dist, 'cli-sources.json'), 'utf8')) as string[];
    const lazy = ['apps/cli/src/crawl/follow.ts', 'packages/admin/src/client.ts', 'packages/client/src/client.ts'];
    expect(cliSources).toEqual(expect.arrayContaining(['apps/cli/src/main.ts', ...lazy, 'packages/admin/package.json']));
    expect(cliSources.filter((f) => f.startsWith('apps/gateway/') || f.startsWith('packages/crawler/'))).toEqual([]);
  });

  it('leaves no esbuild service process behind (~50 MB, for the life of a gateway that built at its start)', async () => {
    await buildBundles(dist);
    expect(await esbuildChildrenLeft(process.pid)).toEqual([]);
  });
});
