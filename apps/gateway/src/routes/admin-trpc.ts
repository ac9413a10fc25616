import type { FastifyInstance } from 'fastify';
import { fastifyTRPCPlugin, type FastifyTRPCPluginOptions } from '@trpc/server/adapters/fastify';
import { adminContextOf, createAdminRouter, type AdminRouter } from '@trawl/admin';
import type { GatewayContext } from '../context.ts';
import { rateLimitDefaults } from '../plugins/rate-limit.ts';

/** The operator's tRPC router on this gateway's services: mounted at /admin, and read for its reference page. */
export function adminRouterOf(gw: GatewayContext): AdminRouter {
  return createAdminRouter({
    store: gw.store,
    teamCredits: gw.config.TRAWL_TEAM_CREDITS,
    rateLimitDefaults: rateLimitDefaults(gw.config),
    now: gw.now,
    crawl: gw.crawl,
    trendsJobs: gw.trends,
  });
}

/**
 * Mounts the operator's tRPC router (`@trawl/admin`) at /admin, guarded by TRAWL_ADMIN_TOKEN (not an API key: API
 * keys cannot manage teams, keys or billing). Absent token, absent routes.
 */
export function adminRoutes(gw: GatewayContext) {
  return async function (app: FastifyInstance) {
    const token = gw.config.TRAWL_ADMIN_TOKEN;
    if (!token) return;
    const trpcOptions: FastifyTRPCPluginOptions<AdminRouter>['trpcOptions'] = {
      router: adminRouterOf(gw),
      createContext: ({ req }) => adminContextOf(req.headers.authorization, token),
    };
    // The admin API is the operator's, documented at /docs/admin: never a path of the public OpenAPI document.
    app.addHook('onRoute', (route) => {
      route.schema = { ...route.schema, hide: true };
    });
    await app.register(fastifyTRPCPlugin, { prefix: '/admin', trpcOptions });
  };
}
