import type { FastifyInstance } from 'fastify';
import type { ZodTypeProvider } from 'fastify-type-provider-zod';
import { BrowserScrapeRequest, PageRunResponse, type ErrorCode } from '@trawl/contract';
import { scrapeBrowser } from '@trawl/scrape';
import type { GatewayContext } from '../context.ts';
import { idempotencyFor, withIdempotency } from '../idempotency.ts';
import { runPageCreation } from '../page-run-handler.ts';
import { AUTH_ERRORS, BEARER_SECURITY, CREATION_ERRORS, IdempotencyHeaders, responses } from '../route-schema.ts';

const BROWSER_SCRAPE_ERRORS: ErrorCode[] = [
  ...AUTH_ERRORS,
  ...CREATION_ERRORS,
  'payment_required',
  'quota_exceeded',
  'timeout',
  'fetch_failed',
  'render_failed',
  'service_unavailable',
];

/** POST /v1/browser-scrape: one URL rendered in Chromium with the browser controls (run type browser_scrape). */
export function browserScrapeRoutes(ctx: GatewayContext) {
  return async function (plain: FastifyInstance) {
    // Bodies, params and queries typed from their zod schemas (fastify-type-provider-zod), never cast.
    const app = plain.withTypeProvider<ZodTypeProvider>();
    const idem = idempotencyFor(ctx, 'browser_scrape');
    app.post(
      '/v1/browser-scrape',
      {
        config: { scope: 'fetch', rateClass: 'browser_scrape' },
        schema: {
          operationId: 'browserScrape',
          tags: ['fetch'],
          summary: 'Render one URL in the browser engine (JavaScript, shadow DOM, iframes, virtual scroll), with optional screenshot and HAR',
          security: BEARER_SECURITY,
          headers: IdempotencyHeaders,
          body: BrowserScrapeRequest,
          response: responses({ 200: PageRunResponse }, BROWSER_SCRAPE_ERRORS),
        },
      },
      async (request, reply) =>
        withIdempotency(request, reply, idem, () => {
          const body = request.body;
          return runPageCreation(ctx, request, 'browser_scrape', () =>
            scrapeBrowser(ctx, {
              url: body.url,
              // On the real clock the engines measure it with (ctx.now may be shifted, e.g. in tests).
              deadline: Date.now() + ctx.config.TRAWL_FETCH_TIMEOUT_MS,
              controls: body.browser,
              screenshot: body.screenshot,
              record: body.record,
            }),
          );
        }),
    );
  };
}
