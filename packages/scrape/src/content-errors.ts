import type { ContentResult, ExtractionTask } from './content-step.ts';

export interface ContentInput {
  body: Buffer;
  contentType: string | null;
  url: string;
  /** Epoch ms by which the page must be normalized (the request's deadline); none: no bound. */
  deadline?: number;
  /** Record extraction from the same parse (crawls with `extraction`). */
  extraction?: ExtractionTask;
}

/** Turns bodies into normalized content, in this thread or on a pool of threads (parsing is CPU-bound). */
export interface ContentProcessor {
  normalize(input: ContentInput): Promise<ContentResult>;
  close(): Promise<void>;
}

/** The page was not normalized by its deadline (queued too long, or its thread was stopped). */
export class ContentTimeoutError extends Error {
  constructor() {
    super('content processing passed its deadline');
    this.name = 'ContentTimeoutError';
  }
}
