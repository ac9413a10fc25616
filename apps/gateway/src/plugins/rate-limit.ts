import type { FastifyInstance, FastifyReply, FastifyRequest } from 'fastify';
import { V1_ROUTE_RATE_CLASSES, type RateLimitClass } from '@trawl/contract';
import type { TrawlConfig } from '@trawl/config';
import type { RateLimitDecision, Store } from '@trawl/store';
import { ApiError } from '../api-error.ts';

declare module 'fastify' {
  interface FastifyContextConfig {
    /** The rate-limit class an authenticated route counts against (`V1_ROUTE_RATE_CLASSES` in the contract). */
    rateClass?: RateLimitClass;
  }
  interface FastifyRequest {
    /** The request's rate-limit decision once counted, for a refund (idempotent replays). */
    rateLimit: { team_id: string; route_class: RateLimitClass; decision: RateLimitDecision } | null;
    /** Over the limit with an Idempotency-Key: the 429 it gets unless it replays a completed request. */
    rateRefusal: ApiError | null;
  }
}

/** Whether a request replays a completed idempotent request (`idempotency.ts`); asked only of refused ones. */
export type ReplayCheck = (request: FastifyRequest) => Promise<boolean>;

/** The configured default per class (requests in any 60 seconds, 0 = unlimited). */
export function rateLimitDefaults(config: TrawlConfig): Record<RateLimitClass, number> {
  return {
    fetch: config.TRAWL_RATE_LIMIT_FETCH_PER_MIN,
    browser_scrape: config.TRAWL_RATE_LIMIT_BROWSER_SCRAPE_PER_MIN,
    crawl_create: config.TRAWL_RATE_LIMIT_CRAWL_CREATE_PER_MIN,
    trends_create: config.TRAWL_RATE_LIMIT_TRENDS_CREATE_PER_MIN,
    reads: config.TRAWL_RATE_LIMIT_READS_PER_MIN,
  };
}

function setHeaders(reply: FastifyReply, d: RateLimitDecision): void {
  reply.header('ratelimit-limit', String(d.limit));
  reply.header('ratelimit-remaining', String(d.remaining));
  reply.header('ratelimit-reset', String(d.reset_s));
}

/**
 * Counts every authenticated /v1 request against its team's limit for the route's class, right after
 * authentication (an onRequest hook registered after auth's) and before the body is read: a request refused for its
 * body (400) counts like any other; one refused by auth (401, 403) is not counted and carries no RateLimit headers.
 * Over the limit: 429 `rate_limited`, retryable, with Retry-After. Every answer after this point (errors included)
 * carries RateLimit-Limit / -Remaining / -Reset, unless the class is unlimited for the team. A store that cannot be
 * reached rejects here as everywhere (503 service_unavailable): the key was just read from the same store.
 * A replay of a completed idempotent request creates nothing and is answered even over the limit, uncounted:
 * a creation refused here that carries an Idempotency-Key gets its 429 once its body is read (preValidation),
 * unless `isReplay` finds the completed request it repeats. Only such requests cost that extra store read.
 */
export function registerRateLimits(
  app: FastifyInstance,
  store: Store,
  defaults: Record<RateLimitClass, number>,
  enabled = true,
  isReplay: ReplayCheck = async () => false,
): void {
  app.decorateRequest('rateLimit', null);
  app.decorateRequest('rateRefusal', null);
  app.addHook('onRoute', (r) => {
    if (!r.config?.scope) return;
    const cls = r.config.rateClass;
    for (const method of [r.method].flat()) {
      if (method === 'HEAD') continue;
      const expected = (V1_ROUTE_RATE_CLASSES as Record<string, RateLimitClass | undefined>)[`${method} ${r.url}`];
      if (!cls || cls !== expected) {
        throw new Error(`${method} ${r.url}: an authenticated route must name its rate-limit class (${expected ?? 'add it to V1_ROUTE_RATE_CLASSES'})`);
      }
    }
  });
  // TRAWL_RATE_LIMITS=off: out of the request path (the class check above still holds).
  if (!enabled) return;
  app.addHook('onRequest', async (request, reply) => {
    const cls = request.routeOptions.config?.rateClass;
    if (!cls || !request.apiKey) return;
    const team_id = request.apiKey.team_id;
    const d = await store.takeRateLimit(team_id, cls, defaults[cls]);
    if (d.limit === 0) return;
    setHeaders(reply, d);
    if (!d.allowed) {
      const refusal = new ApiError('rate_limited', `rate limit of ${d.limit} requests per minute for ${cls} reached; retry after ${d.retry_after_s} s`, {
        retryable: true,
        details: { route_class: cls, limit: d.limit, retry_after_s: d.retry_after_s },
        headers: { 'retry-after': String(d.retry_after_s) },
      });
      if (cls === 'reads' || request.headers['idempotency-key'] === undefined) throw refusal;
      request.rateRefusal = refusal;
      return;
    }
    request.rateLimit = { team_id, route_class: cls, decision: d };
  });
  app.addHook('preValidation', async (request) => {
    const refusal = request.rateRefusal;
    if (refusal && !(await isReplay(request))) throw refusal;
  });
}

/** An idempotent replay does not count: the request's unit goes back and its RateLimit-Remaining says so. */
export async function refundRateLimit(store: Store, request: FastifyRequest, reply: FastifyReply): Promise<void> {
  const r = request.rateLimit;
  if (!r || r.decision.slot === null) return;
  request.rateLimit = null;
  await store.refundRateLimit(r.team_id, r.route_class, r.decision.slot);
  setHeaders(reply, { ...r.decision, remaining: Math.min(r.decision.limit, r.decision.remaining + 1) });
}
