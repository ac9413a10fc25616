import type { CrawlJob } from '@trawl/client';

/** What the progress display shows of a crawl status: counters, speed and a rough ETA. */
export interface CrawlStats {
  id: string;
  status: CrawlJob['status'];
  delivered: number;
  admitted: number;
  failed: number;
  /** Pages that reached an end: delivered, failed, blocked or dropped. */
  done: number;
  /** Pages per second since following began; null until there is something to measure. */
  rate: number | null;
  /** Seconds until every page admitted so far is done, at the current rate; null when unknown. */
  etaS: number | null;
  elapsedS: number;
}

export const TERMINAL_STATUSES: ReadonlySet<CrawlJob['status']> = new Set(['completed', 'failed', 'budget_exhausted', 'expired']);

/** Measures speed from the first status it sees (a resumed crawl's earlier pages do not count). */
export class CrawlMeter {
  private first: { at: number; done: number } | null = null;
  constructor(private readonly now: () => number = Date.now) {}

  stats(job: CrawlJob): CrawlStats {
    const p = job.progress;
    const done = p.pages_completed + p.pages_failed + p.pages_blocked + p.pages_dropped;
    const at = this.now();
    this.first ??= { at, done };
    const elapsedS = (at - this.first.at) / 1000;
    const progressed = done - this.first.done;
    const rate = elapsedS >= 1 && progressed > 0 ? progressed / elapsedS : null;
    const remaining = Math.max(0, p.pages_discovered - done);
    return {
      id: job.id,
      status: job.status,
      delivered: p.pages_completed,
      admitted: p.pages_discovered,
      failed: p.pages_failed + p.pages_blocked,
      done,
      rate,
      etaS: remaining === 0 ? 0 : rate ? remaining / rate : null,
      elapsedS,
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
