import { randomBytes } from 'node:crypto';

/**
 * Lease tokens begin with the lease time (epoch ms, base 36) and a dot, so how long a lease has been out is read
 * from its token alone (crawl-host-loads-2.lua reads it the same way). The rest is random: a token is unique.
 */
export function leaseTokenPrefix(now: number): string {
  return `${Math.max(0, Math.floor(now)).toString(36)}.${randomBytes(9).toString('base64url')}`;
}

/** When the lease was taken, or null for a token without the time. */
export function leasedAt(token: string): number | null {
  const dot = token.indexOf('.');
  if (dot <= 0) return null;
  const ms = parseInt(token.slice(0, dot), 36);
  return Number.isFinite(ms) ? ms : null;
}
