import type { CrawlScope } from '@trawl/contract';
import { compilePathFilter, compileScope, type FrontierRequest } from '@trawl/frontier';
import { describe, expect, it } from 'vitest';
import { buildPlan } from '../src/api/plan.ts';
import type { CrawlContext } from '../src/worker/crawl-context.ts';
import { admissibleLinks } from '../src/worker/page-task.ts';

/** The context a worker builds for a crawl (crawl-context.ts): the plan and one compiled scope per seed. */
function context(urls: string[], scope: CrawlScope, max_depth = 2): CrawlContext {
  const { plan } = buildPlan({ urls, scope, max_depth }, { crawl_id: 'crawl_x', run_id: 'run_x', team_id: 't' }, 'shadow', 0);
  return { plan, rules: plan.seeds.map((s) => compileScope(s, scope)), paths: compilePathFilter(), sitemaps: new Map(), submitted: new Set(), schemaKey: null };
}

const from = (url: string, seed = 0, depth = 0): FrontierRequest => ({ url, host: new URL(url).host, depth, seed, parent: null, attempt: 0 });
const urls = (out: FrontierRequest[]) => out.map((r) => r.url);

describe('admissibleLinks', () => {
  it('resolves links against the final URL and builds the child requests', () => {
    const ctx = context(['https://a.test/'], 'same_hostname');
    const out = admissibleLinks(ctx, from('https://a.test/'), 'https://a.test/dir/page', ['next', '/top#frag']);
    expect(out).toEqual([
      { url: 'https://a.test/dir/next', host: 'a.test', depth: 1, seed: 0, parent: 'https://a.test/', attempt: 0 },
      { url: 'https://a.test/top', host: 'a.test', depth: 1, seed: 0, parent: 'https://a.test/', attempt: 0 },
    ]);
  });

  it('admits nothing past max_depth', () => {
    const ctx = context(['https://a.test/'], 'all', 1);
    expect(admissibleLinks(ctx, from('https://a.test/x', 0, 1), 'https://a.test/x', ['/y'])).toEqual([]);
    expect(urls(admissibleLinks(ctx, from('https://a.test/'), 'https://a.test/', ['/y']))).toEqual(['https://a.test/y']);
  });

  it('drops duplicates on the page, links already submitted, and links that are not http(s)', () => {
    const ctx = context(['https://a.test/'], 'same_hostname');
    ctx.submitted.add('https://a.test/seen');
    const out = admissibleLinks(ctx, from('https://a.test/'), 'https://a.test/', [
      '/x',
      'https://A.TEST:443/x#again',
      '/seen',
      'mailto:me@a.test',
      'javascript:void(0)',
    ]);
    expect(urls(out)).toEqual(['https://a.test/x']);
  });

  const links = ['https://a.test/1', 'http://a.test/2', 'https://sub.a.test/3', 'https://b.test/4', 'https://a.test:8443/5'];
  it.each<[CrawlScope, string[]]>([
    ['same_hostname', ['https://a.test/1', 'http://a.test/2', 'https://a.test:8443/5']],
    ['same_domain', ['https://a.test/1', 'http://a.test/2', 'https://sub.a.test/3', 'https://a.test:8443/5']],
    ['same_origin', ['https://a.test/1', 'https://sub.a.test/3']],
    ['all', links],
  ])('applies the %s scope of the page seed', (scope, expected) => {
    const ctx = context(['https://a.test/'], scope);
    expect(urls(admissibleLinks(ctx, from('https://a.test/'), 'https://a.test/', links))).toEqual(expected);
  });

  it("judges a link by its own seed's scope, not by another seed's", () => {
    const ctx = context(['https://a.test/', 'https://b.test/'], 'same_hostname');
    const page = ['https://a.test/x', 'https://b.test/y'];
    expect(urls(admissibleLinks(ctx, from('https://b.test/', 1), 'https://b.test/', page))).toEqual(['https://b.test/y']);
    expect(admissibleLinks(ctx, from('https://b.test/', 1), 'https://b.test/', page)[0].seed).toBe(1);
  });
});
