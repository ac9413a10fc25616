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

/** Response map for a route: its success schema plus the error object under every status its codes use. */
export function responses(success: Record<number, unknown>, listed: ErrorCode[]): Record<number, unknown> {
  const codes = [...new Set(listed)];
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

const seconds = (description: string) => ({ type: 'integer', minimum: 0, description });

/** The RateLimit headers of every answer to an authenticated team on a route with a rate-limit class. */
export const RATE_LIMIT_HEADERS = {
  'RateLimit-Limit': seconds(
    "Requests this team may make to this route's class in any 60 seconds (absent when the class is unlimited for the team).",
  ),
  'RateLimit-Remaining': seconds('Requests left now, after this one.'),
  'RateLimit-Reset': seconds(
    'Seconds until the oldest request still counted leaves the 60-second window (Remaining goes up); on a 429, equal to Retry-After.',
  ),
};
const RETRY_AFTER_HEADER = {
  'Retry-After': {
    type: 'integer',
    minimum: 1,
    description: 'With `rate_limited`: whole seconds until a request would pass (never 0). Absent with `quota_exceeded` (do not retry until the quota changes).',
  },
};

/**
 * Wraps the OpenAPI transform: every response of a rate-limited route documents the RateLimit headers, and its 429
 * (rate_limited) documents Retry-After too. (The zod transform keeps no response headers of its own.)
 */
export function withRateLimitHeaders<D extends { route: { config?: unknown } }, R extends { schema?: unknown }>(
  transform: (doc: D) => R,
): (doc: D) => R {
  return (doc) => {
    const out = transform(doc);
    const response = (out.schema as { response?: Record<string, Record<string, unknown>> } | undefined)?.response;
    if (!(doc.route.config as { rateClass?: string } | undefined)?.rateClass || !response) return out;
    for (const [status, r] of Object.entries(response)) {
      if (status === '401' || status === '403') continue;
      r.headers = { ...RATE_LIMIT_HEADERS, ...(status === '429' ? RETRY_AFTER_HEADER : {}) };
    }
    return out;
  };
}
