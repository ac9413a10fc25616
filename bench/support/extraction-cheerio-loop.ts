import * as cheerio from 'cheerio';
import type { ExtractedRecord, ExtractionField, ExtractionRequest, FieldValue } from './extraction-corpus.ts';

/**
 * The "plain cheerio loop" of issue 14: cheerio.load, select the base elements, select each field inside each of
 * them, read text, attribute, inner HTML or every match, apply the transform, fill the templates. No memory, no
 * relocation, nothing compiled ahead. It implements json_css's documented semantics, so that it is both the CPU
 * peer of bench/extraction.bench.ts and the engine-free check of the corpus (test/extraction/corpus.test.ts):
 *
 * - records: one per element matching base_selector, in document order; fields are selected inside it (the first
 *   match in document order; `list` takes every match).
 * - text: the descendant text nodes (comments, <script> and <style> excluded), a space at the start and end of
 *   every block element and at every <br>, then every run of whitespace (JavaScript's \s, so U+00A0 too) made one
 *   space, ends trimmed.
 * - attribute: the attribute's decoded value as written; an element without it gives null.
 * - html: the inner HTML as serialized (the corpus keeps html fields to markup that Trawl's sanitizer leaves as is).
 * - list: the text of every match (transform applied to each); no match gives null.
 * - transforms: strip trims; lowercase and uppercase are JavaScript's; absolute_url resolves the trimmed value
 *   against the page URL (an unparsable value gives null).
 * - a field that matches nothing is null; a template `{name}` takes that value as it stands in the record
 *   (transformed), `{{` and `}}` are literal braces, and a referenced null makes the whole value null.
 */

export type Parser = 'parse5' | 'htmlparser2';

export interface LoopOptions {
  /** parse5 is cheerio.load's default (what a plain loop uses); htmlparser2 is the parser Trawl uses. */
  parser?: Parser;
  /**
   * Table cells and replaced, embedded and form elements are block for some readers and inline for others; the
   * corpus must not depend on it (its check runs both ways). Default: block.
   */
  ambiguousAsBlock?: boolean;
  /**
   * Select the fields in a detached copy of each base element, so that no part of a field selector can match an
   * ancestor of the record (engines differ on that; the corpus must not depend on it). Default: in place.
   */
  isolateRecords?: boolean;
}

/** Elements that separate words everywhere: HTML's block-level elements and list and table structure. */
export const BLOCK_ELEMENTS = new Set([
  'address', 'article', 'aside', 'blockquote', 'details', 'dialog', 'dd', 'div', 'dl', 'dt', 'fieldset', 'figcaption',
  'figure', 'footer', 'form', 'h1', 'h2', 'h3', 'h4', 'h5', 'h6', 'header', 'hgroup', 'hr', 'li', 'main', 'nav', 'ol',
  'p', 'pre', 'section', 'summary', 'table', 'tbody', 'thead', 'tfoot', 'tr', 'ul', 'br',
]);

/** Elements whose block-ness readers disagree on. */
export const AMBIGUOUS_ELEMENTS = new Set([
  'td', 'th', 'caption', 'img', 'svg', 'picture', 'video', 'audio', 'canvas', 'iframe', 'object', 'embed', 'button',
  'input', 'select', 'option', 'textarea', 'label', 'legend', 'menu', 'noscript', 'template', 'center', 'meter',
  'progress', 'output',
]);

const SKIPPED = new Set(['script', 'style']);

/** The parts of a domhandler node the loop reads (cheerio's trees are domhandler trees with either parser). */
interface TreeNode {
  type: string;
  name?: string;
  data?: string;
  children?: TreeNode[];
}

export function loadPage(html: string, parser: Parser = 'parse5'): cheerio.CheerioAPI {
  return parser === 'parse5' ? cheerio.load(html) : cheerio.load(html, { xml: { xmlMode: false, decodeEntities: true } });
}

