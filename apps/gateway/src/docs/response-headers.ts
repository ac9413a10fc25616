import { SAFE_ID } from '../plugins/request-id.ts';
import { IdempotencyHeaders } from '../route-schema.ts';

/**
 * The response headers of every documented answer, by what sends them: plugins/request-id.ts (every answer),
 * plugins/rate-limit.ts (RateLimit-*, Retry-After on 429), store-unavailable.ts, data-dir-full.ts and page outcomes
 * (Retry-After on 503), idempotency.ts (Retry-After on 409 idempotency_in_progress, Idempotent-Replayed), run-routes.ts (downloads).
 * Names are written in their usual capitalization; HTTP header names are case-insensitive.
 */
type HeaderSchema = { type: string; description: string; [k: string]: unknown };

const REQUEST_ID: Record<string, HeaderSchema> = {
  'X-Request-Id': {
    type: 'string',
    pattern: SAFE_ID.source,
    description:
      "This request's id: the caller's own `x-request-id` when it is a plain token of 8-128 characters (letters, digits, `._:-`), else one made here (`req_…`). Errors repeat it as `error.request_id`; quote it when reporting a problem.",
  },
};

const integer = (minimum: number, description: string): HeaderSchema => ({ type: 'integer', minimum, description });

export const RATE_LIMIT_HEADERS: Record<string, HeaderSchema> = {
  'RateLimit-Limit': integer(
    0,
    "Requests this team may make to this route's class in any 60 seconds. Absent when the class is unlimited for the team, and on a 403 for the key's scope or team (such a request is not counted).",
  ),
  'RateLimit-Remaining': integer(0, 'Requests left now, after this one.'),
  'RateLimit-Reset': integer(
    0,
    'Seconds until the oldest request still counted leaves the 60-second window (Remaining goes up); on a 429, equal to Retry-After.',
  ),
};

const RETRY_AFTER: Record<string, Record<string, HeaderSchema>> = {
  '429': {
    'Retry-After': integer(
      1,
      'With `rate_limited`: whole seconds until a request would pass (never 0). Absent with `quota_exceeded` (do not retry until the quota changes).',
    ),
  },
  '503': {
    'Retry-After': integer(
      1,
      'Whole seconds to wait before retrying: 2 while the store is unreachable (`details.reason: "store_unavailable"`), 60 while the data directory is full (`details.reason: "data_dir_full"`, creations in embedded mode), 1 when no browser page is free (`details.block_reason: "browser_capacity_full"`).',
    ),
  },
};

const IN_PROGRESS_RETRY_AFTER = {
  'Retry-After': integer(1, 'With `idempotency_in_progress`: retry the same key and body after this many seconds.'),
};

const REPLAYED = {
  'Idempotent-Replayed': {
    type: 'string',
    enum: ['true'],
    description: 'Present (`true`) when this answer replays the first answer to the same Idempotency-Key and body: nothing new was created or charged.',
  },
};

/** Answers of a creation route that idempotency.ts stores and replays: the created run or job, and page outcomes. */
const REPLAYED_STATUSES = /^(2\d\d|403|408|502|503)$/;

export const DOWNLOAD_HEADERS: Record<string, HeaderSchema> = {
  'Cache-Control': { type: 'string', enum: ['private, no-store'], description: 'Artifacts are private to the team: never cached.' },
  'X-Content-Type-Options': { type: 'string', enum: ['nosniff'], description: 'Browsers must use the Content-Type as sent.' },
};

interface RouteFacts {
  rateClass?: string;
  schema?: { headers?: unknown };
}

/** Headers of one answer (`status`) of a route, as `@fastify/swagger` reads them from a response schema. */
export function responseHeaders(route: RouteFacts, status: string): Record<string, HeaderSchema> {
  const headers: Record<string, HeaderSchema> = { ...REQUEST_ID };
  // A 401 comes before the rate limiter counts the request (plugins/rate-limit.ts): no RateLimit headers. A 403 may
  // come before (the key's scope) or after (a refused target: page outcome blocked_target).
  if (route.rateClass && status !== '401') Object.assign(headers, RATE_LIMIT_HEADERS);
  Object.assign(headers, RETRY_AFTER[status] ?? {});
  const creation = route.schema?.headers === IdempotencyHeaders;
  if (creation && status === '409') Object.assign(headers, IN_PROGRESS_RETRY_AFTER);
  if (creation && REPLAYED_STATUSES.test(status)) Object.assign(headers, REPLAYED);
  return headers;
}

/** OpenAPI marks a response header required when every such answer carries it. */
export const ALWAYS_SENT_HEADERS = new Set(['X-Request-Id', 'Cache-Control', 'X-Content-Type-Options']);
