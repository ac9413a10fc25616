import type { FastifyInstance } from 'fastify';
import { fastifyTRPCPlugin, type FastifyTRPCPluginOptions } from '@trpc/server/adapters/fastify';
import { adminContextOf, createAdminRouter, type AdminRouter } from '@trawl/admin';
import type { GatewayContext } from '../context.ts';
import { rateLimitDefaults } from '../plugins/rate-limit.ts';

/**
 * Mounts the operator's tRPC router (`@trawl/admin`) at /admin, guarded by TRAWL_ADMIN_TOKEN (not an API key: API
 * keys cannot manage teams, keys or billing). Absent token, absent routes.
 */
export function adminRoutes(gw: GatewayContext) {
  return async function (app: FastifyInstance) {
    const token = gw.config.TRAWL_ADMIN_TOKEN;
    if (!token) return;
    const router = createAdminRouter({
      store: gw.store,
      teamCredits: gw.config.TRAWL_TEAM_CREDITS,
      rateLimitDefaults: rateLimitDefaults(gw.config),
      now: gw.now,
      crawl: gw.crawl,
      trendsJobs: gw.trends,
    });
    const trpcOptions: FastifyTRPCPluginOptions<AdminRouter>['trpcOptions'] = {
      router,
      createContext: ({ req }) => adminContextOf(req.headers.authorization, token),
    };
    await app.register(fastifyTRPCPlugin, { prefix: '/admin', trpcOptions });
  };
}
