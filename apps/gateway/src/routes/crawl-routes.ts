import type { FastifyInstance } from 'fastify';
import type { ZodTypeProvider } from 'fastify-type-provider-zod';
import { z } from 'zod';
import { CrawlCreateResponse, CrawlItemsPage, CrawlRequest, CrawlResponse, WebhookDeliveriesPage, type ErrorCode } from '@trawl/contract';
import { cancelTeamCrawl, createCrawl, getCrawlJob, listItems, listWebhookDeliveries, PlanError, setCrawlPaused, type ListResult } from '@trawl/crawler';
import { ApiError, quotaExceededError } from '../api-error.ts';
import type { GatewayContext } from '../context.ts';
import { idempotencyFor, refusal, withIdempotency } from '../idempotency.ts';
import { teamOf } from '../plugins/auth.ts';
import { AUTH_ERRORS, BEARER_SECURITY, CREATION_ERRORS, IdempotencyHeaders, responses } from '../route-schema.ts';

const CrawlParams = z.strictObject({ crawl_id: z.string().min(1).max(200) });
/** A page of a crawl's list (items, webhook deliveries). */
const PageQuery = z.strictObject({
  cursor: z.string().min(1).max(64).optional().meta({ description: 'Opaque cursor from next_cursor.' }),
  limit: z.coerce.number().int().min(1).max(100).default(20),
});

