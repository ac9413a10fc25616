import { randomBytes } from 'node:crypto';
import type { Socket } from 'node:net';
import type { FastifyError, FastifyReply, FastifyRequest } from 'fastify';
import { ApiError } from '../api-error.ts';

// Errors Fastify and Node's HTTP parser answer before a route runs, brought into the contract's error object.
// None of them may echo what the caller sent (a path, a header): the message names the rule, not the input.

/** Why Node's HTTP parser refused a request, by its error code (llhttp's HPE_* and Node's own). */
const PARSER_REASONS: Record<string, { status: number; reason: string; message: string }> = {
  HPE_HEADER_OVERFLOW: { status: 431, reason: 'headers_too_large', message: 'request headers are too large' },
  HPE_URI_OVERFLOW: { status: 414, reason: 'uri_too_long', message: 'request URI is too long' },
  ERR_HTTP_REQUEST_TIMEOUT: { status: 408, reason: 'request_timeout', message: 'the request took too long to arrive' },
};
const MALFORMED = { status: 400, reason: 'malformed_request', message: 'the request is not valid HTTP' };

/**
 * The raw answer to a request Node could not parse: no route, no request id from the caller, so one is made.
 * The status keeps HTTP's meaning (431, 414) for proxies; the body is the contract's error object with
 * `invalid_request` (timeout: `timeout`) and the rule in `details.reason`.
 */
export function clientErrorHandler(err: Error & { code?: string }, socket: Socket): void {
  const known = (err.code !== undefined && PARSER_REASONS[err.code]) || MALFORMED;
  if (!socket.writable || err.code === 'ECONNRESET') {
    socket.destroy();
    return;
  }
  const code = known.status === 408 ? 'timeout' : 'invalid_request';
  const requestId = `req_${randomBytes(12).toString('base64url')}`;
  const body = JSON.stringify(new ApiError(code, known.message, { details: { reason: known.reason } }).toBody(requestId));
  const statusText = { 400: 'Bad Request', 408: 'Request Timeout', 414: 'URI Too Long', 431: 'Request Header Fields Too Large' }[known.status];
  socket.end(
    `HTTP/1.1 ${known.status} ${statusText}\r\nx-request-id: ${requestId}\r\nContent-Type: application/json; charset=utf-8\r\n` +
      `Content-Length: ${Buffer.byteLength(body)}\r\nConnection: close\r\n\r\n${body}`,
  );
}

/** Fastify's router errors (a bad URL encoding, a path parameter over maxParamLength), before any route. */
export function frameworkErrorOf(err: FastifyError): ApiError {
  if (err.code === 'FST_ERR_MAX_PARAM_LENGTH') {
    return new ApiError('invalid_request', 'a path parameter is too long', { details: { reason: 'path_parameter_too_long' } });
  }
  return new ApiError('invalid_request', 'the request URL is not valid', { details: { reason: 'bad_url' } });
}

export type SendApiError = (reply: FastifyReply, request: FastifyRequest, e: ApiError) => FastifyReply;

/** Route patterns by method, to tell "no such path" (404) from "not with this method" (405 with Allow). */
export class RouteMethods {
  private readonly patterns: { method: string; re: RegExp }[] = [];

  add(method: string, url: string): void {
    this.patterns.push({ method: method.toUpperCase(), re: patternOf(url) });
  }

  /** Methods some route answers on `path`, sorted; empty when no route has that path. */
  allowed(path: string): string[] {
    const bare = path.length > 1 ? path.replace(/\/+$/, '') : path;
    const methods = new Set<string>();
    for (const p of this.patterns) if (p.re.test(bare)) methods.add(p.method);
    return [...methods].sort();
  }
}

/** find-my-way syntax: `:name` is one segment, a trailing `*` anything. */
function patternOf(url: string): RegExp {
  const bare = url.length > 1 ? url.replace(/\/+$/, '') : url;
  const source = bare
    .split('/')
    .map((segment) => (segment === '*' ? '.*' : segment.startsWith(':') ? '[^/]+' : segment.replace(/[.*+?^${}()|[\]\\]/g, '\\$&')))
    .join('/');
  return new RegExp(`^${source}$`);
}
