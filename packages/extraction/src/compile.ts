import { createHash } from 'node:crypto';
import { extractionRuleIssues, type Extraction, type ExtractionIssue, type TemplatePart } from '@trawl/contract';
import { compileSelector, selectorProblem, type CompiledSelector } from './css-engine.ts';
import { compileTemplate } from './template.ts';
import type { ValueSpec } from './values.ts';

export interface CompiledField extends ValueSpec {
  readonly name: string;
  readonly selector: CompiledSelector;
}

/** An extraction ready to run on many pages: selectors compiled once (per crawl). */
export interface CompiledExtraction {
  readonly base: CompiledSelector;
  readonly fields: readonly CompiledField[];
  readonly computed: readonly { readonly name: string; readonly parts: readonly TemplatePart[] }[];
  /** schemaKey of the definition, to tell memory of another schema apart. */
  readonly key: string;
}

/**
 * Every problem of an extraction definition, [] when it is usable: the contract's rules (attribute type without
 * attribute, duplicate names, computed names colliding, malformed templates or unknown references) and CSS syntax
 * of base_selector and every field selector (css-what parse, then css-select compile, so unsupported
 * pseudo-classes and pseudo-elements are caught). Paths are relative to the `extraction` object; messages never
 * quote the definition.
 */
export function checkExtraction(ext: Extraction): ExtractionIssue[] {
  const issues: ExtractionIssue[] = [];
  const baseProblem = selectorProblem(ext.schema.base_selector);
  if (baseProblem !== null) issues.push({ path: ['schema', 'base_selector'], message: baseProblem });
  ext.schema.fields.forEach((field, i) => {
    const problem = selectorProblem(field.selector);
    if (problem !== null) issues.push({ path: ['schema', 'fields', i, 'selector'], message: problem });
  });
  issues.push(...extractionRuleIssues(ext));
  return issues;
}

/** Compiles a definition once per crawl. Throws when checkExtraction finds a problem (callers check first). */
export function compileExtraction(ext: Extraction): CompiledExtraction {
  const issues = checkExtraction(ext);
  if (issues.length > 0) throw new Error(`extraction is not valid at ${issues[0].path.join('.')}: ${issues[0].message}`);
  return {
    base: compileSelector(ext.schema.base_selector),
    fields: ext.schema.fields.map((field) => ({
      name: field.name,
      selector: compileSelector(field.selector),
      type: field.type,
      attribute: field.attribute === undefined ? null : field.attribute.toLowerCase(),
      transform: field.transform ?? null,
    })),
    computed: (ext.computed_fields ?? []).map((computed) => ({ name: computed.name, parts: compileTemplate(computed.template) })),
    key: schemaKey(ext),
  };
}

/**
 * A stable hex digest of what locates the records: base_selector and each field's name, selector, type and
 * attribute, in field order (transforms and computed fields do not change what is located, so they do not change
 * the key). Built from arrays, so independent of the JSON key order the definition arrived in.
 */
export function schemaKey(ext: Extraction): string {
  const canonical = JSON.stringify([
    1,
    ext.schema.base_selector,
    ext.schema.fields.map((f) => [f.name, f.selector, f.type, f.attribute === undefined ? null : f.attribute.toLowerCase()]),
  ]);
  return createHash('sha256').update(canonical).digest('hex').slice(0, 32);
}
