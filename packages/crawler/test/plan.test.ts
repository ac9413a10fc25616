import { CRAWL_LIMITS } from '@trawl/contract';
import { describe, expect, it } from 'vitest';
import { buildPlan, PlanError } from '../src/api/plan.ts';

const ids = { crawl_id: 'crawl_x', run_id: 'run_x', team_id: 'team_x' };
const plan = (req: Parameters<typeof buildPlan>[0], mode: 'shadow' | 'enforce' = 'shadow') => buildPlan(req, ids, mode, Date.UTC(2026, 0, 2));

function planError(fn: () => unknown): PlanError {
  try {
    fn();
  } catch (err) {
    if (err instanceof PlanError) return err;
    throw err;
  }
  throw new Error('expected a PlanError');
}

describe('buildPlan', () => {
  it('fills the defaults and keeps the ids, billing mode and creation time', () => {
    const { plan: p, seeds } = plan({ urls: ['https://Example.com:443/a#frag'] }, 'enforce');
    expect(p).toEqual({
      ...ids,
      created_at: '2026-01-02T00:00:00.000Z',
      seeds: ['https://example.com/a'],
      scope: 'same_hostname',
      max_depth: CRAWL_LIMITS.max_depth.default,
      max_pages: CRAWL_LIMITS.max_pages.default,
      billing_mode: 'enforce',
    });
    expect(seeds).toEqual([{ url: 'https://example.com/a', host: 'example.com', depth: 0, seed: 0, parent: null, attempt: 0 }]);
  });

  it('keeps the caps, scope, browser controls and extraction asked for', () => {
    const browser = { wait_until: 'load' } as never;
    const extraction = { type: 'json_css' as const, schema: { name: 'n', base_selector: 'li', fields: [{ name: 'a', selector: 'a', type: 'text' as const }] }, adaptive: true };
    const { plan: p } = plan({ urls: ['https://a.test/'], scope: 'all', max_depth: 0, max_pages: 1, browser, extraction });
    expect(p).toMatchObject({ scope: 'all', max_depth: 0, max_pages: 1, browser, extraction });
  });

  it('numbers each seed by its position, so each anchors its own scope', () => {
    const { seeds } = plan({ urls: ['https://a.test/', 'http://b.test/x'] });
    expect(seeds.map((s) => [s.seed, s.host, s.url])).toEqual([
      [0, 'a.test', 'https://a.test/'],
      [1, 'b.test', 'http://b.test/x'],
    ]);
  });

  it('refuses two seeds equal after normalization, naming the later one', () => {
    const e = planError(() => plan({ urls: ['https://a.test/x', 'https://b.test/', 'HTTPS://A.TEST:443/./x#y'] }));
    expect(e.field).toBe('urls.2');
    expect(e.message).toBe('urls.2 is the same URL as urls.0 after normalization');
  });

  it('refuses an extraction whose CSS does not parse, naming its path', () => {
    const extraction = { type: 'json_css' as const, schema: { name: 'n', base_selector: 'li', fields: [{ name: 'a', selector: 'a:nope(', type: 'text' as const }] }, adaptive: true };
    expect(() => plan({ urls: ['https://a.test/'], extraction })).toThrow(expect.objectContaining({ field: 'extraction.schema.fields.0.selector' }));
  });

  it('refuses a seed that is not a crawlable http(s) URL', () => {
    const e = planError(() => plan({ urls: ['https://a.test/', 'ftp://a.test/'] }));
    expect([e.field, e.message]).toEqual(['urls.1', 'urls.1 is not a crawlable http(s) URL']);
  });

  it('refuses max_pages below the number of seeds (seeds count as pages)', () => {
    const e = planError(() => plan({ urls: ['https://a.test/1', 'https://a.test/2'], max_pages: 1 }));
    expect(e.field).toBe('max_pages');
    expect(plan({ urls: ['https://a.test/1', 'https://a.test/2'], max_pages: 2 }).seeds).toHaveLength(2);
  });
});
