import { describe, expect, it } from 'vitest';
import { runShellBlocks, shellBlocks } from '@trawl/test-support/readme-blocks.ts';
import { MARKDOWN } from './sample-markdown.ts';

describe('README shell blocks', () => {
  it('run in order in one shell, in a namespace without internet; the first failing block stops the run', async () => {
    const run = await runShellBlocks(shellBlocks(MARKDOWN), { cwd: process.cwd(), env: { PATH: process.env.PATH ?? '' }, timeoutMs: 30_000 });
    // Block 13 runs: its variable came from block 2, and a request to a public address finds no route. Block 17
    // fails on the pipeline's first command (pipefail), so block 21 never runs.
    expect(run.results).toEqual([
      { line: 2, result: 'ok' },
      { line: 7, result: 'skipped' },
      { line: 13, result: 'ok' },
      { line: 17, result: 'failed' },
      { line: 21, result: 'not reached' },
    ]);
    expect(run.output).toMatch(/curl: \(7\)[^\n]*\nno route out\n/);
    expect(run.output).not.toContain('never');
    expect(run.output).not.toContain('not reached');
  });
});
