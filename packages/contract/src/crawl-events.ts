import { z } from 'zod';
import { RunStatus, Timestamp } from './common.ts';
import { CrawlJob } from './crawl.ts';

/** The data of each Server-Sent Event of GET /v1/crawl/{id}/events (the `event:` field names which). */
const Failure = CrawlJob.shape.failure;
const Progress = CrawlJob.shape.progress;

export const CrawlStatusEventData = z
  .strictObject({
    crawl_id: z.string(),
    status: RunStatus,
    previous_status: RunStatus.nullable().meta({ description: 'null on the first event of a stream.' }),
    failure: Failure,
    at: Timestamp,
  })
  .meta({ id: 'CrawlStatusEventData', description: 'event: status. The crawl’s status changed (or the stream began).' });

export const CrawlProgressEventData = z
  .strictObject({
    crawl_id: z.string(),
    status: RunStatus,
    progress: Progress,
    pages_per_second: z.number().nonnegative().nullable().meta({ description: 'Pages that reached an end per second, over the last 10 s; null until measurable.' }),
    eta_s: z.int().nonnegative().nullable().meta({ description: 'Seconds left at that rate once max_pages bounds the crawl (pages_discovered = max_pages); null otherwise.' }),
    at: Timestamp,
  })
  .meta({ id: 'CrawlProgressEventData', description: 'event: progress. A counter moved.' });

export const CrawlEndEventData = z
  .strictObject({
    crawl_id: z.string(),
    status: RunStatus,
    failure: Failure,
    completed_at: Timestamp.nullable(),
    progress: Progress,
    at: Timestamp,
  })
  .meta({ id: 'CrawlEndEventData', description: 'event: end. The crawl has ended; the stream closes.' });

export const CrawlEventData = z
  .union([CrawlStatusEventData, CrawlProgressEventData, CrawlEndEventData])
  .meta({ id: 'CrawlEventData', description: 'The JSON `data:` of one event; its `event:` line says which shape.' });
export type CrawlStatusEventData = z.infer<typeof CrawlStatusEventData>;
export type CrawlProgressEventData = z.infer<typeof CrawlProgressEventData>;
export type CrawlEndEventData = z.infer<typeof CrawlEndEventData>;
