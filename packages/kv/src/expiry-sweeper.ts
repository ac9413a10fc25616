import type { Kv } from './kv.ts';

export interface ExpirySweeperOptions {
  /** Pause between sweeps once the backlog is drained. */
  intervalMs?: number;
  /** Most keys deleted per tick (one transaction, the event loop blocked meanwhile). */
  batch?: number;
  /** A sweep that threw (the Kv was closed): the sweeper has stopped. */
  onError?: (err: unknown) => void;
}

const DEFAULT_SWEEP_INTERVAL_MS = 60_000;
/**
 * Measured on this project's 2-core machine, 50,000 expired job records: a batch of 1,000 takes 7-8 ms, 500 about
 * 5-6 ms, 250 about 3 ms. 500 keeps one tick under ~10 ms with room for a loaded machine.
 */
const DEFAULT_SWEEP_BATCH = 500;

/**
 * Deletes expired keys in the background, for space only: expired keys already read as absent. A full batch means
 * a backlog, so the next batch follows on the next turn of the event loop (requests run in between) instead of
 * waiting the interval. Timers are unref'd: the sweeper never keeps a process alive. Returns the stop function.
 */
export function startExpirySweeper(kv: Kv, opts: ExpirySweeperOptions = {}): () => void {
  const intervalMs = opts.intervalMs ?? DEFAULT_SWEEP_INTERVAL_MS;
  const batch = opts.batch ?? DEFAULT_SWEEP_BATCH;
  let timer: NodeJS.Timeout | null = null;
  let next: NodeJS.Immediate | null = null;
  let stopped = false;

  // A backlog's next batch is an immediate, not a 0 ms timer: after a slow batch Node may run a due timer in the
  // same timers phase, so I/O would not get its turn in between (seen under load in expiry-sweeper.test.ts).
  const schedule = (ms: number) => {
    if (stopped) return;
    if (ms === 0) {
      next = setImmediate(tick);
      next.unref();
    } else {
      timer = setTimeout(tick, ms);
      timer.unref();
    }
  };
  function tick() {
    let swept: number;
    try {
      swept = kv.sweepExpired(batch);
    } catch (err) {
      stopped = true;
      opts.onError?.(err);
      return;
    }
    schedule(swept >= batch ? 0 : intervalMs);
  }

  // The first sweep at once: a process starting after a long stop may find a backlog.
  schedule(0);
  return () => {
    stopped = true;
    if (timer) clearTimeout(timer);
    if (next) clearImmediate(next);
  };
}
