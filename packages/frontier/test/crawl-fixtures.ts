import type { CrawlPlan, FrontierRequest } from '../src/index.ts';

let n = 0;

/** A crawl plan of its own id (`tag` names the suite in it), with what a test overrides. */
export function testPlan(tag: string, overrides: Partial<CrawlPlan> = {}): CrawlPlan {
  n += 1;
  return {
    crawl_id: `crawl_${tag}${n}_${Math.random().toString(36).slice(2)}`,
    team_id: 'team_1',
    run_id: 'run_1',
    created_at: new Date().toISOString(),
    seeds: ['http://a.test/'],
    scope: 'same_hostname',
    max_depth: 2,
    max_pages: 100,
    billing_mode: 'shadow',
    ...overrides,
  };
}

/** A frontier request for `url` at `depth`, from seed 0. */
export function req(url: string, depth = 0): FrontierRequest {
  return { url, host: new URL(url).hostname, depth, seed: 0, parent: null, attempt: 0 };
}
