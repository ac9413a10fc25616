import { Readable } from 'node:stream';
import type { FastifyInstance } from 'fastify';
import type { ZodTypeProvider } from 'fastify-type-provider-zod';
import { z } from 'zod';
import { exportItems } from '@trawl/crawler';
import { ApiError } from '../api-error.ts';
import type { GatewayContext } from '../context.ts';
import { teamOf } from '../plugins/auth.ts';
import { AUTH_ERRORS, BEARER_SECURITY, responses } from '../route-schema.ts';

const Params = z.strictObject({ crawl_id: z.string().min(1).max(200) });
const Query = z.strictObject({
  cursor: z.string().min(1).max(64).optional().meta({ description: 'Start at this items cursor (next_cursor of GET …/items).' }),
  after: z.string().min(1).max(200).optional().meta({ description: 'Start after this item id: resume a broken download from its last complete line.' }),
  follow: z
    .enum(['true', 'false'])
    .default('false')
    .transform((v) => v === 'true')
    .meta({ description: 'true: stay open while the crawl runs, sending items as they are delivered, and end when it has ended.' }),
});
const JSONL = 'application/jsonl; charset=utf-8';
/** How often a followed export looks for new items. */
const FOLLOW_POLL_MS = 250;

/** GET /v1/crawl/{id}/items.jsonl: the crawl's items as JSON Lines, streamed (crawler/api/export.ts). */
export function crawlExportRoute(ctx: GatewayContext) {
  return async function (plain: FastifyInstance) {
    const app = plain.withTypeProvider<ZodTypeProvider>();
    app.get(
      '/v1/crawl/:crawl_id/items.jsonl',
      {
        config: { scope: 'crawl', rateClass: 'reads' },
        schema: {
          operationId: 'exportCrawlItems',
          tags: ['crawl'],
          summary: 'Every delivered item as JSON Lines (one CrawlItem per line, delivery order), streamed; resumable with cursor or after',
          security: BEARER_SECURITY,
          params: Params,
          querystring: Query,
          response: responses(
            { 200: { description: 'One CrawlItem (see GET …/items) per line.', content: { 'application/jsonl': { schema: z.string() } } } },
            [...AUTH_ERRORS, 'validation_error', 'unsupported_feature', 'crawl_not_found'],
          ),
        },
      },
      async (request, reply) => {
        const { crawl_id } = request.params;
        const { cursor, after, follow } = request.query;
        // Ends the store reads when the caller goes away (the stream is destroyed, so is this).
        const abort = new AbortController();
        reply.raw.on('close', () => abort.abort());
        const r = await exportItems(ctx.crawl, teamOf(request), crawl_id, { cursor, after, follow, pollMs: FOLLOW_POLL_MS, signal: abort.signal });
        if (!r.ok) {
          if (r.reason === 'not_found') throw new ApiError('crawl_not_found', 'no such crawl', { details: { crawl_id } });
          throw new ApiError('validation_error', `${r.field} is not a position in this crawl's items`, { details: { field: r.field } });
        }
        const lines = Readable.from(
          (async function* () {
            for await (const item of r.items) yield `${JSON.stringify(item)}\n`;
          })(),
        );
        // A store failure mid-stream cannot change the status any more: the connection is cut, so the client sees a
        // truncated transfer (no final chunk) and resumes with `after`.
        return reply.header('content-type', JSONL).send(lines);
      },
    );
  };
}
