import { describe, expect, it } from 'vitest';
import { QUALITY_THRESHOLD, normalizeContent } from '../src/index.ts';
import { articlePage, html, page } from './fixtures.ts';

const BUNDLE = '<script src="/static/app.3f9a.js"></script><script>window.__STATE__ = {"user": null, "flags": [1, 2, 3]};</script>';

describe('content quality', () => {
  it('scores a real article well above the threshold, with high confidence', () => {
    const { quality } = normalizeContent(html(articlePage()));
    expect(quality.score).toBeGreaterThan(QUALITY_THRESHOLD + 0.2);
    expect(quality.low_quality).toBe(false);
    expect(quality.confidence).toBe('high');
    expect(quality.signals.main_content_found).toBe(true);
    expect(quality.signals.empty_shell).toBe(false);
    expect(quality.signals.text_length).toBeGreaterThan(500);
    expect(quality.signals.link_density).toBeLessThan(0.2);
  });

  it('marks a JavaScript app shell as a low-quality empty shell', () => {
    const { quality, markdown } = normalizeContent(html(page(`<div id="root"></div>${BUNDLE}`)));
    expect(markdown).toBe('');
    expect(quality.signals.empty_shell).toBe(true);
    expect(quality.low_quality).toBe(true);
    expect(quality.score).toBeLessThan(QUALITY_THRESHOLD);
    expect(quality.confidence).toBe('high');
  });

  it('marks a shell as empty however long its menus, header, footer and cookie note are', () => {
    const chrome =
      '<header><nav><a href="/">Harbour</a> <a href="/tides">Tides</a> <a href="/berths">Berths</a> <a href="/notices">Notices</a></nav></header>' +
      `<div class="cookie-banner">${'We use cookies to remember your settings and to count visits to the harbour pages. '.repeat(4)}<button>Accept</button></div>` +
      '<div class="story"></div>' +
      `<footer><p>${'Harbour Authority, Quay Road. All tide times are local. '.repeat(3)}</p></footer>`;
    const { quality } = normalizeContent(html(page(`${chrome}${BUNDLE}`)));
    expect(quality.signals.empty_shell).toBe(true);
    expect(quality.low_quality).toBe(true);
    // The same chrome around an article is a page.
    const article = normalizeContent(html(page(`${chrome.replace('<div class="story"></div>', `<div class="story">${articlePage()}</div>`)}${BUNDLE}`)));
    expect(article.quality.signals.empty_shell).toBe(false);
  });

  it('marks a page that is nothing but scripts as script-only', () => {
    const { quality } = normalizeContent(html(`<html><head>${BUNDLE}</head><body>${BUNDLE}</body></html>`));
    expect(quality.signals.script_only).toBe(true);
    expect(quality.low_quality).toBe(true);
  });

  it('keeps a shell with an "enable JavaScript" notice below the threshold', () => {
    const body = `<noscript>You need to enable JavaScript to run this app.</noscript><div id="app"><header><a href="/">Home</a></header></div>${BUNDLE}`;
    const { quality } = normalizeContent(html(page(body)));
    expect(quality.low_quality).toBe(true);
  });

  it('scores a near-empty page low', () => {
    const { quality } = normalizeContent(html(page('<p>Coming soon.</p>')));
    expect(quality.low_quality).toBe(true);
  });

  it('scores text and JSON bodies by their length', () => {
    const long = normalizeContent({ body: Buffer.from('Tides rise and fall. '.repeat(200)), contentType: 'text/plain', url: 'https://x.example/' });
    expect(long.quality.low_quality).toBe(false);
    const empty = normalizeContent({ body: Buffer.from(''), contentType: 'application/json', url: 'https://x.example/' });
    expect(empty.quality.low_quality).toBe(true);
  });
});
