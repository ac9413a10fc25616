import { WEBHOOK_FAILURES, type WebhookFailure } from '@trawl/contract';

export interface RetryPolicy {
  maxAttempts: number;
  /** First wait; doubles per attempt up to `maxBackoffMs`, with jitter. */
  backoffMs: number;
  maxBackoffMs: number;
}

/**
 * When a failed attempt is tried again: null when it is not (a permanent refusal, or the attempts are spent), else
 * the time of the next attempt (exponential backoff, each wait between half and all of its step, so many failing
 * deliveries do not retry in step).
 */
export function nextAttemptAt(p: RetryPolicy, reason: WebhookFailure, attempt: number, now: number): number | null {
  if (!WEBHOOK_FAILURES[reason].retryable || attempt >= p.maxAttempts) return null;
  const step = Math.min(p.maxBackoffMs, p.backoffMs * 2 ** (attempt - 1));
  return now + Math.round(step / 2 + Math.random() * (step / 2));
}
