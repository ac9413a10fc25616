import type { FastifyInstance } from 'fastify';
import { sameSecret } from '@trawl/admin';
import { METRICS_CONTENT_TYPE, metricsText, recordRequest } from '@trawl/metrics';
import { ApiError } from '../api-error.ts';
import type { GatewayContext } from '../context.ts';

/**
 * Request metrics for /v1 (count and latency by route pattern, method and status; never the raw URL) and the
 * operator's `GET /metrics` in Prometheus text format, guarded by TRAWL_ADMIN_TOKEN: without the token configured
 * the route does not exist (404, like /admin); with it, anything but `Authorization: Bearer <admin token>` (no
 * header, an API key) is 401 `authentication_required`. TRAWL_METRICS=off takes both out.
 */
export function metricsRoutes(ctx: GatewayContext) {
  return async function (app: FastifyInstance) {
    if (ctx.config.TRAWL_METRICS === 'off') return;
    const token = ctx.config.TRAWL_ADMIN_TOKEN;
    if (!token) return;
    app.get('/metrics', { schema: { hide: true } }, async (request, reply) => {
      const m = /^Bearer (.+)$/.exec(request.headers.authorization ?? '');
      if (!m || !sameSecret(m[1], token)) throw new ApiError('authentication_required', 'send Authorization: Bearer <admin token>');
      return reply.type(METRICS_CONTENT_TYPE).send(await metricsText());
    });
  };
}

/** Times and counts every answered /v1 request (404s of unknown /v1 paths as route `unmatched`). */
export function registerRequestMetrics(app: FastifyInstance, ctx: GatewayContext): void {
  if (ctx.config.TRAWL_METRICS === 'off') return;
  app.addHook('onResponse', async (request, reply) => {
    const route = request.routeOptions.url;
    if (route === undefined ? !request.url.startsWith('/v1/') : !route.startsWith('/v1/')) return;
    recordRequest(route, request.method, reply.statusCode, reply.elapsedTime / 1000);
  });
}
