import type { FastifyInstance } from 'fastify';
import type { ZodTypeProvider } from 'fastify-type-provider-zod';
import { z } from 'zod';
import { RunResponse } from '@trawl/contract';
import { crawlPageArtifact, getCrawlJob, parsePageRunId } from '@trawl/crawler';
import type { PublicRun } from '@trawl/contract';
import type { RunRecord } from '@trawl/store';
import { ApiError } from '../api-error.ts';
import type { GatewayContext } from '../context.ts';
import { teamOf } from '../plugins/auth.ts';
import { AUTH_ERRORS, BEARER_SECURITY, responses } from '../route-schema.ts';

const RunParams = z.strictObject({ run_id: z.string().min(1).max(200) });
const ArtifactParams = z.strictObject({ run_id: z.string().min(1).max(200), key: z.string().min(1).max(100) });
const ArtifactQuery = z.strictObject({
  crawl_id: z.string().min(1).max(200).optional().meta({ description: 'Present on crawl page artifacts; keep it.' }),
});
const ArtifactBody = z.string().meta({ format: 'binary', description: 'The artifact bytes, with its content_type.' });

export function runRoutes(ctx: GatewayContext) {
  async function ownRun(request: Parameters<typeof teamOf>[0], runId: string): Promise<RunRecord | null> {
    const record = await ctx.store.getRun(runId);
    // Someone else's run is indistinguishable from a missing one.
    return record && record.team_id === teamOf(request) ? record : null;
  }

  /** A crawl's run follows its crawl until the crawl is settled. */
  async function liveRun(request: Parameters<typeof teamOf>[0], record: RunRecord): Promise<PublicRun> {
    if (record.run.type !== 'crawl' || !record.crawl_id || record.run.completed_at) return record.run;
    const crawl = await getCrawlJob(ctx.crawl, teamOf(request), record.crawl_id);
    if (!crawl) return record.run;
    return {
      ...record.run,
      status: crawl.status,
      cost_units: crawl.progress.pages_completed,
      ...(crawl.completed_at ? { completed_at: crawl.completed_at } : {}),
    };
  }

  return async function (plain: FastifyInstance) {
    // Bodies, params and queries typed from their zod schemas (fastify-type-provider-zod), never cast.
    const app = plain.withTypeProvider<ZodTypeProvider>();
    app.get(
      '/v1/runs/:run_id',
      {
        config: { scope: 'runs' },
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
        const record = await ownRun(request, run_id);
        if (!record) throw new ApiError('run_not_found', 'no such run', { details: { run_id } });
        return { run: await liveRun(request, record) };
      },
    );

    app.get(
      '/v1/runs/:run_id/artifacts/:key',
      {
        config: { scope: 'runs' },
        schema: {
          operationId: 'downloadArtifact',
          tags: ['runs'],
          summary: 'Download an artifact of a run (free of charge); follow artifact URLs exactly as returned',
          security: BEARER_SECURITY,
          params: ArtifactParams,
          querystring: ArtifactQuery,
          response: responses(
            { 200: { description: 'The artifact', content: { 'application/octet-stream': { schema: ArtifactBody } } } },
            [...AUTH_ERRORS, 'validation_error', 'unsupported_feature', 'artifact_not_found', 'run_not_ready', 'artifact_expired'],
          ),
        },
      },
      async (request, reply) => {
        const { run_id, key } = request.params;
        const { crawl_id } = request.query;
        const notFound = () => new ApiError('artifact_not_found', 'no such artifact', { details: { run_id, key } });
        if (parsePageRunId(run_id)) {
          // A crawl page: no run of its own; served from the crawl's item, to the crawl's team, via its crawl_id.
          const r = await crawlPageArtifact(ctx.crawl, teamOf(request), run_id, key, crawl_id);
          if (r.ok) {
            return reply
              .header('content-type', r.contentType)
              .header('cache-control', 'private, no-store')
              .header('x-content-type-options', 'nosniff')
              .send(r.body);
          }
          if (r.reason === 'expired') {
            throw new ApiError('artifact_expired', 'the artifact retention period has elapsed', { details: { run_id, key } });
          }
          throw notFound();
        }
        const found = await ctx.store.getArtifact(run_id, key);
        if (!found) {
          const record = await ownRun(request, run_id);
          if (record && (record.run.status === 'running' || record.run.status === 'queued')) {
            throw new ApiError('run_not_ready', 'the run has not finished yet', { details: { run_id } });
          }
          throw notFound();
        }
        const { meta, body } = found;
        // Crawl page artifacts are served only through the URL that names their crawl, and only to its team.
        if (meta.team_id !== teamOf(request) || (meta.crawl_id ?? undefined) !== crawl_id) throw notFound();
        if (body === null) {
          throw new ApiError('artifact_expired', 'the artifact retention period has elapsed', {
            details: { run_id, key, expired_at: meta.expires_at },
          });
        }
        return reply
          .header('content-type', meta.content_type)
          .header('cache-control', 'private, no-store')
          .header('x-content-type-options', 'nosniff')
          .send(body);
      },
    );
  };
}
