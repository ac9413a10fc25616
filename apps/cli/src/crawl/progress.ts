import type { CrawlJob } from '@trawl/client';

/** What the progress display shows of a crawl: counters, speed and ETA as the API's event stream reports them. */
export interface CrawlStats {
  id: string;
  status: CrawlJob['status'];
  delivered: number;
  admitted: number;
  failed: number;
  /** Pages that reached an end: delivered, failed, blocked or dropped. */
  done: number;
  /** Pages per second (the server's, over its last 10 s); null until measurable. */
  rate: number | null;
  /** Seconds left (the server's, once max_pages bounds the crawl); 0 once nothing is left; null when unknown. */
  etaS: number | null;
  elapsedS: number;
}

/** The latest state of a followed crawl, fed by its status and its events (GET /v1/crawl/{id}/events). */
export interface CrawlView {
  id: string;
  status: CrawlJob['status'];
  progress: CrawlJob['progress'];
  rate: number | null;
  etaS: number | null;
}

export const TERMINAL_STATUSES: ReadonlySet<CrawlJob['status']> = new Set(['completed', 'failed', 'budget_exhausted', 'expired']);

/** The display's figures from a view; elapsed time counts from the first view (following began). */
export class CrawlMeter {
  private first: number | null = null;
  constructor(private readonly now: () => number = Date.now) {}

  stats(v: CrawlView): CrawlStats {
    const p = v.progress;
    const done = p.pages_completed + p.pages_failed + p.pages_blocked + p.pages_dropped;
    const at = this.now();
    this.first ??= at;
    const ended = TERMINAL_STATUSES.has(v.status);
    return {
      id: v.id,
      status: v.status,
      delivered: p.pages_completed,
      admitted: p.pages_discovered,
      failed: p.pages_failed + p.pages_blocked,
      done,
      rate: v.rate,
      etaS: ended || done >= p.pages_discovered && p.pages_discovered >= p.max_pages ? 0 : v.etaS,
      elapsedS: (at - this.first) / 1000,
    };
  }
}

export function formatDuration(seconds: number | null): string {
  if (seconds === null || !Number.isFinite(seconds)) return '--';
  const s = Math.round(seconds);
  if (s < 60) return `${s}s`;
  if (s < 3600) return `${Math.floor(s / 60)}m${String(s % 60).padStart(2, '0')}s`;
  return `${Math.floor(s / 3600)}h${String(Math.floor((s % 3600) / 60)).padStart(2, '0')}m`;
}

export const formatRate = (rate: number | null) => (rate === null ? '--' : rate.toFixed(1));

/** One plain progress line (no control characters): for logs and pipes. */
export function progressLine(s: CrawlStats): string {
  return `${s.id} ${s.status}: ${s.delivered} delivered, ${s.admitted} admitted, ${s.failed} failed, ${formatRate(s.rate)} pages/s, ETA ${formatDuration(s.etaS)}`;
}
