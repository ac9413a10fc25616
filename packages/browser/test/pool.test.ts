import { describe, expect, it } from 'vitest';
import { defaultBrowserPages } from '../src/index.ts';

// The pool with its Chromium processes: pool.e2e.test.ts.
describe('browser pool', () => {
  it('sizes the default pool from memory and cores, between 2 and 8', () => {
    const GiB = 1024 ** 3;
    expect(defaultBrowserPages(24 * GiB, 2)).toBe(4);
    expect(defaultBrowserPages(1 * GiB, 16)).toBe(2);
    expect(defaultBrowserPages(64 * GiB, 32)).toBe(8);
    expect(defaultBrowserPages(3 * GiB, 8)).toBe(6);
  });
});
