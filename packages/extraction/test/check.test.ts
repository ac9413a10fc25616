import { describe, expect, it } from 'vitest';
import { checkExtraction, compileExtraction, schemaKey } from '../src/index.ts';
import { extraction } from './helpers.ts';

const text = (name: string, selector: string) => ({ name, selector, type: 'text' as const });

describe('checkExtraction', () => {
  it('accepts a valid definition', () => {
    const ext = extraction([text('title', 'h2 > a'), { name: 'url', selector: 'a', type: 'attribute', attribute: 'href' }], {
      computed: [{ name: 'label', operation: 'template', template: '{title} at {url} {{literal}}' }],
    });
    expect(checkExtraction(ext)).toEqual([]);
  });

  it.each([
    ['an unterminated attribute selector', 'a[href'],
    ['an empty sub-selector', 'a,'],
    ['a trailing combinator', 'a >'],
    ['whitespace only', '   '],
  ])('rejects %s as a field selector, naming its path', (_, selector) => {
    const issues = checkExtraction(extraction([text('a', 'b'), text('x', selector)]));
    expect(issues).toEqual([{ path: ['schema', 'fields', 1, 'selector'], message: 'is not a valid CSS selector' }]);
  });

  it.each([
    ['an unknown pseudo-class', 'a:hovering'],
    ['a jQuery-only pseudo-class', 'li:eq(2)'],
    ['a pseudo-element', 'p::first-line'],
  ])('rejects %s (parses, but css-select cannot run it)', (_, selector) => {
    const issues = checkExtraction(extraction([text('x', selector)]));
    expect(issues).toHaveLength(1);
    expect(issues[0].path).toEqual(['schema', 'fields', 0, 'selector']);
    expect(issues[0].message).toMatch(/not supported/);
  });

  it('rejects an invalid base selector', () => {
    expect(checkExtraction(extraction([text('x', 'b')], { base: 'div[' }))).toEqual([
      { path: ['schema', 'base_selector'], message: 'is not a valid CSS selector' },
    ]);
  });

  it('never echoes the selector in a message', () => {
    const secret = 'div.secret-class-name:unknown-pseudo(sneaky)';
    const issues = checkExtraction(extraction([text('x', secret)], { base: `${secret}[` }));
    expect(issues).toHaveLength(2);
    for (const issue of issues) {
      expect(issue.message).not.toContain('secret');
      expect(issue.message).not.toContain('sneaky');
      expect(issue.message).not.toContain('unknown-pseudo');
    }
  });

  it('requires attribute with type attribute', () => {
    expect(checkExtraction(extraction([text('a', 'b'), { name: 'url', selector: 'a', type: 'attribute' }]))).toEqual([
      { path: ['schema', 'fields', 1, 'attribute'], message: 'is required with type attribute' },
    ]);
  });

  it('rejects duplicate field names at the later one', () => {
    expect(checkExtraction(extraction([text('a', 'b'), text('c', 'd'), text('a', 'e')]))).toEqual([
      { path: ['schema', 'fields', 2, 'name'], message: 'duplicates another field name' },
    ]);
  });

  it('rejects a computed field colliding with a field or another computed field', () => {
    const ext = extraction([text('title', 'h2')], {
      computed: [
        { name: 'title', operation: 'template', template: '{title}' },
        { name: 'label', operation: 'template', template: '{title}' },
        { name: 'label', operation: 'template', template: '{title}!' },
      ],
    });
    expect(checkExtraction(ext)).toEqual([
      { path: ['computed_fields', 0, 'name'], message: 'collides with a field name' },
      { path: ['computed_fields', 2, 'name'], message: 'duplicates another computed field name' },
    ]);
  });

  it('rejects a template naming an unknown field, or a computed one', () => {
    const ext = extraction([text('title', 'h2')], {
      computed: [
        { name: 'a', operation: 'template', template: '{title} {price}' },
        { name: 'b', operation: 'template', template: '{title}' },
        { name: 'c', operation: 'template', template: '{b}' },
      ],
    });
    expect(checkExtraction(ext)).toEqual([
      { path: ['computed_fields', 0, 'template'], message: 'references a name that is not a schema field' },
      { path: ['computed_fields', 2, 'template'], message: 'references a name that is not a schema field' },
    ]);
  });

  it.each([
    ['a lone {', 'price {title', /lone \{/],
    ['a lone }', 'price } {title}', /lone \}/],
    ['an empty {}', 'x {} y', /empty/],
    ['a reference that is not a name', '{ title }', /not a field name/],
  ])('rejects a malformed template: %s', (_, template, message) => {
    const issues = checkExtraction(extraction([text('title', 'h2')], { computed: [{ name: 'c', operation: 'template', template }] }));
    expect(issues).toHaveLength(1);
    expect(issues[0].path).toEqual(['computed_fields', 0, 'template']);
    expect(issues[0].message).toMatch(message);
  });

  it('accepts literal braces', () => {
    const ext = extraction([text('title', 'h2')], { computed: [{ name: 'c', operation: 'template', template: '{{}} {{{title}}}' }] });
    expect(checkExtraction(ext)).toEqual([]);
  });
});

describe('compileExtraction', () => {
  it('throws on a definition checkExtraction rejects, without echoing the selector', () => {
    expect(() => compileExtraction(extraction([{ name: 'x', selector: 'p.private-name::after', type: 'text' }]))).toThrow(
      /schema\.fields\.0\.selector/,
    );
    try {
      compileExtraction(extraction([{ name: 'x', selector: 'p.private-name::after', type: 'text' }]));
    } catch (err) {
      expect((err as Error).message).not.toContain('private-name');
    }
  });
});

describe('schemaKey', () => {
  const ext = extraction([text('title', 'h2'), { name: 'url', selector: 'a', type: 'attribute', attribute: 'href' }]);

  it('is a stable hex digest, independent of JSON key order', () => {
    const reordered = JSON.parse(
      JSON.stringify({
        adaptive: true,
        schema: { fields: [{ type: 'text', selector: 'h2', name: 'title' }, { attribute: 'href', type: 'attribute', selector: 'a', name: 'url' }], base_selector: '.item', name: 'test' },
        type: 'json_css',
      }),
    );
    expect(schemaKey(ext)).toMatch(/^[0-9a-f]{32}$/);
    expect(schemaKey(reordered)).toBe(schemaKey(ext));
  });

  it('changes with what locates the records, not with transforms or computed fields', () => {
    const base = schemaKey(ext);
    expect(schemaKey({ ...ext, schema: { ...ext.schema, base_selector: '.other' } })).not.toBe(base);
    expect(schemaKey({ ...ext, schema: { ...ext.schema, fields: [text('title', 'h3'), ext.schema.fields[1]] } })).not.toBe(base);
    expect(schemaKey({ ...ext, schema: { ...ext.schema, fields: [text('name', 'h2'), ext.schema.fields[1]] } })).not.toBe(base);
    expect(schemaKey({ ...ext, schema: { ...ext.schema, fields: [{ ...text('title', 'h2'), transform: 'uppercase' }, ext.schema.fields[1]] } })).toBe(base);
    expect(schemaKey({ ...ext, computed_fields: [{ name: 'c', operation: 'template', template: '{title}' }] })).toBe(base);
  });
});
