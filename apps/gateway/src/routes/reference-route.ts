import type { FastifyInstance } from 'fastify';
import fastifySwaggerUi from '@fastify/swagger-ui';
import { adminReference } from '@trawl/admin';
import type { GatewayContext } from '../context.ts';
import { ADMIN_PAGE_CSP, adminPage } from '../docs/admin-page.ts';
import { adminRouterOf } from './admin-trpc.ts';

/**
 * The plugin's policy, tightened: nothing from other origins (it allows fonts, styles and images from any https origin
 * and upgrades requests to https), scripts only from this origin, and the inline styles Swagger UI sets at run time.
 */
export function referenceCsp(header: string): string {
  return header
    .replace(/ validator\.swagger\.io/g, '')
    .replace(/ https:/g, '')
    .replace(/ ?upgrade-insecure-requests;?/, '')
    .replace(/style-src 'self'\s*;/, "style-src 'self' 'unsafe-inline';");
}

/**
 * The API references a person reads: /docs renders the public OpenAPI document with Swagger UI (the only module
 * importing @fastify/swagger-ui; its assets are served from the package, nothing from a CDN), /docs/admin the
 * operator's admin API. Both hold no secret and need no key, like the documents under /api-docs.
 */
export function referenceRoutes(gw: GatewayContext) {
  return async function (app: FastifyInstance) {
    await app.register(fastifySwaggerUi, {
      routePrefix: '/docs',
      theme: { title: 'Trawl API reference' },
      // BaseLayout: the document alone, without the top bar (a framework logo and a box to load other documents).
      uiConfig: {
        layout: 'BaseLayout',
        deepLinking: true,
        docExpansion: 'list',
        defaultModelsExpandDepth: 0,
        displayRequestDuration: true,
        tryItOutEnabled: false,
      },
      // No badge from the public validator service: the page loads nothing from elsewhere.
      validatorUrl: false,
      staticCSP: true,
      transformStaticCSP: referenceCsp,
    });
    const page = adminPage(adminReference(adminRouterOf(gw)));
    app.get('/docs/admin', { schema: { hide: true } }, async (_request, reply) =>
      reply.type('text/html; charset=utf-8').header('content-security-policy', ADMIN_PAGE_CSP).send(page),
    );
  };
}
