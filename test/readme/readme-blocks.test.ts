import { describe, expect, it } from 'vitest';
import { shellBlocks } from '@trawl/test-support/readme-blocks.ts';
import { MARKDOWN } from './sample-markdown.ts';

// Running them (a shell in a namespace without internet): readme-blocks.e2e.test.ts.
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
});
