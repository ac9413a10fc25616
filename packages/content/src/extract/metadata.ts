import { textContent } from '../dom.ts';
import type { PreparedPage } from './prepare-page.ts';
import { collapse } from '../text.ts';
import { resolveUrl } from '../urls.ts';

export interface PageMetadata {
  title: string | null;
  description: string | null;
  language: string | null;
  canonical_url: string | null;
  /** og:* properties without the prefix (og:image -> image); first value wins. */
  open_graph: Record<string, string>;
  /** twitter:* names without the prefix. */
  twitter: Record<string, string>;
}

// Social-card values that are addresses, made absolute like every other URL we return.
const URL_KEY = /(^|:)(url|image|video|audio|secure_url|player)$/;

/** The page title: <title>, else og:title, else the first <h1>, else ''. */
export function pageTitle(page: PreparedPage): string {
  return page.title ?? page.meta.get('og:title') ?? (page.firstH1 === null ? '' : collapse(textContent(page.firstH1)));
}

export function pageMetadata(page: PreparedPage, title: string, baseUrl: string): PageMetadata {
  const { meta } = page;
  const open_graph: Record<string, string> = {};
  const twitter: Record<string, string> = {};
  for (const [key, value] of meta) {
    const target = key.startsWith('og:') ? open_graph : key.startsWith('twitter:') ? twitter : null;
    if (target === null || value === '') continue;
    const name = key.slice(key.indexOf(':') + 1);
    target[name] = URL_KEY.test(name) ? (resolveUrl(value, baseUrl) ?? value) : value;
  }
  return {
    title: title === '' ? null : title,
    description: meta.get('description') || meta.get('og:description') || meta.get('twitter:description') || null,
    language: page.htmlLang ?? (meta.get('content-language') || meta.get('og:locale') || null),
    canonical_url: page.canonicalHref === null ? null : resolveUrl(page.canonicalHref, baseUrl),
    open_graph,
    twitter,
  };
}
