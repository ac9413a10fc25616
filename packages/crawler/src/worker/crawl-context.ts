import { LruMap } from '@trawl/lru';
import { schemaKey } from '@trawl/extraction';
import { compilePathFilter, compileScope, type CrawlPlan, type CrawlStore, type PathFilter, type ScopeRule } from '@trawl/frontier';

/** What a worker keeps about a crawl it serves: the immutable plan and its compiled per-seed scope rules. */
export interface CrawlContext {
  plan: CrawlPlan;
  rules: ScopeRule[];
  /** include_paths / exclude_paths: which links (not seeds, not redirects) may be followed. */
  paths: PathFilter;
  /** Pages each seed origin's sitemaps list (`sitemap` include/only), walked once per origin by this worker. */
  sitemaps: Map<string, Promise<string[]>>;
  /** Normalized URLs this worker already submitted for admission (admitted or not, they never need it again). */
  submitted: Set<string>;
  /** The extraction schema's key in selector memory (`@trawl/extraction` schemaKey); null without extraction. */
  schemaKey: string | null;
}

const MAX_SUBMITTED = 100_000;
/**
 * Crawls a worker keeps a context for. Contexts of crawls another worker finalized are never forgotten
 * explicitly, so without a bound they pile up; an evicted one is rebuilt from the store on its next page.
 */
export const MAX_CRAWL_CONTEXTS = 64;

export class CrawlContexts {
  private readonly cache: LruMap<string, Promise<CrawlContext | null>>;

  constructor(
    private readonly crawls: CrawlStore,
    maxCrawls = MAX_CRAWL_CONTEXTS,
  ) {
    this.cache = new LruMap(maxCrawls);
  }

  get(crawlId: string): Promise<CrawlContext | null> {
    let c = this.cache.get(crawlId);
    if (!c) {
      const loading = this.crawls.getCrawl(crawlId).then(
        (s) => {
          if (!s) {
            this.forgetIf(crawlId, loading);
            return null;
          }
          return {
            plan: s.plan,
            rules: s.plan.seeds.map((seed) => compileScope(seed, s.plan.scope)),
            paths: compilePathFilter(s.plan.include_paths, s.plan.exclude_paths),
            sitemaps: new Map(),
            submitted: new Set<string>(),
            schemaKey: s.plan.extraction ? schemaKey(s.plan.extraction) : null,
          };
        },
        (err: unknown) => {
          // A failed read (the store was unreachable) must not stay cached: the next page asks again.
          this.forgetIf(crawlId, loading);
          throw err;
        },
      );
      c = loading;
      this.cache.set(crawlId, c);
    }
    return c;
  }

  /** Remembers a submitted link, bounded: forgetting only costs a redundant admission check. */
  static remember(ctx: CrawlContext, url: string): void {
    if (ctx.submitted.size >= MAX_SUBMITTED) ctx.submitted.clear();
    ctx.submitted.add(url);
  }

  forget(crawlId: string): void {
    this.cache.delete(crawlId);
  }

  private forgetIf(crawlId: string, entry: Promise<CrawlContext | null>): void {
    if (this.cache.peek(crawlId) === entry) this.cache.delete(crawlId);
  }
}
