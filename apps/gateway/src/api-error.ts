import { ERROR_CODES, type ErrorCode, type PublicErrorResponse, type QuotaResource } from '@trawl/contract';

/** An error the caller is meant to see, in the contract's shape. */
export class ApiError extends Error {
  readonly code: ErrorCode;
  readonly details: Record<string, unknown>;
  readonly retryable: boolean;
  readonly headers: Record<string, string>;

  constructor(
    code: ErrorCode,
    message: string,
    opts: { details?: Record<string, unknown>; retryable?: boolean; headers?: Record<string, string> } = {},
  ) {
    super(message);
    this.name = 'ApiError';
    this.code = code;
    this.details = opts.details ?? {};
    this.retryable = opts.retryable ?? ERROR_CODES[code].retryable;
    this.headers = opts.headers ?? {};
  }

  get status(): number {
    return ERROR_CODES[this.code].status;
  }

  toBody(requestId: string): PublicErrorResponse {
    return {
      error: {
        code: this.code,
        message: this.message,
        type: ERROR_CODES[this.code].type,
        retryable: this.retryable,
        request_id: requestId,
        details: this.details,
      },
    };
  }
}

/** 429 quota_exceeded: the team's monthly quota of `resource` is used up. Says nothing but the resource. */
export function quotaExceededError(resource: QuotaResource): ApiError {
  return new ApiError('quota_exceeded', `the team's monthly ${resource} quota is used up`, { details: { resource } });
}

/**
 * 503 service_unavailable for a condition that passes by itself: retryable, `details.reason` naming it, and
 * Retry-After in seconds. The message and reason are all the caller learns.
 */
export function serviceUnavailableError(message: string, reason: string, retryAfterS: number): ApiError {
  return new ApiError('service_unavailable', message, {
    retryable: true,
    details: { reason },
    headers: { 'retry-after': String(retryAfterS) },
  });
}
