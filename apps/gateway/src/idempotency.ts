import { createHash } from 'node:crypto';
import type { FastifyReply, FastifyRequest } from 'fastify';
import type { Store, StoredResponse } from '@trawl/store';
import type { TrawlConfig } from '@trawl/config';
import { ApiError } from './api-error.ts';
import type { GatewayContext } from './context.ts';
import { creationRefusal } from './data-dir-full.ts';
import { teamOf } from './plugins/auth.ts';
import { refundRateLimit } from './plugins/rate-limit.ts';
import { IDEMPOTENCY_KEY } from './route-schema.ts';

/** Canonical JSON (sorted keys), so the same body sent with other whitespace or key order matches. */
function canonical(value: unknown): string {
  if (Array.isArray(value)) return `[${value.map(canonical).join(',')}]`;
  if (value && typeof value === 'object') {
    const o = value as Record<string, unknown>;
    return `{${Object.keys(o)
      .sort()
      .map((k) => `${JSON.stringify(k)}:${canonical(o[k])}`)
      .join(',')}}`;
  }
  return JSON.stringify(value) ?? 'null';
}

export interface IdempotencyOptions {
  store: Store;
  ttlS: number;
  /** How long a claim holds while its first request is still running. */
  leaseS: number;
  /** Why nothing may be created now (the data directory is full), or null; asked once per request. */
  refuse: () => ApiError | null;
}

/** The creations that take an `Idempotency-Key`. */
export type CreationKind = 'fetch' | 'browser_scrape' | 'crawl' | 'trends';

/**
 * How long a claim holds while the first request runs, per creation kind: a page run may scrape for the whole
 * request deadline; creating a crawl or a trends job only writes to the store. A minute of slack either way.
 */
const CLAIM_SECONDS = {
  fetch: (fetchTimeoutMs) => Math.ceil(fetchTimeoutMs / 1000) + 60,
  browser_scrape: (fetchTimeoutMs) => Math.ceil(fetchTimeoutMs / 1000) + 60,
  crawl: () => 60,
  trends: () => 60,
} satisfies Record<CreationKind, (fetchTimeoutMs: number) => number>;

/** The idempotency options of one creation kind: the one place their claim, retention and refusal are set. */
export function idempotencyFor(
  ctx: Pick<GatewayContext, 'store' | 'space'> & { config: Pick<TrawlConfig, 'TRAWL_IDEMPOTENCY_TTL_S' | 'TRAWL_FETCH_TIMEOUT_MS'> },
  kind: CreationKind,
): IdempotencyOptions {
  const { store, config, space } = ctx;
  return {
    store,
    ttlS: config.TRAWL_IDEMPOTENCY_TTL_S,
    leaseS: CLAIM_SECONDS[kind](config.TRAWL_FETCH_TIMEOUT_MS),
    refuse: () => creationRefusal(space),
  };
}

/** What a creation handler produces: the response and whether replaying it later is right. */
export interface CreationResult {
  status: number;
  body: unknown;
  /** False for answers that created nothing (e.g. out of credit): the key is released, not stored. */
  replayable: boolean;
  /** Extra response headers (e.g. Retry-After); sent on the first answer only. */
  headers?: Record<string, string>;
}

/** An answer that created nothing (402, 429 quota_exceeded): sent, and its key released rather than replayed. */
export function refusal(request: FastifyRequest, e: ApiError): CreationResult {
  return { status: e.status, body: e.toBody(request.id), replayable: false };
}

/**
 * Runs a creation operation under the caller's `Idempotency-Key`, if any: the same team, key and body get
 * the first response replayed; another body gets 409 idempotency_conflict; a still-running first request
 * gets 409 idempotency_in_progress. Keys are per team and per route. A request that would create something while
 * `opts.refuse` says no (the data directory is full) gets that error instead, and its key is released; a replay
 * creates nothing and is still answered.
 */
export async function withIdempotency(
  request: FastifyRequest,
  reply: FastifyReply,
  opts: IdempotencyOptions,
  create: () => Promise<CreationResult>,
): Promise<FastifyReply> {
  const refused = opts.refuse();
  if (request.headers['idempotency-key'] === undefined) {
    if (refused) throw refused;
    return send(reply, await create());
  }
  const record = recordOf(request);
  if (!record) {
    throw new ApiError('invalid_request', 'Idempotency-Key must be 1-255 visible ASCII characters', {
      details: { header: 'Idempotency-Key' },
    });
  }
  const { key, fingerprint } = record;
  const begun = await opts.store.beginIdempotent(key, fingerprint, opts.leaseS);
  // Let in over its rate limit only as a replay (plugins/rate-limit.ts): should the record have lapsed since,
  // the request is refused after all rather than run.
  if (request.rateRefusal && begun.state !== 'replay') {
    if (begun.state === 'started') await opts.store.releaseIdempotent(key, fingerprint);
    throw request.rateRefusal;
  }
  switch (begun.state) {
    case 'conflict':
      throw new ApiError('idempotency_conflict', 'this Idempotency-Key was used with a different request body');
    case 'in_progress':
      throw new ApiError('idempotency_in_progress', 'a request with this Idempotency-Key is still running', {
        headers: { 'retry-after': '1' },
      });
    case 'replay':
      // A replay creates nothing: it does not count against the team's rate limit (its unit is given back).
      await refundRateLimit(opts.store, request, reply);
      reply.header('idempotent-replayed', 'true');
      return reply.code(begun.response.status).type('application/json; charset=utf-8').send(begun.response.body);
  }
  if (refused) {
    await opts.store.releaseIdempotent(key, fingerprint);
    throw refused;
  }
  let result: CreationResult;
  try {
    result = await create();
  } catch (err) {
    await opts.store.releaseIdempotent(key, fingerprint);
    throw err;
  }
  if (!result.replayable) {
    await opts.store.releaseIdempotent(key, fingerprint);
    return send(reply, result);
  }
  for (const [k, v] of Object.entries(result.headers ?? {})) reply.header(k, v);
  const stored: StoredResponse = { status: result.status, body: JSON.stringify(result.body) };
  await opts.store.completeIdempotent(key, fingerprint, stored, opts.ttlS);
  return reply.code(stored.status).type('application/json; charset=utf-8').send(stored.body);
}

/** The record a request's Idempotency-Key names (per team and route) and its body's fingerprint; null for a bad key. */
function recordOf(request: FastifyRequest): { key: string; fingerprint: string } | null {
  const header = request.headers['idempotency-key'];
  if (typeof header !== 'string' || !IDEMPOTENCY_KEY.test(header)) return null;
  const route = `${request.method} ${request.routeOptions.url}`;
  const key = `${teamOf(request)}:${createHash('sha256').update(`${route}\n${header}`).digest('base64url')}`;
  const fingerprint = createHash('sha256').update(canonical(request.body)).digest('base64url');
  return { key, fingerprint };
}

/** The rate limiter's `isReplay`: whether the request repeats a completed one (same team, route, key and body). */
export function completedReplay(store: Store): (request: FastifyRequest) => Promise<boolean> {
  return async (request) => {
    const record = recordOf(request);
    return record !== null && (await store.hasReplay(record.key, record.fingerprint));
  };
}

function send(reply: FastifyReply, r: CreationResult): FastifyReply {
  for (const [k, v] of Object.entries(r.headers ?? {})) reply.header(k, v);
  return reply.code(r.status).type('application/json; charset=utf-8').send(JSON.stringify(r.body));
}
