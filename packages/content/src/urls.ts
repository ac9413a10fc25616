/** value resolved against base as an absolute URL string, or null when it cannot be parsed. */
export function resolveUrl(value: string, base: string): string | null {
  const trimmed = value.trim();
  if (trimmed === '') return null;
  try {
    return new URL(trimmed, base).href;
  } catch {
    return null;
  }
}

/** Absolute http(s) URL without its fragment, or null (other schemes, unparsable values). */
export function pageLink(value: string, base: string): string | null {
  let url: URL;
  try {
    url = new URL(value.trim(), base);
  } catch {
    return null;
  }
  if (url.protocol !== 'http:' && url.protocol !== 'https:') return null;
  url.hash = '';
  return url.href;
}

/** The document's base URL: <base href> resolved against the final URL, when it is usable. */
export function documentBase(finalUrl: string, baseHref: string | null): string {
  if (baseHref === null) return finalUrl;
  const resolved = resolveUrl(baseHref, finalUrl);
  return resolved !== null && /^https?:/i.test(resolved) ? resolved : finalUrl;
}
