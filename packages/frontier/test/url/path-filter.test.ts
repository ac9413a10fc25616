import { describe, expect, it } from 'vitest';
import { pathPatternProblem } from '@trawl/contract';
import { compilePathFilter } from '../../src/url/path-filter.ts';
import { normalizeUrl } from '../../src/url/normalize-url.ts';

const allows = (include: string[], exclude: string[], url: string) => compilePathFilter(include, exclude).allows(normalizeUrl(url)!);

describe('path filters (include_paths / exclude_paths)', () => {
  it('matches * within a segment, ? one character, ** any number of whole segments', () => {
    const cases: [string, string, boolean][] = [
      ['/blog/*', 'https://a.test/blog/post', true],
      ['/blog/*', 'https://a.test/blog/', true],
      ['/blog/*', 'https://a.test/blog/2024/post', false],
      ['/blog/**', 'https://a.test/blog', true],
      ['/blog/**', 'https://a.test/blog/2024/05/post', true],
      ['/blog/**', 'https://a.test/blogroll', false],
      ['/**/*.pdf', 'https://a.test/files/a/report.pdf', true],
      ['/**/*.pdf', 'https://a.test/report.pdf', true],
      ['/**/*.pdf', 'https://a.test/report.pdf.html', false],
      ['/docs/v?/intro', 'https://a.test/docs/v2/intro', true],
      ['/docs/v?/intro', 'https://a.test/docs/v10/intro', false],
      ['/a*b*c', 'https://a.test/aXXbYYc', true],
      ['/a*b*c', 'https://a.test/aXXbYY', false],
      ['/Blog/**', 'https://a.test/blog/x', false],
      ['/', 'https://a.test', true],
      // The query is not part of the path.
      ['/search', 'https://a.test/search?q=x/y', true],
    ];
    for (const [pattern, url, want] of cases) expect(allows([pattern], [], url), `${pattern} ${url}`).toBe(want);
  });

  it('exclude wins over include; no include means every path', () => {
    expect(allows([], ['/private/**'], 'https://a.test/private/x')).toBe(false);
    expect(allows([], ['/private/**'], 'https://a.test/public/x')).toBe(true);
    expect(allows(['/docs/**'], ['/docs/old/**'], 'https://a.test/docs/old/x')).toBe(false);
    expect(allows(['/docs/**'], ['/docs/old/**'], 'https://a.test/docs/new/x')).toBe(true);
    expect(allows(['/docs/**', '/blog/**'], [], 'https://a.test/shop/x')).toBe(false);
  });

  it('stays fast on patterns that make a backtracking regex explode', () => {
    const pattern = `/${'*a'.repeat(60)}b`;
    expect(pathPatternProblem(pattern)).toBeNull();
    const url = `https://a.test/${'a'.repeat(4000)}`;
    const began = performance.now();
    expect(allows([pattern], [], url)).toBe(false);
    expect(allows([`/${'**/'.repeat(40)}x`], [], `https://a.test/${'a/'.repeat(1000)}y`)).toBe(false);
    // Bounded by pattern length x path length (a few million steps), not exponential.
    expect(performance.now() - began).toBeLessThan(2_000);
  });

  it('rejects what is not a pattern', () => {
    expect(pathPatternProblem('blog/*')).toMatch(/start with \//);
    expect(pathPatternProblem('/a b')).toMatch(/visible ASCII/);
    expect(pathPatternProblem('/a#b')).toMatch(/#/);
    expect(pathPatternProblem('/a**/b')).toMatch(/whole segment/);
    expect(pathPatternProblem('/**/a*/b?')).toBeNull();
  });
});
