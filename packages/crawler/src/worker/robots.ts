import { createRequire } from 'node:module';
import { LruMap } from '@trawl/lru';
import { isStoreUnavailable, type ShardDirectory } from '@trawl/frontier';
import type { LightFetcher } from '@trawl/scrape';

export const ROBOTS_AGENT = 'TrawlBot';
const MAX_ROBOTS_BYTES = 512 * 1024;
/** Parsed robots.txt kept per worker; an evicted origin is read again from the directory (shared cache). */
export const MAX_ROBOTS_ORIGINS = 1_000;

interface Parsed {
  isAllowed(url: string, ua?: string): boolean | undefined;
  getSitemaps(): string[];
}
// robots-parser is CommonJS whose typings describe a default export it does not have; load it as it is.
const robotsParser = createRequire(import.meta.url)('robots-parser') as (url: string, body: string) => Parsed;

/**
 * robots.txt per origin, fetched once through the light engine (so the SSRF guard applies) and shared with other
 * workers through the directory. A missing or unreachable robots.txt allows everything.
 */
export class RobotsCache {
  private readonly local: LruMap<string, { parsed: Parsed | null; until: number }>;
  /** Loads in flight: bounded by the pages in flight. */
  private pending = new Map<string, Promise<Parsed | null>>();

  constructor(
    private readonly light: LightFetcher,
    private readonly directory: ShardDirectory,
    private readonly ttlMs: number,
    private readonly timeoutMs: number,
    maxOrigins = MAX_ROBOTS_ORIGINS,
  ) {
    // Origins are whatever the crawled pages link to: bounded, or a crawl of `scope: all` grows it for ever.
    this.local = new LruMap(maxOrigins);
  }

  async allowed(url: string): Promise<boolean> {
    const origin = new URL(url).origin;
    const parsed = await this.forOrigin(origin);
    return parsed === null || parsed.isAllowed(url, ROBOTS_AGENT) !== false;
  }

  /** The `Sitemap:` lines of the origin's robots.txt (none when it has no robots.txt). */
  async sitemaps(origin: string): Promise<string[]> {
    return (await this.forOrigin(origin))?.getSitemaps() ?? [];
  }

  private async forOrigin(origin: string): Promise<Parsed | null> {
    const hit = this.local.get(origin);
    if (hit && hit.until > Date.now()) return hit.parsed;
    let p = this.pending.get(origin);
    if (!p) {
      p = this.load(origin).finally(() => this.pending.delete(origin));
      this.pending.set(origin, p);
    }
    return p;
  }

  private async load(origin: string): Promise<Parsed | null> {
    const robotsUrl = `${origin}/robots.txt`;
    // The directory is only a cache shared with other workers: while the store is unreachable, robots.txt is
    // read from the origin itself (and kept here), rather than holding the page up.
    let body = await this.directory.getRobots(origin).catch(whenStoreDown(undefined));
    if (body === undefined) {
      const r = await this.light.fetch({ url: robotsUrl, deadline: Date.now() + this.timeoutMs, maxBodyBytes: MAX_ROBOTS_BYTES });
      body = r.ok && r.statusCode >= 200 && r.statusCode < 300 ? r.body.toString('utf8') : null;
      await this.directory.setRobots(origin, body, this.ttlMs).catch(whenStoreDown(undefined));
    }
    const parsed = body === null ? null : robotsParser(robotsUrl, body);
    this.local.set(origin, { parsed, until: Date.now() + this.ttlMs });
    return parsed;
  }
}

/** A rejection handler: answers `fallback` when the store is unreachable, rethrows anything else. */
function whenStoreDown<T>(fallback: T): (err: unknown) => T {
  return (err) => {
    if (isStoreUnavailable(err)) return fallback;
    throw err;
  };
}
