import { normalizeContent, parseHtml, type ContentLimits, type DomDocument, type NormalizedContent } from '@trawl/content';
import type { Diagnostics, Extraction } from '@trawl/contract';
import { LruMap } from '@trawl/lru';
import { compileExtraction, extractRecords, parseSelectorMemory, type CompiledExtraction } from '@trawl/extraction';

/** Record extraction asked of one page: the crawl's extraction and the selector memory stored for its domain. */
export interface ExtractionTask {
  request: Extraction;
  /** The stored selector memory (JSON), or null when none is remembered. */
  memory: string | null;
}

export interface ExtractionResult {
  records: Array<Record<string, string | string[] | null>>;
  adaptive: Diagnostics['adaptive_extraction'];
  /** Selector memory to store for the domain's next pages (JSON); null: nothing new to remember. */
  memory: string | null;
}

/** Normalized content, and the page's records when extraction was asked for. */
export interface ContentResult extends NormalizedContent {
  extraction: ExtractionResult | null;
}

// Selectors are compiled once per crawl's extraction in each thread, not once per page.
const compiled = new LruMap<string, CompiledExtraction>(64);

function compiledFor(request: Extraction): CompiledExtraction {
  const key = JSON.stringify(request);
  let c = compiled.get(key);
  if (!c) {
    c = compileExtraction(request);
    compiled.set(key, c);
  }
  return c;
}

function extractFrom(root: DomDocument, task: ExtractionTask, pageUrl: string): ExtractionResult {
  // A stored value that is not a memory of this version (or not JSON) is treated as no memory.
  const memory = task.memory === null ? null : parseSelectorMemory(task.memory);
  const out = extractRecords(root, compiledFor(task.request), { pageUrl, memory, adaptive: task.request.adaptive ?? true });
  return { records: out.records, adaptive: out.adaptive, memory: out.memory === null ? null : JSON.stringify(out.memory) };
}

/**
 * The content step of one page, in a content thread (or inline): normalization and, from the same parse, record
 * extraction over the whole page. A body that is not HTML has no elements to extract from: it is extracted from
 * an empty document, so it gets the same answer as a page where nothing matched.
 */
export function processContent(input: {
  body: Buffer;
  contentType: string | null;
  url: string;
  limits: ContentLimits;
  extraction?: ExtractionTask;
}): ContentResult {
  const task = input.extraction;
  let extraction: ExtractionResult | null = null;
  let failure: unknown = null;
  const onDocument = task
    ? (root: DomDocument) => {
        try {
          extraction = extractFrom(root, task, input.url);
        } catch (err) {
          // Reported after normalization, so a fault in extraction is not mistaken for unparseable HTML.
          failure = err;
        }
      }
    : undefined;
  const normalized = normalizeContent({ body: input.body, contentType: input.contentType, url: input.url, limits: input.limits, onDocument });
  if (failure !== null) throw failure;
  if (task && extraction === null) extraction = extractFrom(parseHtml(''), task, input.url);
  return { ...normalized, extraction };
}
