import { createProgressBar } from '../progress-bar.ts';
import { CrawlMeter, progressLine, type CrawlStats, type CrawlView } from './progress.ts';

/** Progress of a followed crawl on stderr: a live bar on a terminal, plain lines elsewhere. */
export interface CrawlDisplay {
  update(view: CrawlView): void;
  /** The figures for `view` without drawing anything. */
  stats(view: CrawlView): CrawlStats;
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
      update: (view) => bar.update(meter.stats(view)),
      stats: (view) => meter.stats(view),
      stop: () => bar.stop(),
    };
  }
  let last: { at: number; status: string } | null = null;
  return {
    update(view) {
      const s = meter.stats(view);
      const at = now();
      if (!last || last.status !== s.status || at - last.at >= PLAIN_EVERY_MS) {
        stream.write(`${progressLine(s)}\n`);
        last = { at, status: s.status };
      }
    },
    stats: (view) => meter.stats(view),
    stop() {},
  };
}
