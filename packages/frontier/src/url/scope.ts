import type { CrawlScope } from '@trawl/contract';
import { authorityEnd, authorityStart, hostEnd } from './normalized-url-parts.ts';
import { normalizeUrl } from './normalize-url.ts';
import { registrableDomain } from './registrable-domain.ts';

export type { CrawlScope };

/** A compiled scope rule of one seed; `allows` is the hot path. */
export interface ScopeRule {
  readonly scope: CrawlScope;
  /** Whether a link, as normalizeUrl returned it, may be followed from this seed. Any other string may be misjudged. */
  allows(normalizedUrl: string): boolean;
}

/**
 * Compiles the scope of one seed (README.md, "Crawl": the `scope` field). The seed is normalized again (cheap, once per seed) so a raw
 * seed such as `HTTP://Site.TEST.:80` compiles the same rule as its normalized form.
 * - same_hostname: the seed's exact hostname, any scheme and port.
 * - same_domain: hosts with the seed's registrable domain (see registrable-domain.ts), any scheme and port. A seed
 *   host without one (IP literal, `localhost`, a bare public suffix) matches only itself.
 * - same_origin: same_domain plus the seed's scheme and effective port.
 * - all: any http(s) URL.
 */
export function compileScope(seedNormalizedUrl: string, scope: CrawlScope): ScopeRule {
  const seed = normalizeUrl(seedNormalizedUrl);
  if (seed === null) throw new TypeError(`seed is not a crawlable http(s) URL: ${seedNormalizedUrl.slice(0, 200)}`);
  const start = authorityStart(seed);
  const seedHostEnd = hostEnd(seed, start);
  const host = seed.slice(start, seedHostEnd);
  switch (scope) {
    case 'same_hostname':
      return { scope, allows: (url) => hasHost(url, host) };
    case 'same_domain': {
      const inDomain = domainMatcher(host);
      return {
        scope,
        allows(url) {
          const at = authorityStart(url);
          return at > 0 && inDomain(url, at, hostEnd(url, at));
        },
      };
    }
    case 'same_origin': {
      const inDomain = domainMatcher(host);
      // Normalized URLs omit the default port, so equal effective ports means equal port text ('' for the default).
      const port = seed.slice(seedHostEnd, authorityEnd(seed, seedHostEnd));
      return {
        scope,
        allows(url) {
          if (authorityStart(url) !== start) return false; // 7 = http, 8 = https
          const end = hostEnd(url, start);
          const portEnd = authorityEnd(url, end);
          return portEnd - end === port.length && url.startsWith(port, end) && inDomain(url, start, end);
        },
      };
    }
    case 'all':
      return { scope, allows: (url) => authorityStart(url) > 0 };
    default:
      throw new TypeError(`unknown crawl scope: ${String(scope satisfies never)}`);
  }
}

/** Whether the host at url[start, end) is `host`, compared in place (no slice: this runs for every link). */
function isHostAt(url: string, start: number, end: number, host: string): boolean {
  return end - start === host.length && url.startsWith(host, start);
}

/** Exact host comparison of a whole URL. */
function hasHost(url: string, host: string): boolean {
  const at = authorityStart(url);
  return at > 0 && isHostAt(url, at, hostEnd(url, at), host);
}

type HostMatcher = (url: string, hostStart: number, hostEnd: number) => boolean;

function domainMatcher(seedHost: string): HostMatcher {
  const domain = registrableDomain(seedHost);
  if (domain === null) return (url, start, end) => isHostAt(url, start, end, seedHost);
  const dotDomain = '.' + domain;
  return (url, start, end) => {
    // Cheapest first: the seed host and the bare domain are in; a host not ending in `.domain` is out. Only other
    // subdomains pay for a PSL lookup, which catches a subdomain that is a site of its own under a suffix listed
    // below the seed's domain (`bucket.s3.amazonaws.com` for an `amazonaws.com` seed).
    if (isHostAt(url, start, end, seedHost) || isHostAt(url, start, end, domain)) return true;
    if (end - start <= dotDomain.length || !url.startsWith(dotDomain, end - dotDomain.length)) return false;
    return registrableDomain(url.slice(start, end)) === domain;
  };
}
