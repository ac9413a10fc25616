import { setFlagsFromString } from 'node:v8';
import { runInNewContext } from 'node:vm';
import { describe, expect, it } from 'vitest';
import { normalizeContent } from '../src/index.ts';

// A worker converts pages for days: nothing of a page may outlive its conversion but bounded caches of short strings.
setFlagsFromString('--expose-gc');
const gc = runInNewContext('gc') as () => void;

const PAGES = 12;
const SOURCE_BYTES = 1_000_000;

/** A page of about a megabyte whose class values and ids are its own (long enough to be sliced, not copied). */
function pageNumbered(n: number): Buffer {
  const named = Array.from({ length: 100 }, (_, k) =>
    `<div class="card-wrapper-${n}-${k} teaser" id="section-anchor-${n}-${k}"><p>Item ${k} of page ${n}.</p></div>`,
  ).join('');
  const filler = `<p>${'Plain words of the article body. '.repeat(SOURCE_BYTES / 33)}</p>`;
  return Buffer.from(`<html><body><main>${named}${filler}</main></body></html>`);
}

describe('retention', () => {
  it('keeps no page source alive after the page is converted (class and id verdicts are cached on copies)', () => {
    normalizeContent({ body: pageNumbered(-1), contentType: 'text/html', url: 'https://example.com/' });
    gc();
    const before = process.memoryUsage().heapUsed;
    for (let n = 0; n < PAGES; n++) normalizeContent({ body: pageNumbered(n), contentType: 'text/html', url: 'https://example.com/' });
    gc();
    gc();
    const retainedMb = (process.memoryUsage().heapUsed - before) / 1e6;
    // Held sources would be PAGES megabytes; the verdict caches hold 2,400 short keys.
    expect(retainedMb).toBeLessThan(PAGES / 3);
  });
});
