export { checkExtraction, compileExtraction, schemaKey, type CompiledExtraction } from './compile.ts';
export { extractRecords, MEMORY_REFRESH_MS, type ExtractedRecord, type ExtractionOutcome, type ExtractOptions } from './extract.ts';
export { MEMORY_MAX_BYTES, MEMORY_VERSION, parseSelectorMemory, type SelectorMemory } from './memory.ts';
export { CONFIDENCE_THRESHOLD, FIELD_MARGIN, FIELD_THRESHOLD, RECORD_THRESHOLD } from './relocate/thresholds.ts';
export { LIST_JOINER } from './template.ts';
export type { AdaptiveAction, Extraction, ExtractionIssue } from '@trawl/contract';
