import { z } from 'zod';

// The crawl's `extraction` definition (spec 2.6, issue 14): json_css records, computed template fields and the
// adaptive switch. Every rule zod can state lives here, so request validation and the extraction engine
// (@trawl/extraction's checkExtraction, which adds the CSS-syntax rules) apply the same ones.

/** Documented limits of an extraction definition. */
export const EXTRACTION_LIMITS = {
  fields: 100,
  computed_fields: 100,
  selector_length: 1000,
  template_length: 2000,
  /** Field, computed field and schema names. */
  name_length: 100,
  attribute_length: 200,
} as const;

/** Field and computed-field names: usable as `{name}` template keys and as record keys. */
export const EXTRACTION_NAME_PATTERN = /^[A-Za-z_][A-Za-z0-9_-]{0,99}$/;
/** Attribute names as HTML writes them (no space, quote, `>`, `/` or `=`). */
const ATTRIBUTE_NAME_PATTERN = /^[^\s"'>/=\u0000-\u001f]+$/;

export const EXTRACTION_FIELD_TYPES = ['text', 'attribute', 'html', 'list'] as const;
export type ExtractionFieldType = (typeof EXTRACTION_FIELD_TYPES)[number];
export const EXTRACTION_TRANSFORMS = ['strip', 'lowercase', 'uppercase', 'absolute_url'] as const;
export type ExtractionTransform = (typeof EXTRACTION_TRANSFORMS)[number];

/**
 * What adaptive extraction did on a page (diagnostics.adaptive_extraction.action): `matched` the schema's selectors
 * found the records; `reused` the remembered structure relocated them (or some fields) after the selectors stopped
 * matching; `low_confidence` relocation was tried but nothing was similar enough, so nothing was guessed;
 * `no_memory` the selectors matched nothing and nothing was remembered for this schema yet; `disabled`
 * `extraction.adaptive` is false.
 */
export const ADAPTIVE_ACTIONS = ['matched', 'reused', 'low_confidence', 'no_memory', 'disabled'] as const;
export type AdaptiveAction = (typeof ADAPTIVE_ACTIONS)[number];

export const CssSelector = z
  .string()
  .min(1)
  .max(EXTRACTION_LIMITS.selector_length)
  .meta({ description: `CSS selector, at most ${EXTRACTION_LIMITS.selector_length} characters.` });

const Name = z
  .string()
  .regex(EXTRACTION_NAME_PATTERN, 'must start with a letter or underscore and use only letters, digits, _ and - (at most 100)')
  .refine((name) => name !== '__proto__', 'is a reserved name')
  .meta({ description: 'Letters, digits, `_` and `-`, starting with a letter or `_`, at most 100 characters: `{name}` in templates.' });

export const ExtractionField = z
  .strictObject({
    name: Name,
    selector: CssSelector.meta({
      description: `CSS selector (at most ${EXTRACTION_LIMITS.selector_length} characters) evaluated inside each record element: its first match, every match for \`list\`.`,
    }),
    type: z.enum(EXTRACTION_FIELD_TYPES).meta({
      description:
        '`text`: descendant text, whitespace collapsed, blocks separated by a space. `attribute`: the value of `attribute`. ' +
        'Extensions: `html`: inner HTML, sanitized like the page html output; `list`: every match\'s text (or `attribute` value) as an array. ' +
        'A field that matches nothing is null.',
    }),
    attribute: z
      .string()
      .min(1)
      .max(EXTRACTION_LIMITS.attribute_length)
      .regex(ATTRIBUTE_NAME_PATTERN, 'must be an attribute name')
      .optional()
      .meta({ description: 'Attribute name; required with type `attribute`, optional with `list`.' }),
    transform: z.enum(EXTRACTION_TRANSFORMS).optional().meta({
      description:
        '`strip`: trims whitespace. Extensions: `lowercase`, `uppercase`, `absolute_url` (resolved against the page URL; null when it cannot be).',
    }),
  })
  .meta({ id: 'ExtractionField' });
export type ExtractionField = z.infer<typeof ExtractionField>;

export const ComputedField = z
  .strictObject({
    name: Name,
    operation: z.enum(['template']),
    template: z.string().max(EXTRACTION_LIMITS.template_length).meta({
      description:
        `At most ${EXTRACTION_LIMITS.template_length} characters. \`{name}\` is replaced by that schema field's value (a list joined with ", "); ` +
        '`{{` and `}}` are literal braces; null when a referenced field is null.',
    }),
  })
  .meta({ id: 'ComputedField' });
export type ComputedField = z.infer<typeof ComputedField>;

export const ExtractionSchema = z.strictObject({
  name: z.string().min(1).max(200),
  base_selector: CssSelector.meta({
    description: `CSS selector (at most ${EXTRACTION_LIMITS.selector_length} characters); each matching element, in document order, is one record.`,
  }),
  fields: z
    .array(ExtractionField)
    .min(1)
    .max(EXTRACTION_LIMITS.fields)
    .meta({ description: `1 to ${EXTRACTION_LIMITS.fields} fields, unique names.` }),
});

export const Extraction = z
  .strictObject({
    type: z.enum(['json_css']),
    schema: ExtractionSchema,
    computed_fields: z
      .array(ComputedField)
      .max(EXTRACTION_LIMITS.computed_fields)
      .optional()
      .meta({ description: `At most ${EXTRACTION_LIMITS.computed_fields}; names distinct from the fields and each other.` }),
    adaptive: z.boolean().default(true).meta({
      description:
        'Remember the structure the selectors matched and relocate records by similarity when they stop matching (a redesign). Default true.',
    }),
  })
  .superRefine((ext, ctx) => {
    for (const issue of extractionRuleIssues(ext)) ctx.addIssue({ code: 'custom', path: issue.path, message: issue.message });
  })
  .meta({ id: 'Extraction' });
export type Extraction = z.infer<typeof Extraction>;

/** A problem in an extraction definition; path is relative to the `extraction` object. */
export interface ExtractionIssue {
  path: (string | number)[];
  message: string;
}

/** A template as literal text and field references. */
export type TemplatePart = { literal: string } | { field: string };

/** The parts of a template, or why it is malformed. Never echoes the template. */
export function parseTemplate(template: string): { parts: TemplatePart[] } | { error: string } {
  const parts: TemplatePart[] = [];
  let literal = '';
  for (let i = 0; i < template.length; i++) {
    const c = template[i];
    if (c === '}') {
      if (template[i + 1] !== '}') return { error: 'has a lone } (write }} for a literal brace)' };
      literal += '}';
      i++;
      continue;
    }
    if (c !== '{') {
      literal += c;
      continue;
    }
    if (template[i + 1] === '{') {
      literal += '{';
      i++;
      continue;
    }
    const end = template.indexOf('}', i + 1);
    if (end < 0) return { error: 'has a lone { (write {{ for a literal brace)' };
    const name = template.slice(i + 1, end);
    if (name === '') return { error: 'has an empty {} reference' };
    if (!EXTRACTION_NAME_PATTERN.test(name)) return { error: 'has a reference that is not a field name (write {{ for a literal brace)' };
    if (literal !== '') parts.push({ literal });
    literal = '';
    parts.push({ field: name });
    i = end;
  }
  if (literal !== '') parts.push({ literal });
  return { parts };
}

type ExtractionShape = Pick<Extraction, 'schema' | 'computed_fields'>;

/**
 * The rules across fields that zod's per-value checks cannot state: `attribute` type needs `attribute`, unique
 * field names, computed names distinct from fields and each other, well-formed templates naming schema fields only.
 * (CSS syntax is checked by @trawl/extraction's checkExtraction, which adds its issues to these.)
 */
export function extractionRuleIssues(ext: ExtractionShape): ExtractionIssue[] {
  const issues: ExtractionIssue[] = [];
  const fieldNames = new Set<string>();
  ext.schema.fields.forEach((field, i) => {
    if (field.type === 'attribute' && field.attribute === undefined) {
      issues.push({ path: ['schema', 'fields', i, 'attribute'], message: 'is required with type attribute' });
    }
    if (fieldNames.has(field.name)) issues.push({ path: ['schema', 'fields', i, 'name'], message: 'duplicates another field name' });
    fieldNames.add(field.name);
  });
  const computedNames = new Set<string>();
  (ext.computed_fields ?? []).forEach((computed, i) => {
    if (fieldNames.has(computed.name)) {
      issues.push({ path: ['computed_fields', i, 'name'], message: 'collides with a field name' });
    } else if (computedNames.has(computed.name)) {
      issues.push({ path: ['computed_fields', i, 'name'], message: 'duplicates another computed field name' });
    }
    computedNames.add(computed.name);
    const parsed = parseTemplate(computed.template);
    if ('error' in parsed) {
      issues.push({ path: ['computed_fields', i, 'template'], message: parsed.error });
      return;
    }
    for (const part of parsed.parts) {
      if ('field' in part && !fieldNames.has(part.field)) {
        issues.push({ path: ['computed_fields', i, 'template'], message: 'references a name that is not a schema field' });
        break;
      }
    }
  });
  return issues;
}
