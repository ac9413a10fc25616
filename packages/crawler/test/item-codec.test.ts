import { describe, expect, it } from 'vitest';
import { decodeItem, encodeItem } from '../src/api/item-codec.ts';
import type { StoredItem } from '../src/api/views.ts';

const item = (markdown: string, html: string | null): StoredItem =>
  ({
    url: 'https://shop.example.test/p/1',
    final_url: 'https://shop.example.test/p/1',
    depth: 1,
    parent_url: 'https://shop.example.test/',
    status: 'completed',
    title: 'Oak tide clock: "quoted" <b>',
    content: { markdown, html, metadata: { title: 'Oak', open_graph: { 'og:title': 'x:y' } }, links: ['https://shop.example.test/p/2'] },
    records: [{ name: 'Oak' }],
    audit: { engine_winner: 'light' },
    diagnostics: {},
    created_at: '2026-12-02T11:00:00.000Z',
  }) as unknown as StoredItem;

describe('stored crawl items', () => {
  it('come back equal, key order included, whatever their Markdown and HTML hold', () => {
    for (const [md, html] of [
      ['# Oak\n\n"quotes", \\ backslashes, \u0001 control, émoji 🕰️, colons: 12:30', '<p class="a">"x" é 🕰️</p>\n<script>\u2028</script>'],
      ['', ''],
      ['only markdown', null],
      ['}{ looks like JSON :', '{"not": "json"}'],
    ] as const) {
      const original = item(md, html);
      const back = decodeItem(encodeItem(original));
      expect(back).toEqual(original);
      expect(JSON.stringify(back)).toBe(JSON.stringify(original));
    }
  });

  it('reads items stored as plain JSON before this format', () => {
    const original = item('# Oak', '<h1>Oak</h1>');
    expect(decodeItem(JSON.stringify(original))).toEqual(original);
  });

  it('keeps the Markdown and HTML out of JSON escaping', () => {
    const raw = encodeItem(item('say "hi"', '<a href="/x">x</a>'));
    expect(raw.endsWith('say "hi"<a href="/x">x</a>')).toBe(true);
  });
});
