import { pathPatternSegments } from '@trawl/contract';
import { authorityEnd, authorityStart, hostEnd } from './normalized-url-parts.ts';

/** A crawl's include/exclude path patterns, compiled once per crawl; `allows` is on the hot path of every link. */
export interface PathFilter {
  /** Whether a link, as normalizeUrl returned it, passes the filters. */
  allows(normalizedUrl: string): boolean;
}

type Matcher = (segments: string[]) => boolean;

/**
 * The syntax is contract's (path-pattern.ts). Matching is the classic wildcard walk with one backtrack point, used
 * twice: over segments (`**` the star) and over the characters of one segment (`*` the star, `?` one character).
 * It never backtracks further than the last star, so a pattern costs at most (its length x the path's length),
 * whatever the caller wrote: there is no pattern that makes it explode as a regular expression can.
 */
export function compilePathFilter(include: readonly string[] = [], exclude: readonly string[] = []): PathFilter {
  const inc = include.map(compile);
  const exc = exclude.map(compile);
  if (inc.length === 0 && exc.length === 0) return { allows: () => true };
  return {
    allows(url) {
      const segments = pathOf(url).slice(1).split('/');
      if (exc.some((m) => m(segments))) return false;
      return inc.length === 0 || inc.some((m) => m(segments));
    },
  };
}

/** The path of a normalized URL: from the end of its authority to its query (or its end). */
function pathOf(url: string): string {
  const start = authorityStart(url);
  if (start < 0) return '/';
  const from = authorityEnd(url, hostEnd(url, start));
  const q = url.indexOf('?', from);
  const path = url.slice(from, q < 0 ? url.length : q);
  return path === '' ? '/' : path;
}

function compile(pattern: string): Matcher {
  const parts = pathPatternSegments(pattern);
  return (segments) => wildcard(parts, segments, (p) => p === '**', (p, s) => wildcard(p, s, (c) => c === '*', (c, ch) => c === '?' || c === ch));
}

/** Whether `items` match `pattern`, where a star element matches any run of items and `one` matches a single one. */
function wildcard<P, T>(pattern: ArrayLike<P>, items: ArrayLike<T>, isStar: (p: P) => boolean, one: (p: P, item: T) => boolean): boolean {
  let p = 0;
  let i = 0;
  let starP = -1;
  let starI = 0;
  while (i < items.length) {
    if (p < pattern.length && !isStar(pattern[p]) && one(pattern[p], items[i])) {
      p++;
      i++;
    } else if (p < pattern.length && isStar(pattern[p])) {
      starP = p++;
      starI = i;
    } else if (starP >= 0) {
      p = starP + 1;
      i = ++starI;
    } else {
      return false;
    }
  }
  while (p < pattern.length && isStar(pattern[p])) p++;
  return p === pattern.length;
}
