import { describe, expect, it } from 'vitest';
import { normalizeContent } from '../src/index.ts';
import { html, page } from './fixtures.ts';

const HEAD = `
  <title>  Tide   tables for
  beginners </title>
  <meta name="description" content="How to read a tide table.">
  <link rel="canonical" href="/guides/tides">
  <meta property="og:title" content="Tide tables, explained">
  <meta property="og:image" content="/img/cover.jpg">
  <meta property="og:type" content="article">
  <meta name="twitter:card" content="summary_large_image">
  <meta name="twitter:site" content="@shoreline">`;

describe('metadata', () => {
  it('reads title, description, language, canonical URL, Open Graph and Twitter cards', () => {
    const result = normalizeContent(html(page('<h1>Heading</h1><p>Body</p>', HEAD)));
    expect(result.title).toBe('Tide tables for beginners');
    expect(result.metadata).toEqual({
      title: 'Tide tables for beginners',
      description: 'How to read a tide table.',
      language: 'en',
      canonical_url: 'https://news.example.com/guides/tides',
      open_graph: { title: 'Tide tables, explained', image: 'https://news.example.com/img/cover.jpg', type: 'article' },
      twitter: { card: 'summary_large_image', site: '@shoreline' },
    });
  });

  it('takes the title from og:title, then the first <h1>, then gives an empty string', () => {
    const og = normalizeContent(html(page('<h1>Heading</h1>', '<meta property="og:title" content="From OG">')));
    expect(og.title).toBe('From OG');
    const h1 = normalizeContent(html(page('<h1>First <em>heading</em></h1><h1>Second</h1>', '')));
    expect(h1.title).toBe('First heading');
    const none = normalizeContent(html(page('<p>No heading</p>', '')));
    expect(none.title).toBe('');
    expect(none.metadata.title).toBeNull();
    expect(none.metadata.description).toBeNull();
    expect(none.metadata.canonical_url).toBeNull();
  });

  it('falls back to og:description for the description and has no language when none is declared', () => {
    const body = '<!doctype html><html><head><meta property="og:description" content="OG text"></head><body><p>x</p></body></html>';
    const { metadata } = normalizeContent(html(body));
    expect(metadata.description).toBe('OG text');
    expect(metadata.language).toBeNull();
  });
});
