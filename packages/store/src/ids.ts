import { createHash, randomBytes } from 'node:crypto';
import type { ApiKeyRecord } from './types.ts';

/** Opaque prefixed ids (`run_…`, `crawl_…`): 16 random bytes, base64url. */
export function newId(prefix: string): string {
  return `${prefix}_${randomBytes(16).toString('base64url')}`;
}

/** API keys are high-entropy random strings, so a plain SHA-256 is a sufficient one-way hash. */
export function hashSecret(secret: string): string {
  return createHash('sha256').update(secret).digest('hex');
}

export function newApiKeySecret(): string {
  return `trawl_${randomBytes(32).toString('base64url')}`;
}

/** A new live key of a team: its record, its secret (generated unless given) and the hash stored in its place. */
export function newApiKey(
  teamId: string,
  opts: { label: string; scopes: ApiKeyRecord['scopes']; secret?: string },
  createdAt: string,
): { key: ApiKeyRecord; secret: string; hash: string } {
  const secret = opts.secret ?? newApiKeySecret();
  const key = { id: newId('key'), team_id: teamId, label: opts.label, scopes: [...opts.scopes], created_at: createdAt, revoked_at: null };
  return { key, secret, hash: hashSecret(secret) };
}
