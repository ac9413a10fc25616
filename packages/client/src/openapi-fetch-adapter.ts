import createClient, { type Client } from 'openapi-fetch';
import type { paths } from './schema.ts';

/** The typed openapi-fetch client of every /v1 route (the only module importing openapi-fetch). */
export type RawClient = Client<paths>;

export interface RawClientOptions {
  baseUrl: string;
  apiKey: string;
  /** A fetch implementation (default: the global one). */
  fetch?: typeof globalThis.fetch;
  /** Extra headers sent on every request (e.g. a user agent). */
  headers?: Record<string, string>;
}

export function createRawClient(opts: RawClientOptions): RawClient {
  return createClient<paths>({
    baseUrl: opts.baseUrl,
    fetch: opts.fetch,
    headers: { ...opts.headers, authorization: `Bearer ${opts.apiKey}` },
  });
}
