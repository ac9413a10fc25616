import type { FastifyInstance } from 'fastify';
import type { ZodTypeProvider } from 'fastify-type-provider-zod';
import { z } from 'zod';
import { RunResponse } from '@trawl/contract';
import { readArtifact, readRun } from '@trawl/runs';
import { ApiError } from '../api-error.ts';
import type { GatewayContext } from '../context.ts';
import { teamOf } from '../plugins/auth.ts';
import { artifactDownloadResponse } from '../docs/openapi-document.ts';
import { AUTH_ERRORS, BEARER_SECURITY, responses } from '../route-schema.ts';

const RunParams = z.strictObject({ run_id: z.string().min(1).max(200) });
const ArtifactParams = z.strictObject({
  run_id: z.string().min(1).max(200),
  key: z.string().min(1).max(100).meta({ description: 'The artifact key as listed: markdown, html, screenshot or har.' }),
});
const ArtifactQuery = z.strictObject({
  crawl_id: z.string().min(1).max(200).optional().meta({ description: 'Present on crawl page artifacts; keep it.' }),
});

/** Runs and their artifacts: HTTP mapping only; ownership, liveness and expiry are `@trawl/runs` run-access. */
export function runRoutes(ctx: GatewayContext) {
  return async function (plain: FastifyInstance) {
    // Bodies, params and queries typed from their zod schemas (fastify-type-provider-zod), never cast.
    const app = plain.withTypeProvider<ZodTypeProvider>();
    app.get(
      '/v1/runs/:run_id',
      {
        config: { scope: 'runs', rateClass: 'reads' },
        schema: {
          operationId: 'getRun',
          tags: ['runs'],
          summary: 'Read a run of your team',
          security: BEARER_SECURITY,
          params: RunParams,
          response: responses({ 200: RunResponse }, [...AUTH_ERRORS, 'validation_error', 'run_not_found']),
        },
      },
      async (request) => {
        const { run_id } = request.params;
        const r = await readRun(ctx.runAccess, teamOf(request), run_id);
        if (!r.ok) throw new ApiError('run_not_found', 'no such run', { details: { run_id } });
        return { run: r.run };
      },
    );

    app.get(
      '/v1/runs/:run_id/artifacts/:key',
      {
        config: { scope: 'runs', rateClass: 'reads' },
        schema: {
          operationId: 'downloadArtifact',
          tags: ['runs'],
          summary: 'Download an artifact of a run (free of charge); follow artifact URLs exactly as returned',
          security: BEARER_SECURITY,
          params: ArtifactParams,
          querystring: ArtifactQuery,
          response: responses(
            { 200: artifactDownloadResponse() },
            [...AUTH_ERRORS, 'validation_error', 'unsupported_feature', 'artifact_not_found', 'run_not_ready', 'artifact_expired'],
          ),
        },
      },
      async (request, reply) => {
        const { run_id, key } = request.params;
        const { crawl_id } = request.query;
        const r = await readArtifact(ctx.runAccess, teamOf(request), run_id, key, crawl_id);
        if (r.ok) {
          return reply
            .header('content-type', r.contentType)
            .header('cache-control', 'private, no-store')
            .header('x-content-type-options', 'nosniff')
            .send(r.body);
        }
        switch (r.reason) {
          case 'not_found':
            throw new ApiError('artifact_not_found', 'no such artifact', { details: { run_id, key } });
          case 'not_ready':
            throw new ApiError('run_not_ready', 'the run has not finished yet', { details: { run_id } });
          case 'expired':
            throw new ApiError('artifact_expired', 'the artifact retention period has elapsed', {
              details: { run_id, key, ...(r.expiredAt ? { expired_at: r.expiredAt } : {}) },
            });
        }
      },
    );
  };
}
