import { parseHtml } from '@trawl/content';
import type { Extraction } from '@trawl/contract';
import { compileExtraction, extractRecords, type ExtractionOutcome, type SelectorMemory } from '../src/index.ts';

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
