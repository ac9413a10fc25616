export { createTrawlClient, type TrawlClient, type TrawlClientOptions, type CreateOptions, type ReadOptions, type CrawlItemsOptions, type CrawlEventsOptions, type WaitOptions, type PageOptions } from './client.ts';
export { TrawlApiError, TrawlNetworkError, UNEXPECTED_RESPONSE } from './errors.ts';
export type { ArtifactDownload, ArtifactRef } from './artifacts.ts';
export type { RawClient } from './openapi-fetch-adapter.ts';
export type * from './types.ts';
export type { paths, components, operations } from './schema.ts';
