// Hand-written HTML fixtures for the content tests: a typical article page with every kind of page furniture
// around it, and helpers to wrap bodies into a page.
import { normalizeContent } from '../src/index.ts';

export const ARTICLE_PARAGRAPHS = [
  'Tide pools form where the sea retreats twice a day and leaves water trapped among the rocks. The animals that live there must survive heat, cold, fresh rain and pounding surf, sometimes within a single afternoon.',
  'Anemones close into tight green knots when the water drains away, holding a little sea inside their bodies until the tide returns. Barnacles seal their plates shut and wait, breathing almost nothing for hours.',
  'Visitors can help by stepping only on bare rock, returning every turned stone to the exact place it came from, and leaving shells where they lie, because hermit crabs depend on a steady supply of empty homes.',
];

export function page(body: string, head = '<title>Test page</title>'): string {
  return `<!doctype html><html lang="en"><head><meta charset="utf-8">${head}</head><body>${body}</body></html>`;
}

/** A page head with a title and, when given, the page's JSON-LD structured data. */
export function structuredHead(title: string, jsonLd: object | null): string {
  return `<title>${title}</title>${jsonLd ? `<script type="application/ld+json">${JSON.stringify(jsonLd)}</script>` : ''}`;
}

/** The Markdown of a shop's page at url, with a title and the given JSON-LD (or none). */
export function shopPageMarkdown(url: string, title: string, body: string, jsonLd: object | null): string {
  return normalizeContent({ body: Buffer.from(page(body, structuredHead(title, jsonLd))), contentType: 'text/html; charset=utf-8', url }).markdown;
}

/** An article page surrounded by navigation, a cookie banner, a sidebar, share buttons, scripts and a footer. */
export function articlePage(extraArticle = ''): string {
  return page(
    `
    <div id="cookie-banner" class="cookie-consent">We use cookies to improve your experience. <button>Accept all cookies</button></div>
    <header class="site-header">
      <a href="/">Shoreline Weekly</a>
      <nav><ul><li><a href="/news">News</a></li><li><a href="/travel">Travel</a></li><li><a href="/science">Science</a></li></ul></nav>
    </header>
    <div class="layout">
      <main>
        <article>
          <h1>Life in the tide pools</h1>
          ${ARTICLE_PARAGRAPHS.map((text) => `<p>${text}</p>`).join('\n')}
          <h2>What to bring</h2>
          <ul><li>Shoes with a good grip</li><li>A tide table for the day</li></ul>
          <p>Read the <a href="/guides/tide-tables#today">guide to tide tables</a> before you go.</p>
          ${extraArticle}
          <div class="share-buttons"><a href="https://social.example/share">Share on Social</a> <a href="mailto:?subject=tides">Email this story</a></div>
        </article>
      </main>
      <aside class="sidebar"><h3>Most read</h3><ul><li><a href="/a">Storm season arrives early</a></li><li><a href="/b">Ferry timetable changes</a></li></ul></aside>
    </div>
    <footer class="site-footer"><p>Copyright Shoreline Weekly. All rights reserved.</p><a href="/privacy">Privacy policy</a></footer>
    <script>window.analytics = { track: function () {} };</script>
    `,
    `<title>Life in the tide pools | Shoreline Weekly</title>`,
  );
}

export function html(body: string, contentType = 'text/html; charset=utf-8') {
  return { body: Buffer.from(body, 'utf8'), contentType, url: 'https://news.example.com/stories/tide-pools' };
}
