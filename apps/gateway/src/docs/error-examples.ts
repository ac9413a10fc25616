import type { BlockReason, ErrorCode, PublicErrorResponse } from '@trawl/contract';
import { ApiError } from '../api-error.ts';
import { pageFailureError } from '../page-failure.ts';
import { EXAMPLE_REQUEST_ID, FETCH_RUN_ID } from './examples/page-examples.ts';

/**
 * Error examples of the OpenAPI document, built by the gateway's own error classes: type, retryable and the body's
 * shape come from contract's ERROR_CODES, and page outcomes from pageFailureError over contract's BLOCK_REASONS, so
 * an example says what the server says. Messages and details are those the routes and plugins send.
 */
export interface Example {
  summary: string;
  value: unknown;
}

const SAMPLES: Record<ErrorCode, { summary: string; error: ApiError }> = {
  validation_error: {
    summary: 'A value breaks the schema',
    error: new ApiError('validation_error', 'max_pages: Too big: expected number to be <=10000', {
      details: { field: 'max_pages', location: 'body', issues: [{ field: 'max_pages', message: 'Too big: expected number to be <=10000' }] },
    }),
  },
  invalid_request: { summary: 'The body is not JSON', error: new ApiError('invalid_request', 'request body is not valid JSON', { details: { reason: 'invalid_json_body' } }) },
  unsupported_feature: {
    summary: 'A field v1 does not know',
    error: new ApiError('unsupported_feature', 'unsupported field: wait_ms', { details: { fields: ['wait_ms'], location: 'body' } }),
  },
  authentication_required: { summary: 'No or unknown API key', error: new ApiError('authentication_required', 'the API key is unknown or revoked') },
  payment_required: { summary: 'Out of credit (enforce mode)', error: new ApiError('payment_required', 'the team has no credit left', { details: { resource: 'scrape' } }) },
  permission_denied: { summary: 'The key lacks the scope', error: new ApiError('permission_denied', 'this API key has no access to crawl', { details: { scope: 'crawl' } }) },
  route_not_found: { summary: 'No such route', error: new ApiError('route_not_found', 'no such route; only documented /v1 paths exist') },
  run_not_found: { summary: 'Unknown or foreign run', error: new ApiError('run_not_found', 'no such run', { details: { run_id: 'run_0000000000000000000000' } }) },
  crawl_not_found: { summary: 'Unknown, foreign or forgotten crawl', error: new ApiError('crawl_not_found', 'no such crawl', { details: { crawl_id: 'crawl_0000000000000000000000' } }) },
  job_not_found: { summary: 'Unknown, foreign or forgotten job', error: new ApiError('job_not_found', 'no such job', { details: { job_id: 'job_0000000000000000000000' } }) },
  artifact_not_found: {
    summary: 'Unknown or foreign artifact',
    error: new ApiError('artifact_not_found', 'no such artifact', { details: { run_id: FETCH_RUN_ID, key: 'screenshot' } }),
  },
  session_not_found: { summary: 'Unknown session', error: new ApiError('session_not_found', 'no such session') },
  profile_not_found: { summary: 'Unknown profile', error: new ApiError('profile_not_found', 'no such profile') },
  method_not_allowed: {
    summary: 'Wrong method',
    error: new ApiError('method_not_allowed', 'this path answers GET, HEAD only', { details: { allow: ['GET', 'HEAD'] } }),
  },
  timeout: { summary: 'Deadline passed', error: pageFailureError({ blockReason: 'timeout', retryable: true, statusCode: null, detail: null }, FETCH_RUN_ID) },
  idempotency_conflict: {
    summary: 'Same key, other body',
    error: new ApiError('idempotency_conflict', 'this Idempotency-Key was used with a different request body'),
  },
  idempotency_in_progress: {
    summary: 'Same key, first request still running',
    error: new ApiError('idempotency_in_progress', 'a request with this Idempotency-Key is still running'),
  },
  run_not_ready: { summary: 'The run has not finished', error: new ApiError('run_not_ready', 'the run has not finished yet', { details: { run_id: FETCH_RUN_ID } }) },
  artifact_expired: {
    summary: 'Past retention',
    error: new ApiError('artifact_expired', 'the artifact retention period has elapsed', {
      details: { run_id: FETCH_RUN_ID, key: 'markdown', expired_at: '2026-11-28T09:14:02.947Z' },
    }),
  },
  rate_limited: {
    summary: 'Over the rate limit',
    error: new ApiError('rate_limited', 'rate limit of 600 requests per minute for fetch reached; retry after 7 s', {
      details: { route_class: 'fetch', limit: 600, retry_after_s: 7 },
    }),
  },
  quota_exceeded: { summary: 'Monthly quota used up', error: new ApiError('quota_exceeded', "the team's monthly crawl_pages quota is used up", { details: { resource: 'crawl_pages' } }) },
  internal_error: { summary: 'A fault of this server', error: new ApiError('internal_error', 'internal error; retry later') },
  fetch_failed: {
    summary: 'The target answered an error status',
    error: pageFailureError({ blockReason: 'http_error', retryable: true, statusCode: 503, detail: null }, FETCH_RUN_ID),
  },
  render_failed: {
    summary: 'The render failed',
    error: pageFailureError({ blockReason: 'render_failed', retryable: true, statusCode: null, detail: null }, FETCH_RUN_ID),
  },
  service_unavailable: {
    summary: 'The store is unreachable (cluster mode)',
    error: new ApiError('service_unavailable', 'the service is briefly unavailable; retry after the Retry-After delay', {
      details: { reason: 'store_unavailable' },
    }),
  },
};

const PAGE_OUTCOME_CODES = new Set<ErrorCode>(['timeout', 'fetch_failed', 'render_failed']);

const body = (e: ApiError): PublicErrorResponse => e.toBody(EXAMPLE_REQUEST_ID);

/**
 * Examples for one error response: one per listed code, plus, on page-run routes, one per page outcome (block
 * reason) that answers with that code.
 */
export function errorExamples(codes: ErrorCode[], pageOutcomes: readonly BlockReason[] = []): Record<string, Example> {
  const out: Record<string, Example> = {};
  for (const code of codes) {
    // A page outcome's own examples below say it better than the generic one.
    if (pageOutcomes.length > 0 && PAGE_OUTCOME_CODES.has(code)) continue;
    out[code] = { summary: SAMPLES[code].summary, value: body(SAMPLES[code].error) };
  }
  for (const reason of pageOutcomes) {
    const error = pageFailureError(
      { blockReason: reason, retryable: reason !== 'blocked_target', statusCode: reason === 'http_error' ? 503 : null, detail: null },
      FETCH_RUN_ID,
    );
    if (codes.includes(error.code)) out[`${error.code}.${reason}`] = { summary: `Page outcome: ${reason}`, value: body(error) };
  }
  return out;
}
