import type { ErrorCode, PublicError } from './types.ts';

/** Not a code of the contract: the answer was an HTTP error without the contract's error object (e.g. a proxy page). */
export const UNEXPECTED_RESPONSE = 'unexpected_response';

/**
 * An error answer of the API. `error` is the contract's error object exactly as sent (null when the body was not
 * one); the other fields are its parts plus the HTTP status and Retry-After. Creation calls carry the
 * Idempotency-Key they were sent with, so the caller can retry with the same key and never create twice.
 */
export class TrawlApiError extends Error {
  override readonly name = 'TrawlApiError';
  readonly status: number;
  readonly code: ErrorCode | typeof UNEXPECTED_RESPONSE;
  readonly type: PublicError['type'] | null;
  readonly retryable: boolean;
  readonly requestId: string | null;
  readonly details: Record<string, unknown>;
  /** Whole seconds from the Retry-After header, or null without one. */
  readonly retryAfterS: number | null;
  readonly idempotencyKey: string | null;
  readonly error: PublicError | null;

  constructor(status: number, body: unknown, headers: Headers, idempotencyKey: string | null) {
    const error = publicErrorOf(body);
    super(error ? error.message : `HTTP ${status} without an API error object`);
    this.status = status;
    this.error = error;
    this.code = error?.code ?? UNEXPECTED_RESPONSE;
    this.type = error?.type ?? null;
    this.retryable = error ? error.retryable : status === 429 || status >= 500;
    this.requestId = error?.request_id ?? headers.get('x-request-id');
    this.details = error?.details ?? {};
    this.retryAfterS = retryAfterOf(headers.get('retry-after'));
    this.idempotencyKey = idempotencyKey;
  }
}

/** The gateway could not be reached or the connection broke before an answer (the cause says why). */
export class TrawlNetworkError extends Error {
  override readonly name = 'TrawlNetworkError';
  readonly idempotencyKey: string | null;

  constructor(baseUrl: string, cause: unknown, idempotencyKey: string | null) {
    const reason = (cause as { cause?: { code?: string } })?.cause?.code ?? (cause instanceof Error ? cause.message : String(cause));
    super(`cannot reach ${baseUrl}: ${reason}`, { cause });
    this.idempotencyKey = idempotencyKey;
  }
}

function publicErrorOf(body: unknown): PublicError | null {
  const e = (body as { error?: unknown } | null)?.error as Partial<PublicError> | undefined;
  if (!e || typeof e !== 'object') return null;
  if (typeof e.code !== 'string' || typeof e.message !== 'string' || typeof e.retryable !== 'boolean') return null;
  return { ...e, details: e.details && typeof e.details === 'object' ? e.details : {} } as PublicError;
}

function retryAfterOf(value: string | null): number | null {
  if (value === null || !/^\d+$/.test(value.trim())) return null;
  return Number(value.trim());
}
