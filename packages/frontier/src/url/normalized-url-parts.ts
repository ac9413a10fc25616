/**
 * Allocation-free offsets into a URL produced by normalizeUrl, so scope checks and sharding never re-run the URL
 * parser. They rely on the normalized shape: lower-case `http://` or `https://`, no userinfo, a host that is either
 * a bracketed IPv6 literal or contains none of `:/?#`, then an optional `:port` (never the default one), then a path
 * that starts with `/`.
 */

/** Offset just past `scheme://`, or -1 when the string does not start with lower-case `http://` / `https://`. */
export function authorityStart(url: string): number {
  if (url.startsWith('https://')) return 8;
  if (url.startsWith('http://')) return 7;
  return -1;
}

/** Offset just past the host that starts at `start`: a `:port`, the path, or the end of the string follows. */
export function hostEnd(url: string, start: number): number {
  if (url.charCodeAt(start) === 91 /* [ */) {
    const close = url.indexOf(']', start);
    return close < 0 ? url.length : close + 1;
  }
  for (let i = start; i < url.length; i++) {
    const c = url.charCodeAt(i);
    if (c === 58 /* : */ || c === 47 /* / */ || c === 63 /* ? */ || c === 35 /* # */) return i;
  }
  return url.length;
}

/** Offset just past the authority (host and optional port) whose host ends at `hostEndAt`. */
export function authorityEnd(url: string, hostEndAt: number): number {
  if (url.charCodeAt(hostEndAt) !== 58 /* : */) return hostEndAt;
  for (let i = hostEndAt + 1; i < url.length; i++) {
    const c = url.charCodeAt(i);
    if (c === 47 /* / */ || c === 63 /* ? */ || c === 35 /* # */) return i;
  }
  return url.length;
}
