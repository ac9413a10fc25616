import { createHash, timingSafeEqual } from 'node:crypto';
import type { AdminContext } from './trpc.ts';

/** Compares two secrets in constant time, whatever their lengths (both are hashed first). */
export function sameSecret(a: string, b: string): boolean {
  const h = (s: string) => createHash('sha256').update(s).digest();
  return timingSafeEqual(h(a), h(b));
}

/**
 * The context of an admin request: admin only with exactly `Authorization: Bearer <TRAWL_ADMIN_TOKEN>`. An API key
 * is not an admin token, so /v1 keys get nothing here.
 */
export function adminContextOf(authorization: string | undefined, token: string): AdminContext {
  const m = /^Bearer (.+)$/.exec(authorization ?? '');
  return { admin: m !== null && sameSecret(m[1], token) };
}
