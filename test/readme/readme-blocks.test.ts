import { describe, expect, it } from 'vitest';
import { runShellBlocks, shellBlocks } from '@trawl/test-support/readme-blocks.ts';

/** The runner of the README's shell blocks: what it runs, skips, and how a failing block fails the run. */
const MARKDOWN = [
  'Intro.',
  '```sh',
  'export GREETING=hello',
  'sleep 300 &',
  '```',
  '<!-- readme-test: skip: starts something that never ends -->',
  '```bash',
  'sleep infinity',
  '```',
  '```json',
  '{"not": "shell"}',
  '```',
  '```sh',
  'test "$GREETING" = hello',
  'curl -sS --max-time 5 http://192.0.2.1/ || echo "no route out"',
  '```',
  '```shell',
  'false | cat',
  'echo never',
  '```',
  '```sh',
  'echo not reached',
  '```',
].join('\n');

describe('README shell blocks', () => {
  it('are the sh, bash and shell blocks, each with the reason it is skipped, if it is', () => {
    const blocks = shellBlocks(MARKDOWN);
    expect(blocks.map((b) => [b.line, b.skip])).toEqual([
      [2, null],
      [7, 'starts something that never ends'],
      [13, null],
      [17, null],
      [21, null],
    ]);
    expect(() => shellBlocks('<!-- readme-test: skip -->\n```sh\nls\n```')).toThrow(/say why/);
    expect(() => shellBlocks('<!-- readme-test: skip: why -->\n\n```sh\nls\n```')).toThrow(/right before/);
  });

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
