import { authorityEnd, authorityStart, hostEnd } from './normalized-url-parts.ts';
import { normalizeUrl } from './normalize-url.ts';

/**
 * The hostname of a normalized URL (an IPv6 literal keeps its brackets, as URL.hostname gives it). normalizeUrl
 * output is sliced without a parse; a string that visibly is not such output (upper case, userinfo, escapes or a
 * trailing dot in the authority) is normalized first, and a TypeError is thrown when it is not crawlable at all.
 */
export function hostOf(normalizedUrl: string): string {
  const start = authorityStart(normalizedUrl);
  if (start > 0) {
    const end = hostEnd(normalizedUrl, start);
    if (end > start && isCanonicalAuthority(normalizedUrl, start, end)) return normalizedUrl.slice(start, end);
  }
  const normalized = normalizeUrl(normalizedUrl);
  if (normalized === null) throw new TypeError(`not a crawlable http(s) URL: ${normalizedUrl.slice(0, 200)}`);
  const normalizedStart = authorityStart(normalized);
  return normalized.slice(normalizedStart, hostEnd(normalized, normalizedStart));
}

function isCanonicalAuthority(url: string, start: number, hostEndAt: number): boolean {
  if (url.charCodeAt(hostEndAt - 1) === 46 /* . */) return false;
  const end = authorityEnd(url, hostEndAt);
  for (let i = start; i < end; i++) {
    const c = url.charCodeAt(i);
    // upper case, '@' (userinfo), '%' (escaped host), '\' and whitespace never survive normalizeUrl
    if ((c >= 65 && c <= 90) || c === 64 || c === 37 || c === 92 || c <= 32) return false;
  }
  return true;
}
