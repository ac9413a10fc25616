import type { FastifyInstance } from 'fastify';
import { FetchRequest, PageRunResponse, type ErrorCode } from '@trawl/contract';
import { deliverPage, failPageRun, startPageRun } from '@trawl/runs';
import { scrapeLight } from '@trawl/scrape';
import { ApiError } from '../api-error.ts';
import type { GatewayContext } from '../context.ts';
import { withIdempotency } from '../idempotency.ts';
import { pageFailureError } from '../page-failure.ts';
import { teamOf } from '../plugins/auth.ts';
import { AUTH_ERRORS, BEARER_SECURITY, CREATION_ERRORS, IdempotencyHeaders, responses } from '../route-schema.ts';

const FETCH_ERRORS: ErrorCode[] = [
  ...AUTH_ERRORS,
  ...CREATION_ERRORS,
  'payment_required',
  'timeout',
  'rate_limited',
  'fetch_failed',
  'service_unavailable',
];

export function fetchRoutes(ctx: GatewayContext) {
  return async function (app: FastifyInstance) {
    const idem = { store: ctx.store, ttlS: ctx.config.TRAWL_IDEMPOTENCY_TTL_S, leaseS: Math.ceil(ctx.config.TRAWL_FETCH_TIMEOUT_MS / 1000) + 60 };
    app.post(
      '/v1/fetch',
      {
        config: { scope: 'fetch' },
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
        withIdempotency(request, reply, idem, async () => {
          const { url } = request.body as FetchRequest;
          const record = await startPageRun(ctx.runs, teamOf(request), 'fetch');
          if (!record) {
            const e = new ApiError('payment_required', 'the team has no credit left', { details: { resource: 'scrape' } });
            return { status: e.status, body: e.toBody(request.id), replayable: false };
          }
          try {
            const outcome = await scrapeLight(ctx, { url, deadline: ctx.now() + ctx.config.TRAWL_FETCH_TIMEOUT_MS });
            if (outcome.ok) {
              const body = await deliverPage(ctx.runs, record, outcome.page);
              return { status: 200, body, replayable: true };
            }
            const run = await failPageRun(ctx.runs, record, outcome.failure);
            const e = pageFailureError(outcome.failure, run.id);
            return { status: e.status, body: e.toBody(request.id), replayable: true };
          } catch (err) {
            await failPageRun(ctx.runs, record, { blockReason: 'internal_error', retryable: true });
            throw err;
          }
        }),
    );
  };
}
