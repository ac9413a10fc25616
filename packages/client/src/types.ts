import type { components } from './schema.ts';

/** Friendly names for the contract's shapes (all generated from the OpenAPI document into schema.ts). */
type Schemas = components['schemas'];

export type PublicError = Schemas['PublicError'];
export type ErrorCode = PublicError['code'];
export type PublicRun = Schemas['PublicRun'];
export type PageRunResponse = Schemas['PageRunResponse'];
export type FetchRequest = Schemas['FetchRequestInput'];
export type BrowserScrapeRequest = Schemas['BrowserScrapeRequestInput'];
export type CrawlRequest = Schemas['CrawlRequestInput'];
export type CrawlScope = NonNullable<CrawlRequest['scope']>;
export type CrawlCreateResponse = Schemas['CrawlCreateResponse'];
export type CrawlJob = Schemas['CrawlJob'];
export type CrawlItem = Schemas['CrawlItem'];
export type CrawlItemsPage = Schemas['CrawlItemsPage'];
export type WebhookDeliveriesPage = Schemas['WebhookDeliveriesPage'];
export type WebhookDelivery = Schemas['WebhookDelivery'];
export type Artifact = Schemas['Artifact'];
export type TrendsRequest = Schemas['TrendsRelatedQueriesRequestInput'];
export type TrendsJob = Schemas['TrendsJob'];
export type TrendsRelatedQuery = Schemas['TrendsRelatedQuery'];
/** The data of GET /v1/crawl/{id}/events (the OpenAPI document describes the stream in words: it is not one JSON value). */
export interface CrawlStatusEventData {
  crawl_id: string;
  status: CrawlJob['status'];
  previous_status: CrawlJob['status'] | null;
  failure: CrawlJob['failure'];
  at: string;
}
export interface CrawlProgressEventData {
  crawl_id: string;
  status: CrawlJob['status'];
  progress: CrawlJob['progress'];
  pages_per_second: number | null;
  eta_s: number | null;
  at: string;
}
export interface CrawlEndEventData {
  crawl_id: string;
  status: CrawlJob['status'];
  failure: CrawlJob['failure'];
  completed_at: string | null;
  progress: CrawlJob['progress'];
  at: string;
}
/** One event of GET /v1/crawl/{id}/events, its data parsed. */
export type CrawlEvent =
  | { id: string | null; event: 'status'; data: CrawlStatusEventData }
  | { id: string | null; event: 'progress'; data: CrawlProgressEventData }
  | { id: string | null; event: 'end'; data: CrawlEndEventData };
