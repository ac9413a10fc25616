import type { FastifyInstance } from 'fastify';
import type { ZodTypeProvider } from 'fastify-type-provider-zod';
import { z } from 'zod';
import { AREAS, areaDocument, type Area } from '../docs/openapi-areas.ts';
import { openApiToMarkdown } from '../docs/markdown.ts';
import { ApiError } from '../api-error.ts';

/** Any string: a name that is no area is answered route_not_found below (listing the areas), not a validation error. */
const AreaParams = z.object({ area: z.string() });
const FileParams = z.object({ file: z.string() });

function isArea(name: string): name is Area {
  return AREAS.some((area) => area === name);
}

/** Public API documents. They hold no secret, so they need no key. */
export async function docsRoutes(plain: FastifyInstance) {
  // Params typed from their zod schemas (fastify-type-provider-zod), never cast.
  const app = plain.withTypeProvider<ZodTypeProvider>();
  const documents = new Map<string, { json: string; markdown: string }>();
  const get = (area: Area | 'all') => {
    let d = documents.get(area);
    if (!d) {
      const full = app.swagger() as unknown as Record<string, unknown>;
      const doc = area === 'all' ? full : areaDocument(full, area);
      d = { json: JSON.stringify(doc), markdown: openApiToMarkdown(doc) };
      documents.set(area, d);
    }
    return d;
  };
  const areaOf = (name: string): Area => {
    if (isArea(name)) return name;
    throw new ApiError('route_not_found', `no API area ${JSON.stringify(name.slice(0, 40))}`, {
      details: { areas: [...AREAS] },
    });
  };
  app.get('/api-docs/public-v1/openapi', { schema: { hide: true } }, async (_req, reply) =>
    reply.type('application/json; charset=utf-8').send(get('all').json),
  );
  app.get('/api-docs/public-v1/openapi/:area', { schema: { hide: true, params: AreaParams } }, async (req, reply) =>
    reply.type('application/json; charset=utf-8').send(get(areaOf(req.params.area)).json),
  );
  app.get('/api-docs/:file', { schema: { hide: true, params: FileParams } }, async (req, reply) => {
    const m = /^(.+)\.md$/.exec(req.params.file);
    if (!m) throw new ApiError('route_not_found', 'API documents are <area>.md');
    const area = m[1] === 'public-v1' ? 'all' : areaOf(m[1]);
    return reply.type('text/markdown; charset=utf-8').send(get(area).markdown);
  });
}
