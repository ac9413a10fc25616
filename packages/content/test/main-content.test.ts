import { describe, expect, it } from 'vitest';
import { normalizeContent } from '../src/index.ts';
import { ARTICLE_PARAGRAPHS, articlePage, html, page } from './fixtures.ts';

describe('main content', () => {
  it('keeps the article and drops navigation, banners, sidebars, share widgets, footer and scripts', () => {
    const { markdown } = normalizeContent(html(articlePage()));
    for (const paragraph of ARTICLE_PARAGRAPHS) expect(markdown).toContain(paragraph);
    expect(markdown).toContain('## What to bring');
    expect(markdown).toMatch(/^- Shoes with a good grip$/m);
    for (const furniture of ['Accept all cookies', 'We use cookies', 'Travel', 'Most read', 'Storm season', 'Share on Social', 'All rights reserved', 'analytics']) {
      expect(markdown).not.toContain(furniture);
    }
  });

  it('writes links of the content as absolute URLs', () => {
    const { markdown } = normalizeContent(html(articlePage()));
    expect(markdown).toContain('[guide to tide tables](https://news.example.com/guides/tide-tables#today)');
  });

  it('publishes the same content as sanitized HTML', () => {
    const { html: content } = normalizeContent(html(articlePage()));
    expect(content).toContain('<h1>Life in the tide pools</h1>');
    expect(content).toContain(ARTICLE_PARAGRAPHS[0]);
    expect(content).not.toContain('Most read');
    expect(content).not.toContain('<script');
  });

  it('keeps every post of a thread whose posts are classed as comments', () => {
    const post = (author: string, text: string) =>
      `<div class="comment"><div class="comment-author">${author}</div><div class="comment-body"><p>${text}</p></div></div>`;
    const thread = page(`
      <nav><a href="/">Forum home</a> <a href="/latest">Latest</a></nav>
      <div class="thread">
        <h1>Which rope for a first climbing rack?</h1>
        ${post('ridgewalker', 'I am putting together my first rack and keep reading conflicting advice about rope diameter for a beginner who mostly climbs indoors.')}
        ${post('cragrat', 'A single rope around ten millimetres is forgiving, lasts longer in the gym and is easier to clip than the skinny ropes made for alpine routes.')}
        ${post('belaybuddy', 'Agreed, and buy a rope bag too, because keeping grit out of the sheath matters more for its lifespan than the diameter does.')}
      </div>
      <footer>Forum rules and privacy</footer>`);
    const { markdown } = normalizeContent(html(thread));
    expect(markdown).toContain('single rope around ten millimetres');
    expect(markdown).toContain('keeping grit out of the sheath');
    expect(markdown).toContain('cragrat');
    expect(markdown).not.toContain('Forum rules');
  });

  it('returns a page made only of navigation rather than nothing', () => {
    const sitemap = page('<nav><ul><li><a href="/tides">Tides</a></li><li><a href="/charts">Charts</a></li></ul></nav>');
    const { markdown } = normalizeContent(html(sitemap));
    expect(markdown).toContain('[Tides](https://news.example.com/tides)');
    expect(markdown).toContain('[Charts](https://news.example.com/charts)');
  });

  it('falls back to the whole body when no element stands out', () => {
    const { markdown, quality } = normalizeContent(html(page('Just a line of text.')));
    expect(markdown).toBe('Just a line of text.');
    expect(quality.signals.main_content_found).toBe(false);
  });
});
