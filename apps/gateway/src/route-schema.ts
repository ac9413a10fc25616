import { z } from 'zod';
import { ERROR_CODES, PublicErrorResponse, errorStatuses, type ErrorCode } from '@trawl/contract';

/** Errors every authenticated /v1 route can answer with. */
export const AUTH_ERRORS: ErrorCode[] = ['authentication_required', 'permission_denied', 'internal_error'];
/** Errors of every JSON creation route on top of AUTH_ERRORS. */
export const CREATION_ERRORS: ErrorCode[] = [
  'invalid_request',
  'validation_error',
  'unsupported_feature',
  'idempotency_conflict',
  'idempotency_in_progress',
];

/** Response map for a route: its success schema plus the error object under every status its codes use. */
export function responses(success: Record<number, unknown>, codes: ErrorCode[]): Record<number, unknown> {
  const out: Record<number, unknown> = { ...success };
  for (const status of errorStatuses(codes)) {
    const list = codes.filter((c) => ERROR_CODES[c].status === status);
    out[status] = PublicErrorResponse.describe(`Error: ${list.map((c) => `\`${c}\``).join(', ')}.`);
  }
  return out;
}

export const IdempotencyHeaders = z.looseObject({
  'idempotency-key': z
    .string()
    .optional()
    .meta({ description: 'Optional. Replays the first response for the same team, key and body for 24 h.' }),
});

export const BEARER_SECURITY = [{ bearerAuth: [] }];
