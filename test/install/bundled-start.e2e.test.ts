import { spawnSync } from 'node:child_process';
import { fileURLToPath } from 'node:url';
import { afterAll, beforeAll, describe, expect, it } from 'vitest';
import { startFixtureSite, type FixtureSite } from '@trawl/test-support/fixture-site.ts';
import { TEST_KEY } from '@trawl/test-support/gateway.ts';
import { spawnTrawl, stopAllProcesses } from '@trawl/test-support/processes.ts';
import { childProcesses } from './child-processes.ts';

/**
 * What runs from the bundles of scripts/build.mjs (built for this run by test/support/build-setup.ts) loads no
 * TypeScript through tsx: `trawl` (bin/trawl.js), and the content threads of a gateway. Node's ESM debug output
 * (NODE_DEBUG=esm) names every module a process and its threads load.
 */
const ROOT = fileURLToPath(new URL('../../', import.meta.url));
const TSX = /\/node_modules\/tsx\//;

let site: FixtureSite;
beforeAll(async () => {
  site = await startFixtureSite();
});
afterAll(async () => {
  await stopAllProcesses();
  await site?.close();
});

describe('processes started from the bundles', () => {
  it('`trawl --help` runs the CLI bundle without tsx, and loads neither API client nor the progress bar', () => {
    const r = spawnSync(process.execPath, ['bin/trawl.js', '--help'], {
      cwd: ROOT,
      encoding: 'utf8',
      env: { ...process.env, NODE_DEBUG: 'esm' },
      timeout: 60_000,
    });
    expect(r.status, r.stderr.slice(-2000)).toBe(0);
    expect(r.stdout).toContain('Usage: trawl');
    expect(r.stderr).toMatch(/\/dist\/cli\.mjs/); // what the checks below look for is named in this output
    expect(r.stderr).not.toMatch(TSX);
    expect(r.stderr).not.toMatch(/\/apps\/cli\/src\//);
    expect(r.stderr).not.toMatch(/\/node_modules\/(openapi-fetch|@trpc\/client|cli-progress)\//);
  });

  it("a bundled gateway starts its content threads from its build's content-worker entry, with no tsx nor esbuild process", async () => {
    const gw = spawnTrawl('gateway', 'apps/gateway/src/main.ts', {
      PORT: '0',
      TRAWL_BOOTSTRAP_KEY: TEST_KEY,
      TRAWL_ALLOW_PRIVATE: '127.0.0.1/32',
      LOG_LEVEL: 'warn',
      NODE_DEBUG: 'esm',
    });
    let tsx: string | null = null;
    gw.waitForLine(TSX, 120_000).then(
      (line) => (tsx = line),
      () => undefined,
    );
    // The first entry a content thread loads: the bundle's own, or the boot file that loads TypeScript through tsx.
    const threadEntry = gw.waitForLine(/\/dist\/chunks\/content-worker-[^/\s]+\.mjs|\/content-worker-boot\.mjs/, 60_000);
    const url = /Trawl listening on (\S+)/.exec(await gw.waitForLine(/Trawl listening on /, 60_000))![1];

    const res = await fetch(`${url}/v1/fetch`, {
      method: 'POST',
      headers: { authorization: `Bearer ${TEST_KEY}`, 'content-type': 'application/json' },
      body: JSON.stringify({ url: `${site.origin('127.0.0.1')}/article` }),
    });
    expect(res.status).toBe(200);
    expect(((await res.json()) as { result: { content: { markdown: string } } }).result.content.markdown.length).toBeGreaterThan(200);

    // The page went through a content thread, which loaded its entry before it said it was ready.
    expect(await threadEntry).toMatch(/\/dist\/chunks\/content-worker-/);
    expect(tsx).toBeNull();
    expect(childProcesses(gw.pid).map((c) => c.name)).not.toContain('esbuild');
  });
});
