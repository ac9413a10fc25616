import { describe, expect, it } from 'vitest';
import { z } from 'zod';
import {
  ADAPTIVE_ACTIONS,
  AdaptiveExtractionDiagnostics,
  CrawlRequest,
  EXTRACTION_LIMITS,
  Extraction,
  extractionRuleIssues,
  parseTemplate,
} from '../src/index.ts';

const field = (name: string, extra: Record<string, unknown> = {}) => ({ name, selector: `.${name}`, type: 'text', ...extra });
const body = (extraction: Record<string, unknown>) => ({ type: 'json_css', schema: { name: 's', base_selector: '.card', fields: [field('a')] }, ...extraction });
const issuesOf = (value: unknown) => {
  const r = Extraction.safeParse(value);
  return r.success ? [] : r.error.issues.map((i) => ({ path: i.path, message: i.message }));
};

describe('Extraction', () => {
  it('defaults adaptive to true and accepts the extension types and transforms', () => {
    const parsed = Extraction.parse(
      body({
        schema: {
          name: 's',
          base_selector: '.card',
          fields: [
            field('t', { transform: 'strip' }),
            field('u', { type: 'attribute', attribute: 'href', transform: 'absolute_url' }),
            field('h', { type: 'html' }),
            field('l', { type: 'list', transform: 'lowercase' }),
            field('la', { type: 'list', attribute: 'src', transform: 'uppercase' }),
          ],
        },
        computed_fields: [{ name: 'c', operation: 'template', template: '{t} {{x}}' }],
      }),
    );
    expect(parsed.adaptive).toBe(true);
    expect(Extraction.parse(body({ adaptive: false })).adaptive).toBe(false);
  });

  it('states its limits', () => {
    expect(EXTRACTION_LIMITS).toMatchObject({ fields: 100, computed_fields: 100, selector_length: 1000, template_length: 2000 });
    const tooMany = Array.from({ length: 101 }, (_, i) => field(`f${i}`));
    expect(issuesOf(body({ schema: { name: 's', base_selector: '.c', fields: tooMany } }))[0].path).toEqual(['schema', 'fields']);
    expect(issuesOf(body({ schema: { name: 's', base_selector: 'a'.repeat(1001), fields: [field('a')] } }))[0].path).toEqual(['schema', 'base_selector']);
    expect(issuesOf(body({ computed_fields: [{ name: 'c', operation: 'template', template: 'x'.repeat(2001) }] }))[0].path).toEqual([
      'computed_fields', 0, 'template',
    ]);
    const computed = Array.from({ length: 101 }, (_, i) => ({ name: `c${i}`, operation: 'template', template: '' }));
    expect(issuesOf(body({ computed_fields: computed }))[0].path).toEqual(['computed_fields']);
  });

  it.each(['1st', 'has space', 'a{b}', 'x'.repeat(101), '', '__proto__', 'a.b'])('rejects the name %j', (name) => {
    expect(issuesOf(body({ schema: { name: 's', base_selector: '.c', fields: [field('ok'), { ...field('x'), name }] } }))[0].path).toEqual([
      'schema', 'fields', 1, 'name',
    ]);
  });

  it.each(['_private', 'price-eur', 'A1', 'x'.repeat(100)])('accepts the name %j', (name) => {
    expect(issuesOf(body({ schema: { name: 's', base_selector: '.c', fields: [{ ...field('x'), name }] } }))).toEqual([]);
  });

  it('reports the cross-field rules at their paths, inside a crawl request too', () => {
    const ext = body({
      schema: { name: 's', base_selector: '.c', fields: [field('a'), field('u', { type: 'attribute' }), field('a')] },
      computed_fields: [
        { name: 'a', operation: 'template', template: '{a}' },
        { name: 'c', operation: 'template', template: '{missing}' },
        { name: 'd', operation: 'template', template: '{a' },
      ],
    });
    const expectedIssues = [
      { path: ['schema', 'fields', 1, 'attribute'], message: 'is required with type attribute' },
      { path: ['schema', 'fields', 2, 'name'], message: 'duplicates another field name' },
      { path: ['computed_fields', 0, 'name'], message: 'collides with a field name' },
      { path: ['computed_fields', 1, 'template'], message: 'references a name that is not a schema field' },
      { path: ['computed_fields', 2, 'template'], message: 'has a lone { (write {{ for a literal brace)' },
    ];
    expect(issuesOf(ext)).toEqual(expectedIssues);
    const crawl = CrawlRequest.safeParse({ urls: ['https://a.example/'], extraction: ext });
    expect(crawl.success).toBe(false);
    expect(crawl.error!.issues.map((i) => i.path)).toEqual(expectedIssues.map((i) => ['extraction', ...i.path]));
    expect(extractionRuleIssues(Extraction.parse(body({})))).toEqual([]);
  });

  it('documents its limits in the generated JSON Schema', () => {
    const schema = JSON.stringify(z.toJSONSchema(Extraction, { io: 'input' }));
    expect(schema).toContain('"maxItems":100');
    expect(schema).toContain('"maxLength":1000');
    expect(schema).toContain('"maxLength":2000');
    expect(schema).toContain('at most 1000 characters');
    expect(schema).toContain('"default":true');
    expect(schema).toContain('^[A-Za-z_][A-Za-z0-9_-]{0,99}$');
  });
});

describe('parseTemplate', () => {
  it('splits literals and references, braces doubled for literals', () => {
    expect(parseTemplate('{a}-{{b}}-{c_d}')).toEqual({ parts: [{ field: 'a' }, { literal: '-{b}-' }, { field: 'c_d' }] });
    expect(parseTemplate('')).toEqual({ parts: [] });
    expect(parseTemplate('}}{{')).toEqual({ parts: [{ literal: '}{' }] });
  });

  it.each(['{', '}', 'a}b', '{}', '{a', '{ a }', '{{a}', '{a}}'])('rejects %j', (template) => {
    expect(parseTemplate(template)).toHaveProperty('error');
  });
});

describe('AdaptiveExtractionDiagnostics', () => {
  it('takes the adaptive actions, and none for a page without extraction', () => {
    for (const action of [...ADAPTIVE_ACTIONS, 'none']) {
      expect(AdaptiveExtractionDiagnostics.safeParse({ enabled: true, used: false, action, confidence: 0.5 }).success, action).toBe(true);
    }
    expect(AdaptiveExtractionDiagnostics.safeParse({ enabled: true, used: false, action: 'guessed', confidence: 0.5 }).success).toBe(false);
  });
});