/** The text of an element as json_css defines it. */
export function collapsedText(element: unknown, ambiguousAsBlock = true): string {
  const parts: string[] = [];
  const stack: (TreeNode | null)[] = [];
  const root = element as TreeNode;
  for (let i = (root.children?.length ?? 0) - 1; i >= 0; i--) stack.push(root.children![i]);
  while (stack.length > 0) {
    const node = stack.pop()!;
    if (node === null) {
      parts.push(' ');
      continue;
    }
    if (node.type === 'text') {
      parts.push(node.data ?? '');
      continue;
    }
    if (node.name === undefined || node.children === undefined || SKIPPED.has(node.name)) continue;
    if (node.type !== 'tag' && node.type !== 'script' && node.type !== 'style') continue;
    const block = BLOCK_ELEMENTS.has(node.name) || (ambiguousAsBlock && AMBIGUOUS_ELEMENTS.has(node.name));
    if (block) {
      parts.push(' ');
      stack.push(null);
    }
    for (let i = node.children.length - 1; i >= 0; i--) stack.push(node.children[i]);
  }
  return parts.join('').replace(/\s+/g, ' ').trim();
}

function transformed(value: string | null, field: ExtractionField, pageUrl: string): string | null {
  if (value === null) return null;
  switch (field.transform) {
    case undefined:
      return value;
    case 'strip':
      return value.trim();
    case 'lowercase':
      return value.toLowerCase();
    case 'uppercase':
      return value.toUpperCase();
    case 'absolute_url': {
      const trimmed = value.trim();
      if (trimmed === '') return null;
      try {
        return new URL(trimmed, pageUrl).href;
      } catch {
        return null;
      }
    }
  }
}

/** A template's value over a record: null when a referenced value is null (or a list, or unknown). */
export function renderTemplate(template: string, record: ExtractedRecord): string | null {
  let out = '';
  for (let i = 0; i < template.length; i++) {
    const c = template[i];
    if (c === '{' && template[i + 1] === '{') {
      out += '{';
      i++;
    } else if (c === '}' && template[i + 1] === '}') {
      out += '}';
      i++;
    } else if (c === '{') {
      const end = template.indexOf('}', i + 1);
      if (end < 0) throw new Error(`unclosed {…} in template ${JSON.stringify(template)}`);
      const value = record[template.slice(i + 1, end)];
      if (typeof value !== 'string') return null;
      out += value;
      i = end;
    } else out += c;
  }
  return out;
}

/** The records of a loaded page. */
export function extractWithCheerio($: cheerio.CheerioAPI, request: ExtractionRequest, pageUrl: string, options: LoopOptions = {}): ExtractedRecord[] {
  const asBlock = options.ambiguousAsBlock ?? true;
  const records: ExtractedRecord[] = [];
  for (const base of $(request.schema.base_selector).toArray()) {
    const record: ExtractedRecord = {};
    const scope = options.isolateRecords ? $(base).clone() : $(base);
    for (const field of request.schema.fields) {
      const matches = scope.find(field.selector);
      let value: FieldValue = null;
      if (field.type === 'list') {
        const items = matches.toArray().map((el) => transformed(collapsedText(el, asBlock), field, pageUrl));
        value = items.length === 0 ? null : items.filter((v): v is string => v !== null);
      } else if (matches.length > 0) {
        const first = matches.first();
        const raw =
          field.type === 'text' ? collapsedText(first[0], asBlock)
          : field.type === 'attribute' ? (first.attr(field.attribute ?? '') ?? null)
          : first.html();
        value = transformed(raw, field, pageUrl);
      }
      record[field.name] = value;
    }
    for (const computed of request.computed_fields ?? []) record[computed.name] = renderTemplate(computed.template, record);
    records.push(record);
  }
  return records;
}

/** Parse and extract: the whole plain loop. */
export function cheerioExtract(html: string, request: ExtractionRequest, pageUrl: string, options: LoopOptions = {}): ExtractedRecord[] {
  return extractWithCheerio(loadPage(html, options.parser), request, pageUrl, options);
}
