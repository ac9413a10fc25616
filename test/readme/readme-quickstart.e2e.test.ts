import { existsSync, mkdtempSync, readFileSync, rmSync } from 'node:fs';
import { tmpdir } from 'node:os';
import { join } from 'node:path';
import { fileURLToPath } from 'node:url';
import { afterAll, describe, expect, it } from 'vitest';
import { runShellBlocks, shellBlocks } from '@trawl/test-support/readme-blocks.ts';

/**
 * Every shell block of the README, run as written, in order, in one shell, as a reader on a machine with no internet
 * would: a network namespace with only loopback (so the quick start's fixed ports are free and nothing leaves), the
 * repository as working directory, `TRAWL_ADMIN_TOKEN` exported as the admin sections ask. The quick start starts
 * the demo site and `npm start` itself. Blocks marked `readme-test: skip` are not run; any other that fails fails
 * this test. The gateway's data directory is a temporary one (TRAWL_DATA_DIR), not the repository's.
 */
const ROOT = fileURLToPath(new URL('../../', import.meta.url));
const OUTPUTS = ['page.md', 'items.jsonl', 'trawl.log'].map((f) => join(ROOT, f));
// Files the blocks write into the working directory: removed afterwards, unless they were there before.
const existed = new Set(OUTPUTS.filter((f) => existsSync(f)));
const dataDir = mkdtempSync(join(tmpdir(), 'trawl-readme-data-'));
afterAll(() => {
  for (const f of OUTPUTS) if (!existed.has(f)) rmSync(f, { force: true });
  rmSync(dataDir, { recursive: true, force: true });
});

describe('the README', () => {
  it('runs verbatim: the quick start fetches and crawls the demo site, and every other block not marked works', async () => {
    const blocks = shellBlocks(readFileSync(join(ROOT, 'README.md'), 'utf8'));
    expect(blocks.filter((b) => b.skip === null).length).toBeGreaterThanOrEqual(8);
    const run = await runShellBlocks(blocks, {
      cwd: ROOT,
      env: {
        PATH: process.env.PATH ?? '/usr/bin:/bin',
        HOME: process.env.HOME ?? tmpdir(),
        LANG: 'C.UTF-8',
        TRAWL_DATA_DIR: dataDir,
        TRAWL_ADMIN_TOKEN: 'readme-admin-token-0123456789',
        // npm would otherwise look for its own updates; there is no network here anyway.
        npm_config_update_notifier: 'false',
      },
      timeoutMs: 240_000,
    });
    const failed = run.results.filter((r) => r.result !== 'ok' && r.result !== 'skipped');
    expect(failed, `README blocks that did not run through:\n${run.output.slice(-6000)}`).toEqual([]);
    expect(run.output).toContain('Demo site on http://127.0.0.1:8070/');
    expect(run.output).toContain('# The spring count is in');
    // The crawl listing: every page of the demo site, depth first column.
    expect(run.output).toMatch(/^0 http:\/\/127\.0\.0\.1:8070\/ {2}Home · Tidewater Field Station$/m);
    expect(run.output.match(/^[0-2] http:\/\/127\.0\.0\.1:8070\/\S* {2}.+$/gm)).toHaveLength(8);
    expect(readFileSync(join(ROOT, 'page.md'), 'utf8')).toContain('Visiting the boardwalk');
    expect(readFileSync(join(ROOT, 'items.jsonl'), 'utf8').trim().split('\n')).toHaveLength(8);
  }, 300_000);
});
