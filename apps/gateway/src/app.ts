import Fastify, { LogController, type FastifyBaseLogger, type FastifyInstance } from 'fastify';
import fastifySwagger from '@fastify/swagger';
import type { Logger } from '@trawl/process';
import type { GatewayContext } from './context.ts';
import { checkHealth, checkReadiness } from './health.ts';
import { completedReplay } from './idempotency.ts';
import { registerAuth } from './plugins/auth.ts';
import { rateLimitDefaults, registerRateLimits } from './plugins/rate-limit.ts';
import { registerErrorHandling, sendApiError } from './plugins/errors.ts';
import { clientErrorHandler, frameworkErrorOf, RouteMethods } from './plugins/framework-errors.ts';
import { genRequestId } from './plugins/request-id.ts';
import { checkingSerializer, plainSerializer } from './response-check.ts';
import { openApiOptions } from './docs/openapi-document.ts';
import { zodValidatorCompiler } from './validation.ts';
import { docsRoutes } from './routes/docs-route.ts';
import { referenceRoutes } from './routes/reference-route.ts';
import { fetchRoutes } from './routes/fetch-route.ts';
import { browserScrapeRoutes } from './routes/browser-scrape-route.ts';
import { runRoutes } from './routes/run-routes.ts';
import { adminRoutes } from './routes/admin-trpc.ts';
import { crawlRoutes } from './routes/crawl-routes.ts';
import { crawlExportRoute } from './routes/crawl-export-route.ts';
import { crawlEventsRoute } from './routes/crawl-events-route.ts';
import { trendsRoutes } from './routes/trends-routes.ts';
import { metricsRoutes, registerRequestMetrics } from './routes/metrics-route.ts';

declare module 'fastify' {
  interface FastifyInstance {
    /** Every route registered, for the OpenAPI completeness check and operators' introspection. */
    routeList: { method: string; url: string }[];
  }
}

/**
 * The gateway's lines on the process logger: the request id on each, a request as its method and route pattern
 * (never the raw URL: query strings are the caller's data), a reply as its status; never a header or a body.
 */
const HTTP_LOG = {
  redact: { paths: ['req.headers', 'headers', 'res.headers'], remove: true },
  serializers: {
    req: (req: { method: string; routeOptions?: { url?: string } }) => ({ method: req.method, route: req.routeOptions?.url ?? 'unmatched' }),
    res: (res: { statusCode: number }) => ({ statusCode: res.statusCode }),
  },
};

export async function buildApp(ctx: GatewayContext, log: Logger): Promise<FastifyInstance> {
  const app = Fastify({
    loggerInstance: log.child({}, HTTP_LOG) as FastifyBaseLogger,
    genReqId: genRequestId,
    logController: new LogController({ requestIdLogLabel: 'request_id' }),
    bodyLimit: 2 * 1024 * 1024,
    return503OnClosing: true,
    routerOptions: { ignoreTrailingSlash: true },
    // Requests refused before any route (unparseable HTTP, oversized headers, bad URLs) keep the error shape.
    clientErrorHandler,
    frameworkErrors: (err, request, reply) => sendApiError(reply, request, frameworkErrorOf(err)),
  });
  // JSON only: fastify's built-in text/plain parser would hand a string to the body schema.
  app.removeContentTypeParser('text/plain');
  app.setValidatorCompiler(zodValidatorCompiler);
  app.setSerializerCompiler(ctx.config.TRAWL_CHECK_RESPONSES ? checkingSerializer : plainSerializer);
  app.addHook('onRequest', async (request, reply) => {
    reply.header('x-request-id', request.id);
  });
  const routeList: { method: string; url: string }[] = [];
  app.decorate('routeList', routeList);
  const routeMethods = new RouteMethods();
  app.addHook('onRoute', (r) => {
    for (const method of [r.method].flat()) {
      routeList.push({ method, url: r.url });
      routeMethods.add(method, r.url);
    }
  });
  registerRequestMetrics(app, ctx);
  registerErrorHandling(app, routeMethods);
  registerAuth(app, ctx.store, ctx.recoverKey);
  // After auth (hooks run in registration order): only an authenticated team's requests are counted.
  registerRateLimits(app, ctx.store, rateLimitDefaults(ctx.config), ctx.config.TRAWL_RATE_LIMITS === 'on', completedReplay(ctx.store));

  await app.register(fastifySwagger, openApiOptions());
  await app.register(docsRoutes);
  await app.register(referenceRoutes(ctx));
  await app.register(fetchRoutes(ctx));
  await app.register(browserScrapeRoutes(ctx));
  await app.register(crawlRoutes(ctx));
  await app.register(crawlExportRoute(ctx));
  await app.register(crawlEventsRoute(ctx));
  await app.register(trendsRoutes(ctx));
  await app.register(runRoutes(ctx));
  await app.register(adminRoutes(ctx));
  await app.register(metricsRoutes(ctx));
  app.get('/healthz', { schema: { hide: true } }, async (_request, reply) => {
    const health = await checkHealth(ctx.store);
    return reply.code(health.ok ? 200 : 503).send(health);
  });
  app.get('/readyz', { schema: { hide: true } }, async (_request, reply) => {
    const ready = await checkReadiness(ctx.store, ctx.config.TRAWL_CHROMIUM_PATH, ctx.space);
    return reply.code(ready.ok ? 200 : 503).send(ready);
  });
  return app;
}
