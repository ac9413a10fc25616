import { UpstreamError } from './upstream/upstream-error.ts';

export interface BackoffSettings {
  /** Delay ceiling of the first retry; it doubles per attempt. */
  baseMs: number;
  /** The ceiling never grows past this (a Retry-After may still ask for longer). */
  maxMs: number;
}

/**
 * Delay before attempt `attempt + 1`, after attempt `attempt` (1-based) failed. Exponential with "equal jitter"
 * (half the ceiling fixed, half random), so retries never come at once and jobs that failed together spread out.
 * Google's Retry-After, when sent, is a floor.
 */
export function retryDelayMs(attempt: number, s: BackoffSettings, retryAfterMs: number | null, random: () => number = Math.random): number {
  const ceiling = Math.min(s.maxMs, s.baseMs * 2 ** Math.max(0, attempt - 1));
  const jittered = ceiling / 2 + (random() * ceiling) / 2;
  return Math.round(Math.max(jittered, retryAfterMs ?? 0));
}

/** Whether a failed attempt is tried again: retryable causes only (never a 400), and never past the last attempt. */
export function shouldRetry(err: unknown, attempt: number, maxAttempts: number): boolean {
  if (attempt >= maxAttempts) return false;
  // Our own faults (not upstream answers) are retried too: the next attempt may run on a healthy worker.
  return err instanceof UpstreamError ? err.retryable : true;
}

/** Failures that mean Google wants fewer requests from us: the whole cluster slows down, not only this job. */
export function slowsEveryone(err: unknown): err is UpstreamError {
  return err instanceof UpstreamError && (err.failure === 'rate_limited' || err.failure === 'blocked');
}
