import { createHash, randomBytes } from 'node:crypto';

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
