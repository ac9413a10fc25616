import { createHmac, timingSafeEqual } from 'node:crypto';

/** The header every delivery carries: `t=<unix seconds>,v1=<hex HMAC-SHA256 of "<t>.<raw body>" with the secret>`. */
export const SIGNATURE_HEADER = 'trawl-signature';

export function signPayload(secret: string, timestampS: number, body: string): string {
  const mac = createHmac('sha256', secret).update(`${timestampS}.${body}`).digest('hex');
  return `t=${timestampS},v1=${mac}`;
}

/**
 * What a receiver does (README "Webhooks" shows the same steps): recompute the HMAC over the timestamp and the raw
 * body, compare in constant time, and refuse a timestamp older than `toleranceS` (a replayed delivery).
 */
export function verifySignature(secret: string, header: string, body: string, nowS: number, toleranceS = 300): boolean {
  const parts = Object.fromEntries(header.split(',').map((p) => p.split('=', 2) as [string, string]));
  const t = Number(parts.t);
  if (!Number.isInteger(t) || Math.abs(nowS - t) > toleranceS || typeof parts.v1 !== 'string') return false;
  const want = Buffer.from(signPayload(secret, t, body).slice(`t=${t},v1=`.length), 'hex');
  const got = Buffer.from(parts.v1, 'hex');
  return got.length === want.length && timingSafeEqual(got, want);
}