export function crawlRoutes(ctx: GatewayContext) {
  const idem = idempotencyFor(ctx, 'crawl');
  const notFound = (crawl_id: string) => new ApiError('crawl_not_found', 'no such crawl', { details: { crawl_id } });
  const readErrors: ErrorCode[] = [...AUTH_ERRORS, 'validation_error', 'unsupported_feature', 'crawl_not_found'];
  /** A paged list's answer, or its error: a cursor of another list (or none of ours) is 400, a missing crawl 404. */
  function pageOrError<P>(crawl_id: string, r: ListResult<P>): P {
    if (r.ok) return r.page;
    if (r.reason === 'bad_cursor') throw new ApiError('validation_error', 'cursor is not a cursor of this list', { details: { field: 'cursor' } });
    throw notFound(crawl_id);
  }

  return async function (plain: FastifyInstance) {
    // Bodies, params and queries typed from their zod schemas (fastify-type-provider-zod), never cast.
    const app = plain.withTypeProvider<ZodTypeProvider>();
    app.post(
      '/v1/crawl',
      {
        config: { scope: 'crawl', rateClass: 'crawl_create' },
        schema: {
          operationId: 'createCrawl',
          tags: ['crawl'],
          summary: 'Start an asynchronous crawl of 1 to 100 seeds within a scope',
          security: BEARER_SECURITY,
          headers: IdempotencyHeaders,
          body: CrawlRequest,
          response: responses({ 202: CrawlCreateResponse }, [...AUTH_ERRORS, ...CREATION_ERRORS, 'payment_required', 'quota_exceeded']),
        },
      },
      async (request, reply) => {
        const body = request.body;
        return withIdempotency(request, reply, idem, async () => {
          let created;
          try {
            created = await createCrawl(ctx.crawl, teamOf(request), body);
          } catch (err) {
            if (err instanceof PlanError) {
              throw new ApiError('validation_error', err.message, { details: { field: err.field, location: 'body', issues: err.issues } });
            }
            throw err;
          }
          if (!created.ok) {
            const e =
              created.reason === 'quota_exceeded'
                ? quotaExceededError(created.resource)
                : new ApiError('payment_required', 'the team has no credit left', { details: { resource: 'crawl' } });
            return refusal(request, e);
          }
          return { status: 202, body: { crawl: created.crawl, run: created.run }, replayable: true };
        });
      },
    );

    app.get(
      '/v1/crawl/:crawl_id',
      {
        config: { scope: 'crawl', rateClass: 'reads' },
        schema: {
          operationId: 'getCrawl',
          tags: ['crawl'],
          summary: 'Crawl status: progress, terminal state, counters, failure and diagnostics',
          security: BEARER_SECURITY,
          params: CrawlParams,
          response: responses({ 200: CrawlResponse }, readErrors),
        },
      },
      async (request) => {
        const { crawl_id } = request.params;
        const crawl = await getCrawlJob(ctx.crawl, teamOf(request), crawl_id);
        if (!crawl) throw notFound(crawl_id);
        return { crawl };
      },
    );

    app.get(
      '/v1/crawl/:crawl_id/items',
      {
        config: { scope: 'crawl', rateClass: 'reads' },
        schema: {
          operationId: 'listCrawlItems',
          tags: ['crawl'],
          summary: 'Delivered pages of a crawl, in delivery order, with an opaque cursor (stable while the crawl runs)',
          security: BEARER_SECURITY,
          params: CrawlParams,
          querystring: PageQuery,
          response: responses({ 200: CrawlItemsPage }, readErrors),
        },
      },
      async (request) => {
        const { crawl_id } = request.params;
        const { cursor, limit } = request.query;
        return pageOrError(crawl_id, await listItems(ctx.crawl, teamOf(request), crawl_id, cursor, limit));
      },
    );

    app.get(
      '/v1/crawl/:crawl_id/webhooks',
      {
        config: { scope: 'crawl', rateClass: 'reads' },
        schema: {
          operationId: 'listCrawlWebhookDeliveries',
          tags: ['crawl'],
          summary: "The crawl's webhook events, each with its delivery status, attempts and last outcome, with an opaque cursor",
          security: BEARER_SECURITY,
          params: CrawlParams,
          querystring: PageQuery,
          response: responses({ 200: WebhookDeliveriesPage }, readErrors),
        },
      },
      async (request) => {
        const { crawl_id } = request.params;
        const { cursor, limit } = request.query;
        return pageOrError(crawl_id, await listWebhookDeliveries(ctx.crawl, teamOf(request), crawl_id, cursor, limit));
      },
    );

    for (const action of ['pause', 'resume'] as const) {
      app.post(
        `/v1/crawl/:crawl_id/${action}`,
        {
          config: { scope: 'crawl', rateClass: 'reads' },
          schema: {
            operationId: `${action}Crawl`,
            tags: ['crawl'],
            summary: action === 'pause' ? 'Pause a queued or running crawl' : 'Resume a paused crawl',
            security: BEARER_SECURITY,
            params: CrawlParams,
            response: responses({ 200: CrawlResponse }, [...readErrors, 'invalid_request']),
          },
        },
        async (request) => {
          const { crawl_id } = request.params;
          const r = await setCrawlPaused(ctx.crawl, teamOf(request), crawl_id, action === 'pause');
          if (r === null) throw notFound(crawl_id);
          if (r === false) {
            throw new ApiError('invalid_request', `the crawl cannot be ${action === 'pause' ? 'paused' : 'resumed'} in its current status`, {
              details: { crawl_id },
            });
          }
          return { crawl: r };
        },
      );
    }

    app.delete(
      '/v1/crawl/:crawl_id',
      {
        config: { scope: 'crawl', rateClass: 'reads' },
        schema: {
          operationId: 'cancelCrawl',
          tags: ['crawl'],
          summary: 'Cancel a crawl: pending pages dropped, delivered items kept (failure.code cancelled); repeating it is safe',
          security: BEARER_SECURITY,
          params: CrawlParams,
          response: responses({ 200: CrawlResponse }, [...readErrors, 'invalid_request']),
        },
      },
      async (request) => {
        const { crawl_id } = request.params;
        const r = await cancelTeamCrawl(ctx.crawl, teamOf(request), crawl_id);
        if (r.ok) return { crawl: r.crawl };
        if (r.reason === 'not_found') throw notFound(crawl_id);
        throw new ApiError('invalid_request', 'the crawl has already ended', { details: { crawl_id, status: r.crawl.status } });
      },
    );
  };
}
