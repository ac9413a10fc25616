import type { FastifyError, FastifyInstance, FastifyReply, FastifyRequest } from 'fastify';
import { isStoreUnavailable } from '@trawl/redis';
import { ApiError } from '../api-error.ts';
import type { RouteMethods } from './framework-errors.ts';
import { storeUnavailableError } from '../store-unavailable.ts';
import { recordStoreUnavailable } from '@trawl/metrics';

/** Fastify's own client-error codes that mean "the request body or its framing is wrong". */
const INVALID_REQUEST_CODES = new Set([
  'FST_ERR_CTP_INVALID_MEDIA_TYPE',
  'FST_ERR_CTP_EMPTY_JSON_BODY',
  'FST_ERR_CTP_INVALID_JSON_BODY',
  'FST_ERR_CTP_BODY_TOO_LARGE',
  'FST_ERR_CTP_INVALID_CONTENT_LENGTH',
  'FST_ERR_CTP_EMPTY_TYPE',
  'FST_ERR_CTP_INVALID_TYPE',
]);

function describe(err: FastifyError): string {
  switch (err.code) {
    case 'FST_ERR_CTP_INVALID_MEDIA_TYPE':
    case 'FST_ERR_CTP_EMPTY_TYPE':
    case 'FST_ERR_CTP_INVALID_TYPE':
      return 'Content-Type must be application/json';
    case 'FST_ERR_CTP_BODY_TOO_LARGE':
      return 'request body is too large';
    case 'FST_ERR_CTP_EMPTY_JSON_BODY':
      return 'request body is empty';
    default:
      return 'request body is not valid JSON';
  }
}

/** Maps anything thrown during a request to the contract's error object. A caller's mistake is never a 500. */
export function toApiError(err: unknown): ApiError {
  if (err instanceof ApiError) return err;
  // Redis unreachable (restarting, network): a short outage the caller retries, not a fault (500) of ours.
  if (isStoreUnavailable(err)) {
    recordStoreUnavailable('request');
    return storeUnavailableError();
  }
  const fe = err as FastifyError & { validation?: unknown };
  if (fe && typeof fe === 'object') {
    if (typeof fe.code === 'string' && INVALID_REQUEST_CODES.has(fe.code)) {
      return new ApiError('invalid_request', describe(fe), { details: { reason: fe.code.replace(/^FST_ERR_CTP_/, '').toLowerCase() } });
    }
    // JSON.parse failures surface as SyntaxError with status 400 from the content-type parser.
    if (fe instanceof SyntaxError || (fe.statusCode === 400 && fe.name === 'SyntaxError')) {
      return new ApiError('invalid_request', 'request body is not valid JSON', { details: { reason: 'invalid_json_body' } });
    }
    if (typeof fe.statusCode === 'number' && fe.statusCode >= 400 && fe.statusCode < 500) {
      return new ApiError('invalid_request', 'the request could not be processed', { details: { reason: 'bad_request' } });
    }
  }
  return new ApiError('internal_error', 'internal error; retry later', { retryable: true });
}

export function sendApiError(reply: FastifyReply, request: FastifyRequest, e: ApiError): FastifyReply {
  // Also here: errors raised before the onRequest hook (router errors) must carry the id too.
  reply.header('x-request-id', request.id);
  for (const [k, v] of Object.entries(e.headers)) reply.header(k, v);
  return reply.code(e.status).type('application/json; charset=utf-8').send(e.toBody(request.id));
}

export function registerErrorHandling(app: FastifyInstance, routes: RouteMethods): void {
  app.setErrorHandler((err, request, reply) => {
    const e = toApiError(err);
    if (e.code === 'internal_error') request.log.error({ err }, 'unhandled error');
    return sendApiError(reply, request, e);
  });
  app.setNotFoundHandler((request, reply) => {
    const allowed = routes.allowed(request.url.split('?')[0]);
    if (allowed.length > 0) {
      const allow = allowed.join(', ');
      return sendApiError(
        reply,
        request,
        new ApiError('method_not_allowed', `this path answers ${allow} only`, { details: { allow: allowed }, headers: { allow } }),
      );
    }
    return sendApiError(reply, request, new ApiError('route_not_found', 'no such route; only documented /v1 paths exist'));
  });
}
