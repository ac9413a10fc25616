import { describe, expect, it } from 'vitest';
import { DEFAULT_CONTENT_LIMITS, normalizeContent, type ContentLimits } from '../src/index.ts';
import { ARTICLE_PARAGRAPHS, page } from './fixtures.ts';

const run = (body: string, limits?: ContentLimits) =>
  normalizeContent({ body: Buffer.from(body), contentType: 'text/html; charset=utf-8', url: 'https://news.example.com/a', limits });

describe('structural limits', () => {
  it('leaves an ordinary page alone and says so', () => {
    const r = run(page(`<main><h1>Title</h1><p>${ARTICLE_PARAGRAPHS[0]}</p><a href="/next">next</a></main>`));
    expect(r.limitsApplied).toEqual([]);
    expect(r.links).toEqual(['https://news.example.com/next']);
  });

  it('flattens nesting past the depth limit into text, keeping a deep link as a link', () => {
    const depth = 300_000;
    const body = page(`${'<div>'.repeat(depth)}<p>${ARTICLE_PARAGRAPHS[0]} <a href="/deep">deep link</a></p>${'</div>'.repeat(depth)}<p>after the depths</p>`);
    const r = run(body);
    expect(r.limitsApplied).toEqual(['nesting_depth']);
    expect(r.markdown).toContain('Tide pools form where the sea retreats');
    expect(r.markdown).toContain('after the depths');
    expect(r.links).toContain('https://news.example.com/deep');
  });

  it('closes kept elements correctly after ignored ones (ignored close tags do not close ancestors)', () => {
    const limits = { ...DEFAULT_CONTENT_LIMITS, maxDepth: 40 };
    const body = page(`<main><section><h2>Kept</h2>${'<div>'.repeat(100)}deep${'</div>'.repeat(100)}<p>sibling paragraph</p></section></main>`);
    const r = run(body, limits);
    expect(r.limitsApplied).toEqual(['nesting_depth']);
    expect(r.html).toMatch(/deep[\s\S]*sibling paragraph/);
    expect(r.markdown).toContain('## Kept');
  });

  it('cuts the page at the element limit', () => {
    const items = Array.from({ length: 5000 }, (_, i) => `<p>para ${i}</p>`).join('');
    const r = run(page(`<main>${items}</main>`), { ...DEFAULT_CONTENT_LIMITS, maxElements: 1000 });
    expect(r.limitsApplied).toEqual(['element_count']);
    expect(r.markdown).toContain('para 900');
    expect(r.markdown).not.toContain('para 1000');
  });

  it('keeps the first links up to the link limit', () => {
    const links = Array.from({ length: 300 }, (_, i) => `<a href="/p/${i}">p${i}</a>`).join(' ');
    const r = run(page(`<main><p>${links}</p></main>`), { ...DEFAULT_CONTENT_LIMITS, maxLinks: 100 });
    expect(r.limitsApplied).toEqual(['link_count']);
    expect(r.links).toHaveLength(100);
    expect(r.links[99]).toBe('https://news.example.com/p/99');
  });
});
