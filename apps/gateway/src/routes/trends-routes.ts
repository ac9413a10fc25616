import type { FastifyInstance } from 'fastify';
import type { ZodTypeProvider } from 'fastify-type-provider-zod';
import { z } from 'zod';
import { TrendsGrain, TrendsJobResponse, type ErrorCode } from '@trawl/contract';
import { createTrendsJob, readTrendsJob } from '@trawl/trends';
import { ApiError, quotaExceededError } from '../api-error.ts';
import type { GatewayContext } from '../context.ts';
import { idempotencyFor, refusal, withIdempotency } from '../idempotency.ts';
import { teamOf } from '../plugins/auth.ts';
import { AUTH_ERRORS, BEARER_SECURITY, CREATION_ERRORS, IdempotencyHeaders, responses } from '../route-schema.ts';

const JobParams = z.strictObject({ job_id: z.string().min(1).max(200) });

/** Search-trends Related Queries: a grain in, a durable job out; the job is read back by polling. */
export function trendsRoutes(ctx: GatewayContext) {
  const idem = idempotencyFor(ctx, 'trends');
  const readErrors: ErrorCode[] = [...AUTH_ERRORS, 'validation_error', 'job_not_found'];

  return async function (plain: FastifyInstance) {
    // Bodies, params and queries typed from their zod schemas (fastify-type-provider-zod), never cast.
    const app = plain.withTypeProvider<ZodTypeProvider>();
    app.post(
      '/v1/search-trends/related-queries',
      {
        config: { scope: 'trends', rateClass: 'trends_create' },
        schema: {
          operationId: 'createRelatedQueriesJob',
          tags: ['search-trends'],
          summary: 'Start a durable job for the Top and Rising related queries of one complete grain',
          security: BEARER_SECURITY,
          headers: IdempotencyHeaders,
          body: TrendsGrain,
          response: responses({ 202: TrendsJobResponse }, [...AUTH_ERRORS, ...CREATION_ERRORS, 'quota_exceeded']),
        },
      },
      async (request, reply) =>
        withIdempotency(request, reply, idem, async () => {
          const created = await createTrendsJob({ jobs: ctx.trends, quotas: ctx.store }, teamOf(request), request.body, ctx.now());
          if (!created.ok) return refusal(request, quotaExceededError(created.resource));
          ctx.onTrendsJobCreated();
          return { status: 202, body: { job: created.job }, replayable: true };
        }),
    );

    app.get(
      '/v1/search-trends/jobs/:job_id',
      {
        config: { scope: 'trends', rateClass: 'reads' },
        schema: {
          operationId: 'getTrendsJob',
          tags: ['search-trends'],
          summary: 'A search-trends job: state, attempts, timestamps; Top and Rising related queries once completed',
          security: BEARER_SECURITY,
          params: JobParams,
          response: responses({ 200: TrendsJobResponse }, readErrors),
        },
      },
      async (request) => {
        const { job_id } = request.params;
        const r = await readTrendsJob(ctx.trends, teamOf(request), job_id);
        if (!r.ok) throw new ApiError('job_not_found', 'no such job', { details: { job_id } });
        return { job: r.job };
      },
    );
  };
}
