import { randomBytes } from 'node:crypto';
import type { IncomingMessage } from 'node:http';

/** The ids kept from a caller (and the shape of every id this gateway makes): stated in the OpenAPI document. */
export const SAFE_ID = /^[A-Za-z0-9._:-]{8,128}$/;

/**
 * Request ids: a caller's `x-request-id` is kept when it is a plain token (so traces join up), otherwise
 * a fresh `req_…` is made. Never echoes arbitrary header content back.
 */
export function genRequestId(req: IncomingMessage): string {
  const given = req.headers['x-request-id'];
  if (typeof given === 'string' && SAFE_ID.test(given)) return given;
  return `req_${randomBytes(12).toString('base64url')}`;
}
