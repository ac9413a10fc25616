import type { StoredItem } from './views.ts';

/**
 * How a delivered item is kept in the crawl store (a string, in Redis and on disk alike). The page's Markdown and
 * HTML, nearly all of an item, are kept as they are after a small JSON head, instead of as JSON strings: escaping
 * them (an HTML page's every quote) made JSON.stringify of the item 0.1-0.2 ms of a crawl page's CPU, and parsing
 * them back cost every read. Items stored as plain JSON (before this format) are read as they are.
 *
 *   \u0001<head length>:<head JSON><markdown><html>
 *
 * The head is the item with `content.markdown` and `content.html` left out and their lengths in UTF-16 units
 * (`m`, and `h`: -1 for a null html).
 */
const MARK = '\u0001';

type Head = Omit<StoredItem, 'content'> & { content: Omit<StoredItem['content'], 'markdown' | 'html'>; m: number; h: number };

export function encodeItem(item: StoredItem): string {
  const { markdown, html, ...content } = item.content;
  const head = JSON.stringify({ ...item, content, m: markdown.length, h: html === null ? -1 : html.length } satisfies Head);
  return `${MARK}${head.length}:${head}${markdown}${html ?? ''}`;
}

export function decodeItem(raw: string): StoredItem {
  if (!raw.startsWith(MARK)) return JSON.parse(raw) as StoredItem;
  const colon = raw.indexOf(':');
  const start = colon + 1;
  const end = start + Number(raw.slice(1, colon));
  const head = JSON.parse(raw.slice(start, end)) as Partial<Head>;
  const m = head.m!;
  const h = head.h!;
  delete head.m;
  delete head.h;
  // Keys in their stored order, as the API has always shown them: the content's text first.
  const item = head as unknown as StoredItem;
  item.content = { markdown: raw.slice(end, end + m), html: h < 0 ? null : raw.slice(end + m, end + m + h), ...head.content! };
  return item;
}
