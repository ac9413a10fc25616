import { availableParallelism, totalmem } from 'node:os';
import { DEFAULT_CONTENT_LIMITS, type ContentLimits } from '@trawl/content';
import { ContentTimeoutError, type ContentProcessor } from './content-errors.ts';
import { laneContentProcessor } from './content-lanes.ts';
import { processContent } from './content-step.ts';

export { ContentTimeoutError, type ContentInput, type ContentProcessor } from './content-errors.ts';

/**
 * Parsing in the calling thread: no thread to stop, so a deadline is only checked before the page starts. For
 * tests and single-core set-ups; a service should use threads.
 */
export function inlineContentProcessor(limits: ContentLimits = DEFAULT_CONTENT_LIMITS): ContentProcessor {
  return {
    normalize: async (input) => {
      if (input.deadline !== undefined && input.deadline <= Date.now()) throw new ContentTimeoutError();
      return processContent({ body: input.body, contentType: input.contentType, url: input.url, limits, extraction: input.extraction });
    },
    close: async () => undefined,
  };
}

/** One lane of `threads` threads for every page (no slow lane): what tests of the pool itself use. */
export function threadedContentProcessor(threads: number, limits: ContentLimits = DEFAULT_CONTENT_LIMITS): ContentProcessor {
  return laneContentProcessor({ threads, slowThreads: 0, slowBytes: Number.MAX_SAFE_INTEGER, limits, threadHeapMb: THREAD_HEAP_MB });
}

export interface ContentPoolSettings {
  /** Ordinary lane; unset: sized from cores and memory (defaultContentThreads); 0: parse in the calling thread. */
  threads?: number;
  /** Slow lane (large bodies, low OS priority). */
  slowThreads: number;
  slowBytes: number;
  limits: ContentLimits;
}

// A content thread's heap cap. The worst page within the limits (10 MiB of markup, 100,000 elements) peaks near
// 600 MB of heap; past the cap the thread dies alone and its one page fails.
export const THREAD_HEAP_MB = 1024;

/**
 * Ordinary-lane threads when TRAWL_CONTENT_THREADS is unset: one per core the event loop leaves free, at least
 * one (so every page has a deadline that can be enforced), at most 4, and no more than memory holds at
 * THREAD_HEAP_MB each with the slow lane's threads and 1 GiB for the rest of the process counted first.
 */
export function defaultContentThreads(slowThreads: number, cores = availableParallelism(), memoryBytes = totalmem()): number {
  const byMemory = Math.floor(memoryBytes / (THREAD_HEAP_MB * 1048576)) - 1 - slowThreads;
  return Math.max(1, Math.min(4, cores - 1, byMemory));
}

export function createContentProcessor(s: ContentPoolSettings): ContentProcessor {
  const threads = s.threads ?? defaultContentThreads(s.slowThreads);
  if (threads === 0) return inlineContentProcessor(s.limits);
  return laneContentProcessor({ threads, slowThreads: s.slowThreads, slowBytes: s.slowBytes, limits: s.limits, threadHeapMb: THREAD_HEAP_MB });
}

/** The pool settings from the environment's TRAWL_CONTENT_* variables (packages/config). */
export function contentPoolSettings(c: {
  TRAWL_CONTENT_THREADS?: number;
  TRAWL_CONTENT_SLOW_THREADS: number;
  TRAWL_CONTENT_SLOW_BYTES: number;
  TRAWL_CONTENT_MAX_DEPTH: number;
  TRAWL_CONTENT_MAX_ELEMENTS: number;
  TRAWL_CONTENT_MAX_LINKS: number;
}): ContentPoolSettings {
  return {
    threads: c.TRAWL_CONTENT_THREADS,
    slowThreads: c.TRAWL_CONTENT_SLOW_THREADS,
    slowBytes: c.TRAWL_CONTENT_SLOW_BYTES,
    limits: { maxDepth: c.TRAWL_CONTENT_MAX_DEPTH, maxElements: c.TRAWL_CONTENT_MAX_ELEMENTS, maxLinks: c.TRAWL_CONTENT_MAX_LINKS },
  };
}
