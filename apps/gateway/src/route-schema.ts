import { z } from 'zod';
import { ERROR_CODES, PublicErrorResponse, errorStatuses, type ErrorCode } from '@trawl/contract';

/** Errors every authenticated /v1 route can answer with (each counts against a rate limit: 429 rate_limited). */
export const AUTH_ERRORS: ErrorCode[] = ['authentication_required', 'permission_denied', 'rate_limited', 'internal_error'];
/** Errors of every JSON creation route on top of AUTH_ERRORS (503: the data directory is full, or Redis is unreachable). */
export const CREATION_ERRORS: ErrorCode[] = [
  'invalid_request',
  'validation_error',
  'unsupported_feature',
  'idempotency_conflict',
  'idempotency_in_progress',
  'service_unavailable',
];

/**
 * The error codes each documented error response stands for, by its schema object: the OpenAPI document gives every
 * listed code an example (docs/openapi-document.ts) without parsing them back out of the description.
 */
const ERROR_RESPONSE_CODES = new WeakMap<object, ErrorCode[]>();

export function errorCodesOfResponse(schema: unknown): ErrorCode[] | undefined {
  return schema && typeof schema === 'object' ? ERROR_RESPONSE_CODES.get(schema) : undefined;
}

/** Response map for a route: its success schema plus the error object under every status its codes use. */
export function responses(success: Record<number, unknown>, listed: ErrorCode[]): Record<number, unknown> {
  const codes = [...new Set(listed)];
  const out: Record<number, unknown> = { ...success };
  for (const status of errorStatuses(codes)) {
    const list = codes.filter((c) => ERROR_CODES[c].status === status);
    const schema = PublicErrorResponse.describe(`Error: ${list.map((c) => `\`${c}\``).join(', ')}.`);
    ERROR_RESPONSE_CODES.set(schema, list);
    out[status] = schema;
  }
  return out;
}

/** What the gateway accepts as an Idempotency-Key (idempotency.ts checks it; a bad one is 400 invalid_request). */
export const IDEMPOTENCY_KEY = /^[\x21-\x7e]{1,255}$/;

export const IdempotencyHeaders = z.looseObject({
  'idempotency-key': z
    .string()
    .optional()
    .meta({
      description: 'Optional: 1-255 visible ASCII characters. Replays the first response for the same team, route, key and body for 24 h.',
      // Stated here, checked in idempotency.ts (where a bad key is invalid_request, not a schema validation_error).
      pattern: IDEMPOTENCY_KEY.source,
      minLength: 1,
      maxLength: 255,
    }),
});

export const BEARER_SECURITY = [{ bearerAuth: [] }];
