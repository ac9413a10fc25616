import { z } from 'zod';

/**
 * The one table of public error codes. HTTP status, type and the default `retryable` come from here;
 * the error schema, the OpenAPI document and the gateway's error mapping are all derived from it.
 * An instance may override `retryable` where the contract makes it depend on the cause (fetch_failed).
 */
export const ERROR_CODES = {
  validation_error: { status: 400, type: 'invalid_request', retryable: false },
  invalid_request: { status: 400, type: 'invalid_request', retryable: false },
  unsupported_feature: { status: 400, type: 'invalid_request', retryable: false },
  authentication_required: { status: 401, type: 'authentication', retryable: false },
  payment_required: { status: 402, type: 'billing', retryable: false },
  permission_denied: { status: 403, type: 'permission', retryable: false },
  route_not_found: { status: 404, type: 'not_found', retryable: false },
  run_not_found: { status: 404, type: 'not_found', retryable: false },
  crawl_not_found: { status: 404, type: 'not_found', retryable: false },
  job_not_found: { status: 404, type: 'not_found', retryable: false },
  artifact_not_found: { status: 404, type: 'not_found', retryable: false },
  session_not_found: { status: 404, type: 'not_found', retryable: false },
  profile_not_found: { status: 404, type: 'not_found', retryable: false },
  // Not in the contract's table: a path that exists, asked with a method it does not answer (with `Allow`).
  method_not_allowed: { status: 405, type: 'invalid_request', retryable: false },
  timeout: { status: 408, type: 'timeout', retryable: true },
  idempotency_conflict: { status: 409, type: 'conflict', retryable: false },
  idempotency_in_progress: { status: 409, type: 'conflict', retryable: true },
  run_not_ready: { status: 409, type: 'conflict', retryable: true },
  artifact_expired: { status: 410, type: 'gone', retryable: false },
  rate_limited: { status: 429, type: 'rate_limit', retryable: true },
  quota_exceeded: { status: 429, type: 'quota', retryable: false },
  internal_error: { status: 500, type: 'server', retryable: true },
  fetch_failed: { status: 502, type: 'upstream', retryable: true },
  render_failed: { status: 502, type: 'upstream', retryable: true },
  service_unavailable: { status: 503, type: 'server', retryable: true },
} as const satisfies Record<string, { status: number; type: string; retryable: boolean }>;

export type ErrorCode = keyof typeof ERROR_CODES;
export const ERROR_CODE_NAMES = Object.keys(ERROR_CODES) as [ErrorCode, ...ErrorCode[]];
export type ErrorType = (typeof ERROR_CODES)[ErrorCode]['type'];
const ERROR_TYPES = [...new Set(Object.values(ERROR_CODES).map((e) => e.type))] as [ErrorType, ...ErrorType[]];

export const ErrorBody = z
  .strictObject({
    code: z.enum(ERROR_CODE_NAMES),
    message: z.string(),
    type: z.enum(ERROR_TYPES),
    retryable: z.boolean(),
    request_id: z.string(),
    details: z.record(z.string(), z.unknown()),
  })
  .meta({ id: 'PublicError' });

export const PublicErrorResponse = z.strictObject({ error: ErrorBody }).meta({ id: 'PublicErrorResponse' });
export type PublicErrorResponse = z.infer<typeof PublicErrorResponse>;

/** HTTP statuses that some error code answers with, for listing error responses per route. */
export function errorStatuses(codes: readonly ErrorCode[]): number[] {
  return [...new Set(codes.map((c) => ERROR_CODES[c].status))].sort((a, b) => a - b);
}
