import { describe, expect, it } from 'vitest';
import { MEMORY_MAX_BYTES, parseSelectorMemory, type SelectorMemory } from '../src/index.ts';
import { v1, v2 } from './fixtures.ts';
import { extraction, run } from './helpers.ts';
import { SCHEMA, PAGE_URL } from './fixtures.ts';

const learnedOnV1 = () => run(v1(), SCHEMA, { pageUrl: PAGE_URL }).memory!;

describe('selector memory', () => {
  it('round-trips through JSON and parseSelectorMemory unchanged', () => {
    const memory = learnedOnV1();
    const stored = JSON.stringify(memory);
    expect(parseSelectorMemory(JSON.parse(stored))).toEqual(memory);
    expect(parseSelectorMemory(stored)).toEqual(memory);
  });

  it('round-trips memory updated by a relocation (derived selectors included)', () => {
    const relocated = run(v2({ renamed: true, promos: true }), SCHEMA, { pageUrl: PAGE_URL, memory: learnedOnV1() }).memory!;
    expect(relocated.derived).not.toBeNull();
    expect(parseSelectorMemory(JSON.parse(JSON.stringify(relocated)))).toEqual(relocated);
  });

  it('is null for anything malformed, never throwing', () => {
    const good = JSON.parse(JSON.stringify(learnedOnV1())) as SelectorMemory & Record<string, unknown>;
    const fp = good.base[0];
    const garbage: unknown[] = [
      undefined, null, 0, 'x', '{', '[]', [], {}, true,
      { ...good, v: 2 },
      { ...good, v: '1' },
      { ...good, at: -1 },
      { ...good, at: Number.NaN },
      { ...good, src: 'guessed' },
      { ...good, base: [] },
      { ...good, base: 'div' },
      { ...good, base: [fp, fp, fp, fp] },
      { ...good, base: [{ ...fp, t: 42 }] },
      { ...good, base: [{ ...fp, t: '' }] },
      { ...good, base: [{ ...fp, c: ['a'.repeat(500)] }] },
      { ...good, base: [{ ...fp, a: Array(50).fill('x') }] },
      { ...good, base: [{ ...fp, l: 1.5 }] },
      { ...good, base: [{ ...fp, z: -1 }] },
      { ...good, base: [{ ...fp, x: 'a'.repeat(100) }] },
      { ...good, base: [{ ...fp, p: null }] },
      { ...good, fields: [] },
      { ...good, fields: 'x' },
      { ...good, fields: Array(101).fill(null) },
      { ...good, fields: [{ fp: [fp], p: 2, same: -1 }] },
      { ...good, fields: [{ fp: [fp], p: 1, same: 0 }] },
      { ...good, fields: [{ fp: [], p: 1, same: -1 }] },
      { ...good, fields: [{ fp: [fp], p: 1 }] },
      { ...good, derived: { base: 'div[', fields: good.fields.map(() => null) } },
      { ...good, derived: { base: 'div', fields: [] } },
      { ...good, derived: { base: 'div', fields: good.fields.map(() => 'p::before') } },
      { ...good, derived: 'div' },
      { ...good, padding: 'x'.repeat(MEMORY_MAX_BYTES) },
    ];
    for (const value of garbage) expect(parseSelectorMemory(value), JSON.stringify(value)?.slice(0, 80)).toBeNull();
    expect(parseSelectorMemory(good)).not.toBeNull();
  });

  it(`stays within ${MEMORY_MAX_BYTES} bytes for the largest schema (100 fields)`, () => {
    const classes = Array.from({ length: 6 }, (_, i) => `class-name-that-is-long-${'x'.repeat(20)}-${String.fromCharCode(97 + i)}`).join(' ');
    const attributes = Array.from({ length: 10 }, (_, i) => `data-attribute-name-${String.fromCharCode(97 + i)}="v"`).join(' ');
    const cell = (i: number) => `<span class="f f${i} ${classes}" ${attributes} itemprop="property-${String.fromCharCode(97 + (i % 26))}" role="note">Value ${i} $12.50</span>`;
    const card = `<div class="item ${classes}" ${attributes}>${Array.from({ length: 100 }, (_, i) => cell(i)).join('')}</div>`;
    const fields = Array.from({ length: 100 }, (_, i) => ({ name: `f${i}`, selector: `.f${i}`, type: 'text' as const }));
    const out = run(card.repeat(5), extraction(fields));
    expect(out.records).toHaveLength(5);
    expect(out.memory).not.toBeNull();
    expect(Buffer.byteLength(JSON.stringify(out.memory))).toBeLessThanOrEqual(MEMORY_MAX_BYTES);
    expect(parseSelectorMemory(JSON.parse(JSON.stringify(out.memory)))).toEqual(out.memory);
  });
});
