import { gunzipSync } from 'node:zlib';
import type { LightFetcher } from '@trawl/scrape';
import { sitemapEntries } from './sitemap-parser.ts';

/** Sitemap files read per origin (indexes included): enough for large sites, bounded for hostile ones. */
export const MAX_SITEMAP_FILES = 50;
/** A sitemap file's size, compressed as sent and again after gunzip (a gzip bomb stops here). */
export const MAX_SITEMAP_BYTES = 10 * 1024 * 1024;
/** Sitemap indexes nest at most this deep (the protocol allows none; some sites nest one more). */
const MAX_INDEX_DEPTH = 3;

export interface SitemapWalk {
  light: LightFetcher;
  /** `Sitemap:` lines of the origin's robots.txt (absolute URLs). */
  robotsSitemaps: string[];
  /** The whole walk ends by then. */
  deadline: number;
  /** Page URLs wanted at most (the crawl's max_pages). */
  max: number;
  /** Whether a listed page may join the crawl (normalized, in the seed's scope, through the path filters). */
  accept(url: string): string | null;
}

/**
 * The pages an origin's sitemaps list, in the order found: robots.txt `Sitemap:` lines, then `/sitemap.xml`;
 * indexes followed breadth first. Every file is fetched through the light engine (SSRF guard, redirect limit,
 * body cap), gunzipped when it is gzip (by its bytes, whatever its name or type says) under the same cap. A file
 * that fails or does not parse is skipped: a sitemap only adds pages, it never fails a crawl.
 */
export async function sitemapPages(origin: string, w: SitemapWalk): Promise<string[]> {
  const queue: { url: string; depth: number }[] = [...new Set([...w.robotsSitemaps, `${origin}/sitemap.xml`])].map((url) => ({ url, depth: 0 }));
  const seenFiles = new Set(queue.map((q) => q.url));
  const pages = new Set<string>();
  let files = 0;
  while (queue.length > 0 && files < MAX_SITEMAP_FILES && pages.size < w.max && Date.now() < w.deadline) {
    const { url, depth } = queue.shift()!;
    files++;
    const doc = await fetchDoc(w.light, url, w.deadline);
    if (!doc) continue;
    // Enough entries to fill the crawl even when many are out of scope or filtered; bounded by the file size anyway.
    const { kind, urls } = await sitemapEntries(doc, w.max * 4);
    if (kind === 'index') {
      if (depth + 1 > MAX_INDEX_DEPTH) continue;
      for (const next of urls) {
        if (!/^https?:\/\//i.test(next) || seenFiles.has(next)) continue;
        seenFiles.add(next);
        queue.push({ url: next, depth: depth + 1 });
      }
      continue;
    }
    for (const raw of urls) {
      const page = w.accept(raw);
      if (page !== null) pages.add(page);
      if (pages.size >= w.max) break;
    }
  }
  return [...pages];
}

async function fetchDoc(light: LightFetcher, url: string, deadline: number): Promise<Buffer | null> {
  let r;
  try {
    r = await light.fetch({ url, deadline, maxBodyBytes: MAX_SITEMAP_BYTES });
  } catch {
    return null;
  }
  if (!r.ok || r.statusCode < 200 || r.statusCode >= 300) return null;
  if (r.body[0] !== 0x1f || r.body[1] !== 0x8b) return r.body;
  try {
    return gunzipSync(r.body, { maxOutputLength: MAX_SITEMAP_BYTES });
  } catch {
    return null;
  }
}
