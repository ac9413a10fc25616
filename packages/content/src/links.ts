import { pageLink } from './urls.ts';

/** Absolute http(s) links, fragments dropped, first occurrence order, no duplicates. */
export function pageLinks(hrefs: readonly string[], baseUrl: string): string[] {
  const links = new Set<string>();
  for (const href of hrefs) {
    const link = pageLink(href, baseUrl);
    if (link !== null) links.add(link);
  }
  return [...links];
}
