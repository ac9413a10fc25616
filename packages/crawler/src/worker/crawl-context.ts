import { compileScope, type CrawlPlan, type CrawlStore, type ScopeRule } from '@trawl/frontier';

/** What a worker keeps about a crawl it serves: the immutable plan and its compiled per-seed scope rules. */
export interface CrawlContext {
  plan: CrawlPlan;
  rules: ScopeRule[];
  /** Normalized URLs this worker already submitted for admission (admitted or not, they never need it again). */
  submitted: Set<string>;
}

const MAX_SUBMITTED = 100_000;

export class CrawlContexts {
  private cache = new Map<string, Promise<CrawlContext | null>>();

  constructor(private readonly crawls: CrawlStore) {}

  get(crawlId: string): Promise<CrawlContext | null> {
    let c = this.cache.get(crawlId);
    if (!c) {
      c = this.crawls.getCrawl(crawlId).then((s) => {
        if (!s) {
          this.cache.delete(crawlId);
          return null;
        }
        return { plan: s.plan, rules: s.plan.seeds.map((seed) => compileScope(seed, s.plan.scope)), submitted: new Set<string>() };
      });
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
}
