import { z } from 'zod';

/**
 * The syntax of a crawl's `include_paths` / `exclude_paths` patterns, matched against a link's normalized path
 * (no query, no fragment). A glob, never a regular expression: callers' regexes would run on every link of every
 * page, and a backtracking one could stall a worker (the frontier's matcher is linear in practice, bounded always).
 *
 * - A pattern starts with `/` and is split into segments at `/`.
 * - `*` matches any run of characters inside one segment (never a `/`), `?` exactly one such character.
 * - `**` as a whole segment matches any number of segments, none included: `/blog/**` matches `/blog`, `/blog/`
 *   and `/blog/2024/05/post`.
 * - Every other character matches itself, case-sensitively (paths are case-sensitive).
 */
export const PATH_PATTERN_LIMITS = { count: 50, length: 256 } as const;

/** Why `p` is not a path pattern, or null when it is one. */
export function pathPatternProblem(p: string): string | null {
  if (!p.startsWith('/')) return 'must start with /';
  if (!/^[\x21-\x7e]+$/.test(p)) return 'must be visible ASCII without spaces';
  if (p.includes('#')) return 'must not contain # (fragments are never part of a path)';
  for (const segment of p.slice(1).split('/')) {
    if (segment.includes('**') && segment !== '**') return '** must be a whole segment (/**/ or a trailing /**)';
  }
  return null;
}

/** The segments a pattern is matched by (after the leading /). */
export function pathPatternSegments(p: string): string[] {
  return p.slice(1).split('/');
}

export const PathPattern = z
  .string()
  .min(1)
  .max(PATH_PATTERN_LIMITS.length)
  .superRefine((value, ctx) => {
    const problem = pathPatternProblem(value);
    if (problem) ctx.addIssue({ code: 'custom', message: `path pattern ${problem}` });
  })
  .meta({
    description:
      'A glob over the link’s normalized path: `*` any characters within one segment, `?` one character, `**` as a whole segment any number of segments (e.g. `/blog/**`, `/docs/*/intro`, `/**/*.pdf`). Case-sensitive; the query is not matched.',
  });

export const PathPatterns = z.array(PathPattern).max(PATH_PATTERN_LIMITS.count);
