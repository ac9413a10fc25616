export { normalizeUrl, MAX_URL_LENGTH } from './normalize-url.ts';
export { compileScope } from './scope.ts';
export { compilePathFilter, type PathFilter } from './path-filter.ts';
export type { CrawlScope, ScopeRule } from './scope.ts';
export { hostOf } from './host-of.ts';
export { registrableDomain } from './registrable-domain.ts';
