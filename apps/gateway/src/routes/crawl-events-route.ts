import type { FastifyInstance } from 'fastify';
import type { ZodTypeProvider } from 'fastify-type-provider-zod';
import { z } from 'zod';
import { openCrawlEvents } from '@trawl/crawler';
import { ApiError } from '../api-error.ts';
import type { GatewayContext } from '../context.ts';
import { teamOf } from '../plugins/auth.ts';
import { AUTH_ERRORS, BEARER_SECURITY, responses } from '../route-schema.ts';

const Params = z.strictObject({ crawl_id: z.string().min(1).max(200) });
const Headers = z.looseObject({
  'last-event-id': z.string().max(200).optional().meta({ description: 'Resume: the id of the last event received (EventSource sends it by itself).' }),
});
/** How often an open stream reads its crawl. */
const INTERVAL_MS = 500;
/** A comment line this often keeps proxies from closing a quiet stream. */
const KEEPALIVE_MS = 15_000;

/** A stream, not one JSON value: each event's data is a CrawlStatusEventData, CrawlProgressEventData or CrawlEndEventData (contract). */
const EventStream = z.string().meta({ contentMediaType: 'text/event-stream', description: 'Server-Sent Events (`id:`, `event:`, `data:` lines).' });
const EVENT_DOC =
  'Server-Sent Events. `status` {crawl_id, status, previous_status, failure, at}; `progress` {crawl_id, status, progress, pages_per_second, eta_s, at}; `end` {crawl_id, status, failure, completed_at, progress}, after which the stream closes. Each event has an id: reconnect with Last-Event-ID to receive only what changed since.';

/** GET /v1/crawl/{id}/events: live progress as Server-Sent Events (crawler/api/events.ts), ended at the crawl's end. */
export function crawlEventsRoute(ctx: GatewayContext) {
  return async function (plain: FastifyInstance) {
    const app = plain.withTypeProvider<ZodTypeProvider>();
    // Open streams end when the gateway closes, so close() does not wait on them.
    const open = new Set<AbortController>();
    app.addHook('preClose', async () => {
      for (const c of open) c.abort();
    });
    app.get(
      '/v1/crawl/:crawl_id/events',
      {
        config: { scope: 'crawl', rateClass: 'reads' },
        schema: {
          operationId: 'crawlEvents',
          tags: ['crawl'],
          summary: 'Live progress of a crawl as Server-Sent Events, resumable with Last-Event-ID',
          security: BEARER_SECURITY,
          params: Params,
          headers: Headers,
          response: responses(
            {
              200: { description: EVENT_DOC, content: { 'text/event-stream': { schema: EventStream } } },
            },
            [...AUTH_ERRORS, 'validation_error', 'crawl_not_found'],
          ),
        },
      },
      async (request, reply) => {
        const { crawl_id } = request.params;
        const abort = new AbortController();
        const r = await openCrawlEvents(ctx.crawl, teamOf(request), crawl_id, request.headers['last-event-id'], {
          intervalMs: INTERVAL_MS,
          signal: abort.signal,
          now: ctx.now,
        });
        if (!r.ok) {
          if (r.reason === 'ended') return reply.code(204).send();
          if (r.reason === 'not_found') throw new ApiError('crawl_not_found', 'no such crawl', { details: { crawl_id } });
          throw new ApiError('validation_error', 'Last-Event-ID is not an event id of this stream', { details: { field: 'last-event-id', location: 'headers' } });
        }
        reply.hijack();
        const res = reply.raw;
        res.writeHead(200, { ...(reply.getHeaders() as Record<string, string>), 'content-type': 'text/event-stream; charset=utf-8' });
        open.add(abort);
        res.on('close', () => abort.abort());
        const keepalive = setInterval(() => res.write(': keep-alive\n\n'), KEEPALIVE_MS);
        try {
          res.write('retry: 2000\n\n');
          for await (const e of r.events) res.write(`id: ${e.id}\nevent: ${e.event}\ndata: ${JSON.stringify(e.data)}\n\n`);
        } catch (err) {
          request.log.warn({ err }, 'crawl event stream ended by an error');
        } finally {
          clearInterval(keepalive);
          open.delete(abort);
          res.end();
        }
      },
    );
  };
}
