import { canonicalizePathEscapes } from './percent-escapes.ts';

/** Longest URL we crawl, before and after normalization; longer ones are mostly traps (session or calendar loops). */
export const MAX_URL_LENGTH = 8192;

/**
 * Canonical form of a link, used for dedup and as the frontier key; null when the URL is not crawlable: not an
 * absolute http(s) URL once resolved against `base`, userinfo present, no usable host, unparseable, or longer than
 * MAX_URL_LENGTH. `base` is the page's final URL, or its `<base href>` already resolved against it.
 *
 * The WHATWG URL parser (what browsers use on hrefs) does most of the work: it strips leading/trailing C0 controls
 * and spaces and removes tabs/newlines inside, lower-cases the scheme and host, maps IDN hosts to punycode, turns
 * hex/octal IPv4 spellings into dotted decimal, drops the scheme's default port and resolves `.`/`..` segments
 * (including `%2e` spellings of them). On top of it:
 * - trailing dots of the host are removed (`example.com.` is `example.com` on the web) and a host with an empty
 *   label (`.a.test`, `a..test`) is rejected: it cannot resolve, and the PSL lookup would misread it;
 * - the fragment is dropped: it never reaches the server;
 * - path escapes are canonicalized (see percent-escapes.ts);
 * - the query is kept byte for byte, even an empty `?`: parameter order and escaping can matter to the server
 *   (repeated keys, signed URLs, raw-query routing), and a sorted query would be a URL the site never linked.
 * Idempotent: normalizeUrl(normalizeUrl(x)) === normalizeUrl(x).
 */
export function normalizeUrl(input: string, base?: string): string | null {
  if (input.length > MAX_URL_LENGTH || hasOtherScheme(input)) return null;
  let url: URL;
  try {
    url = new URL(input, base);
  } catch {
    return null;
  }
  const protocol = url.protocol;
  if (protocol !== 'http:' && protocol !== 'https:') return null;
  if (url.username !== '' || url.password !== '') return null;

  // Without userinfo, href is `scheme://host[:port]path[?query][#fragment]`; '?' and '#' are percent-encoded
  // inside a path and '#' inside a query, so their first occurrences after the authority are the delimiters.
  const href = url.href;
  const pathStart = protocol.length + 2 + url.host.length;
  let fragmentStart = href.indexOf('#', pathStart);
  if (fragmentStart < 0) fragmentStart = href.length;
  let queryStart = href.indexOf('?', pathStart);
  if (queryStart < 0 || queryStart > fragmentStart) queryStart = fragmentStart;

  const hostname = url.hostname;
  if (hostname.charCodeAt(hostname.length - 1) === 46 /* . */) {
    const trimmed = trimTrailingDots(hostname);
    if (trimmed === '') return null;
    // Rare: parse again, as the trimmed host may now read as an IPv4 address (`0x7f.1.` is a domain, `0x7f.1` is not).
    const port = url.port === '' ? '' : ':' + url.port;
    return normalizeUrl(protocol + '//' + trimmed + port + href.slice(pathStart, fragmentStart));
  }
  if (hostname === '' || hostname.charCodeAt(0) === 46 || hostname.includes('..')) return null;

  const path = href.slice(pathStart, queryStart);
  const canonicalPath = canonicalizePathEscapes(path);
  let result: string;
  if (canonicalPath !== path) {
    result = href.slice(0, pathStart) + canonicalPath + href.slice(queryStart, fragmentStart);
  } else {
    result = fragmentStart === href.length ? href : href.slice(0, fragmentStart);
  }
  return result.length > MAX_URL_LENGTH ? null : result;
}

function trimTrailingDots(hostname: string): string {
  let end = hostname.length;
  while (end > 0 && hostname.charCodeAt(end - 1) === 46) end--;
  return hostname.slice(0, end);
}

/**
 * True when `input` plainly starts with a scheme other than http/https (`mailto:`, `javascript:`, `tel:`, `data:`):
 * such links are frequent and need no parse. Anything less plain (a tab inside the scheme, say) answers false and
 * is judged after parsing, so this is only a shortcut, never the decision.
 */
function hasOtherScheme(input: string): boolean {
  let i = 0;
  while (i < input.length && input.charCodeAt(i) <= 32) i++; // the leading C0/space the parser strips
  const start = i;
  for (; i < input.length; i++) {
    const c = input.charCodeAt(i);
    const lower = c | 32; // ASCII lower-case, for letters only
    if (lower >= 97 && lower <= 122) continue;
    if (i > start && ((c >= 48 && c <= 57) || c === 43 || c === 45 || c === 46)) continue; // digits + - .
    break;
  }
  if (i === start || input.charCodeAt(i) !== 58 /* : */) return false;
  const length = i - start;
  if (length === 4) return !isAsciiCaseless(input, start, 'http');
  if (length === 5) return !isAsciiCaseless(input, start, 'https');
  return true;
}

function isAsciiCaseless(input: string, start: number, lower: string): boolean {
  for (let k = 0; k < lower.length; k++) {
    if ((input.charCodeAt(start + k) | 32) !== lower.charCodeAt(k)) return false;
  }
  return true;
}
