import type { ExtractedRecord, ExtractionRequest, SiteMeta } from '../../support/extraction-corpus.ts';

/** What one site module gives build.ts: the files of bench/extraction-corpus/<id>/. */
export interface SiteBuild {
  id: string;
  meta: SiteMeta;
  schema: ExtractionRequest;
  schemaV2: ExtractionRequest;
  v1: string;
  v2: string;
  expectedV1: ExtractedRecord[];
  expectedV2: ExtractedRecord[];
}

/** Fields of one type and transform, shortened: [name, selector] or [name, selector, attribute]. */
export const text = (name: string, selector: string, transform?: 'strip' | 'lowercase' | 'uppercase') =>
  ({ name, selector, type: 'text' as const, ...(transform ? { transform } : {}) });
export const attribute = (name: string, selector: string, attr: string, transform?: 'strip' | 'absolute_url') =>
  ({ name, selector, type: 'attribute' as const, attribute: attr, ...(transform ? { transform } : {}) });
export const html = (name: string, selector: string) => ({ name, selector, type: 'html' as const });
export const list = (name: string, selector: string, transform?: 'strip' | 'lowercase' | 'uppercase') =>
  ({ name, selector, type: 'list' as const, ...(transform ? { transform } : {}) });
export const template = (name: string, tpl: string) => ({ name, operation: 'template' as const, template: tpl });
