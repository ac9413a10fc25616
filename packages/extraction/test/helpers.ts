import { parseHtml } from '@trawl/content';
import type { Extraction } from '@trawl/contract';
import { compileExtraction, extractRecords, parseSelectorMemory, type ExtractionOutcome, type SelectorMemory } from '../src/index.ts';

type Field = Extraction['schema']['fields'][number];

/** An extraction definition as the contract's parse leaves it (adaptive defaulted). */
export function extraction(fields: Field[], options: { base?: string; computed?: Extraction['computed_fields'] } = {}): Extraction {
  return {
    type: 'json_css',
    schema: { name: 'test', base_selector: options.base ?? '.item', fields },
    ...(options.computed === undefined ? {} : { computed_fields: options.computed }),
    adaptive: true,
  };
}

export const PAGE = 'https://site.example/list/page.html';

/** Runs one extraction on an HTML snippet. */
export function run(
  html: string,
  ext: Extraction,
  options: { memory?: SelectorMemory | null; adaptive?: boolean; now?: number; pageUrl?: string } = {},
): ExtractionOutcome {
  return extractRecords(parseHtml(html), compileExtraction(ext), {
    pageUrl: options.pageUrl ?? PAGE,
    memory: options.memory ?? null,
    adaptive: options.adaptive ?? true,
    ...(options.now === undefined ? {} : { now: options.now }),
  });
}

/**
 * A site's redesign as the tests replay it: the memory learned on v1 (through its JSON form, as a store keeps it),
 * and extraction of another page with that memory.
 */
export function redesign(compiled: ReturnType<typeof compileExtraction>, pageUrl: string, v1: () => string) {
  const learned = (): SelectorMemory => {
    const out = extractRecords(parseHtml(v1()), compiled, { pageUrl, memory: null, adaptive: true });
    return parseSelectorMemory(JSON.stringify(out.memory))!;
  };
  const extract = (html: string): ExtractionOutcome => extractRecords(parseHtml(html), compiled, { pageUrl, memory: learned(), adaptive: true });
  return { learned, extract };
}
