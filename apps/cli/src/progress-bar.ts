import cliProgress from 'cli-progress';
import { formatDuration, formatRate, type CrawlStats } from './crawl/progress.ts';

/** A crawl's live progress bar on a terminal (the only module importing cli-progress). */
export interface ProgressBar {
  update(stats: CrawlStats): void;
  stop(): void;
}

const FORMAT = '{bar} {percentage}% | delivered {delivered} | admitted {admitted} | failed {failed} | {rate} pages/s | ETA {remaining} | {status}';

export function createProgressBar(stream: NodeJS.WriteStream): ProgressBar {
  const bar = new cliProgress.SingleBar(
    { format: FORMAT, stream, hideCursor: true, fps: 5, barsize: 24, clearOnComplete: false, gracefulExit: false },
    cliProgress.Presets.shades_classic,
  );
  let started = false;
  return {
    update(s) {
      const payload = { delivered: s.delivered, admitted: s.admitted, failed: s.failed, rate: formatRate(s.rate), remaining: formatDuration(s.etaS), status: s.status };
      // The total grows as links are admitted; it is never 0 so the percentage stays a number.
      const total = Math.max(1, s.admitted);
      if (!started) {
        bar.start(total, s.done, payload);
        started = true;
      } else {
        bar.setTotal(total);
        bar.update(s.done, payload);
      }
    },
    stop() {
      if (started) bar.stop();
      started = false;
    },
  };
}
