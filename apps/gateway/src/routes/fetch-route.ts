import type { FastifyInstance } from 'fastify';
import type { ZodTypeProvider } from 'fastify-type-provider-zod';
import { FetchRequest, PageRunResponse, type ErrorCode } from '@trawl/contract';
import { scrapeWaterfall } from '@trawl/scrape';
import type { GatewayContext } from '../context.ts';
import { idempotencyFor, withIdempotency } from '../idempotency.ts';
import { runPageCreation } from '../page-run-handler.ts';
import { AUTH_ERRORS, BEARER_SECURITY, CREATION_ERRORS, IdempotencyHeaders, responses } from '../route-schema.ts';

const FETCH_ERRORS: ErrorCode[] = [
  ...AUTH_ERRORS,
  ...CREATION_ERRORS,
  'payment_required',
  'quota_exceeded',
  'timeout',
  'fetch_failed',
  'service_unavailable',
];

export function fetchRoutes(ctx: GatewayContext) {
  return async function (plain: FastifyInstance) {
    // Bodies, params and queries typed from their zod schemas (fastify-type-provider-zod), never cast.
    const app = plain.withTypeProvider<ZodTypeProvider>();
    const idem = idempotencyFor(ctx, 'fetch');
    app.post(
      '/v1/fetch',
      {
        config: { scope: 'fetch', rateClass: 'fetch' },
        schema: {
          operationId: 'fetchPage',
          tags: ['fetch'],
          summary: 'Fetch one URL synchronously into Markdown, HTML, metadata and links',
          security: BEARER_SECURITY,
          headers: IdempotencyHeaders,
          body: FetchRequest,
          response: responses({ 200: PageRunResponse }, FETCH_ERRORS),
        },
      },
      async (request, reply) =>
        withIdempotency(request, reply, idem, () =>
          // The deadline is on the real clock the engines measure it with (ctx.now may be shifted, e.g. in tests).
          runPageCreation(ctx, request, 'fetch', () =>
            scrapeWaterfall(ctx, { url: request.body.url, deadline: Date.now() + ctx.config.TRAWL_FETCH_TIMEOUT_MS }),
          ),
        ),
    );
  };
}
