import fc from 'fast-check';
import { parseHtml } from '@trawl/content';
import { describe, expect, it } from 'vitest';
import { compileExtraction, extractRecords, type ExtractionOutcome } from '../src/index.ts';
import { PAGE_URL, SCHEMA, v1 } from './fixtures.ts';

const compiled = compileExtraction(SCHEMA);
const memory = extractRecords(parseHtml(v1()), compiled, { pageUrl: PAGE_URL, memory: null, adaptive: true }).memory;
const FIELDS = [...SCHEMA.schema.fields.map((f) => f.name), 'label'];
const ACTIONS = ['matched', 'reused', 'low_confidence', 'no_memory', 'disabled'];

function wellFormed(out: ExtractionOutcome): void {
  expect(ACTIONS).toContain(out.adaptive.action);
  expect(out.adaptive.confidence).toBeGreaterThanOrEqual(0);
  expect(out.adaptive.confidence).toBeLessThanOrEqual(1);
  for (const record of out.records) expect(Object.keys(record)).toEqual(FIELDS);
}

describe('hostile and odd pages', () => {
  it('a 20,000-level nesting with a card at the bottom is handled without recursion', () => {
    const deep = `${'<div>'.repeat(20_000)}<section class="tile"><h3>Deep</h3><span>$1.00</span></section>${'</div>'.repeat(20_000)}`;
    for (const m of [null, memory]) wellFormed(extractRecords(parseHtml(deep), compiled, { pageUrl: PAGE_URL, memory: m, adaptive: true }));
  });

  it('a wide page of 20,000 identical siblings is handled', () => {
    const wide = `<div>${'<p class="x"><b>a</b> 1</p>'.repeat(20_000)}</div>`;
    wellFormed(extractRecords(parseHtml(wide), compiled, { pageUrl: PAGE_URL, memory, adaptive: true }));
  });

  it('random markup never throws and always gives a well-formed outcome', () => {
    const tag = fc.constantFrom('div', 'span', 'p', 'a', 'h3', 'img', 'li', 'ul', 'section', 'script', 'b', 'br');
    const cls = fc.constantFrom('', 'card', 'title', 'price', 'rating', 'photo', 'blurb', 'tile', 'x y');
    const text = fc.constantFrom('', 'Trail', '$9.99', '4.5', 'Some words here', '{', '&amp;', '<', '  ');
    const node: fc.Memo<string> = fc.memo((depth) =>
      depth <= 1
        ? text
        : fc
            .tuple(tag, cls, fc.array(node(depth - 1), { maxLength: 4 }))
            .map(([t, c, children]) => `<${t}${c === '' ? '' : ` class="${c}"`} href="/h" src="/s">${children.join('')}</${t}>`),
    );
    fc.assert(
      fc.property(fc.array(node(5), { maxLength: 6 }), fc.boolean(), (parts, withMemory) => {
        const out = extractRecords(parseHtml(parts.join('')), compiled, { pageUrl: PAGE_URL, memory: withMemory ? memory : null, adaptive: true });
        wellFormed(out);
      }),
      { numRuns: 200 },
    );
  });
});
