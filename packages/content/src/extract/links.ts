import { pageLink } from '../urls.ts';

/**
 * Absolute http(s) links, fragments dropped, first occurrence order, no duplicates, at most `max` (the first ones:
 * `capped` says whether any were left out).
 */
export function pageLinks(hrefs: readonly string[], baseUrl: string, max = Number.MAX_SAFE_INTEGER): { links: string[]; capped: boolean } {
  const links = new Set<string>();
  for (const href of hrefs) {
    const link = pageLink(href, baseUrl);
    if (link === null || links.has(link)) continue;
    if (links.size >= max) return { links: [...links], capped: true };
    links.add(link);
  }
  return { links: [...links], capped: false };
}
