/**
 * The global upstream rate limit: at most `perWindow` requests to Google in any window of `windowMs`, shared by
 * every runner of the deployment. It is a token bucket that holds one token and refills it every
 * windowMs / perWindow, so requests are evenly spaced and no window ever holds more than `perWindow` of them
 * (a deeper bucket would allow bursts of bucket size on top of the rate).
 */
export interface UpstreamRateLimiter {
  /** Takes the token and answers 0 when a request may go now; otherwise answers the ms until the next token. */
  take(): Promise<number>;
  /** Moves the next token at least `ms` into the future for everyone (Google asked us to slow down). */
  hold(ms: number): Promise<void>;
}

export interface RateLimitSettings {
  perWindow: number;
  windowMs: number;
}

export const intervalMs = (s: RateLimitSettings) => s.windowMs / s.perWindow;

/** Waits for a token. Rejects with the signal's reason when aborted while waiting. */
export async function acquire(limiter: UpstreamRateLimiter, signal?: AbortSignal): Promise<void> {
  for (;;) {
    signal?.throwIfAborted();
    const wait = await limiter.take();
    if (wait <= 0) return;
    await sleep(wait, signal);
  }
}

export function sleep(ms: number, signal?: AbortSignal): Promise<void> {
  return new Promise((resolve, reject) => {
    if (signal?.aborted) return reject(signal.reason);
    const onAbort = () => {
      clearTimeout(timer);
      reject(signal?.reason);
    };
    const timer = setTimeout(() => {
      signal?.removeEventListener('abort', onAbort);
      resolve();
    }, ms);
    signal?.addEventListener('abort', onAbort, { once: true });
  });
}

/**
 * Embedded mode: one process, one bucket. It stays in memory when embedded state moves to disk (issue 16): one
 * process owns the data directory, and the bucket is a token due within windowMs / perWindow (or a hold of a
 * Retry-After), nothing durable; a restart at worst lets one request go early.
 */
export class MemoryRateLimiter implements UpstreamRateLimiter {
  private nextAt = 0;

  constructor(
    private readonly settings: RateLimitSettings,
    private readonly now: () => number = Date.now,
  ) {}

  async take(): Promise<number> {
    const now = this.now();
    if (this.nextAt > now) return Math.max(1, Math.ceil(this.nextAt - now));
    this.nextAt = now + intervalMs(this.settings);
    return 0;
  }

  async hold(ms: number): Promise<void> {
    this.nextAt = Math.max(this.nextAt, this.now() + ms);
  }
}
