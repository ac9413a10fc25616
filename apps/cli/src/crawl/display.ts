import type { CrawlJob } from '@trawl/client';
import { createProgressBar } from '../progress-bar.ts';
import { CrawlMeter, progressLine, type CrawlStats } from './progress.ts';

/** Progress of a followed crawl on stderr: a live bar on a terminal, plain lines elsewhere. */
export interface CrawlDisplay {
  update(job: CrawlJob): void;
  /** The figures for `job` without drawing anything. */
  stats(job: CrawlJob): CrawlStats;
  /** The bar stops where it is (before a message, a question or the end). */
  stop(): void;
}

/** A plain line at most this often (and whenever the status changes): logs stay short. */
const PLAIN_EVERY_MS = 5000;

export function crawlDisplay(stream: NodeJS.WriteStream, now: () => number = Date.now): CrawlDisplay {
  const meter = new CrawlMeter(now);
  if (stream.isTTY) {
    const bar = createProgressBar(stream);
    return {
      update: (job) => bar.update(meter.stats(job)),
      stats: (job) => meter.stats(job),
      stop: () => bar.stop(),
    };
  }
  let last: { at: number; status: string } | null = null;
  return {
    update(job) {
      const s = meter.stats(job);
      const at = now();
      if (!last || last.status !== s.status || at - last.at >= PLAIN_EVERY_MS) {
        stream.write(`${progressLine(s)}\n`);
        last = { at, status: s.status };
      }
    },
    stats: (job) => meter.stats(job),
    stop() {},
  };
}
