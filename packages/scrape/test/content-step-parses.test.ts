import { describe, expect, it } from 'vitest';
import { DEFAULT_CONTENT_LIMITS, htmlParses } from '@trawl/content';
import { Extraction } from '@trawl/contract';
import { processContent } from '../src/content-step.ts';

/**
 * One parse per page, counted rather than timed: Markdown, sanitized HTML, metadata, links and record extraction
 * all read the same document, so a change that parses a page a second time fails here.
 */
const PAGE = `<!doctype html><html><head><title>Tide clocks</title><meta name="description" content="Clocks"></head><body>
<nav><a href="/">Home</a></nav><main><h1>Tide clocks</h1><p>Clocks, bells and barometers for a house by the sea, made in the harbour workshop.</p>
<ul class="grid">${['Oak', 'Walnut', 'Brass'].map((n, i) => `<li class="card"><a href="/p/${i}">${n} tide clock</a><span class="price">£${40 + i}</span></li>`).join('')}</ul></main></body></html>`;

const EXTRACTION = Extraction.parse({
  type: 'json_css',
  schema: { name: 'cards', base_selector: 'li.card', fields: [{ name: 'name', selector: 'a', type: 'text' }, { name: 'price', selector: '.price', type: 'text' }] },
});

describe('the content step', () => {
  it('parses a page once for its Markdown, HTML, metadata, links and records', () => {
    const before = htmlParses();
    const out = processContent({
      body: Buffer.from(PAGE),
      contentType: 'text/html; charset=utf-8',
      url: 'https://shop.example.test/clocks',
      limits: DEFAULT_CONTENT_LIMITS,
      extraction: { request: EXTRACTION, memory: null },
    });
    expect(htmlParses() - before).toBe(1);
    expect(out.markdown).toContain('Clocks, bells and barometers');
    expect(out.links).toContain('https://shop.example.test/p/1');
    expect(out.extraction?.records).toEqual([
      { name: 'Oak tide clock', price: '£40' },
      { name: 'Walnut tide clock', price: '£41' },
      { name: 'Brass tide clock', price: '£42' },
    ]);
  });
});
