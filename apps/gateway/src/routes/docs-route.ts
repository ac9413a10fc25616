import type { FastifyInstance } from 'fastify';
import { AREAS, areaDocument, type Area } from '../docs/openapi-areas.ts';
import { openApiToMarkdown } from '../docs/markdown.ts';
import { ApiError } from '../api-error.ts';

/** Public API documents. They hold no secret, so they need no key. */
export async function docsRoutes(app: FastifyInstance) {
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
    if ((AREAS as readonly string[]).includes(name)) return name as Area;
    throw new ApiError('route_not_found', `no API area ${JSON.stringify(name.slice(0, 40))}`, {
      details: { areas: [...AREAS] },
    });
  };
  const hide = { schema: { hide: true } };
  app.get('/api-docs/public-v1/openapi', hide, async (_req, reply) =>
    reply.type('application/json; charset=utf-8').send(get('all').json),
  );
  app.get('/api-docs/public-v1/openapi/:area', hide, async (req, reply) =>
    reply.type('application/json; charset=utf-8').send(get(areaOf((req.params as { area: string }).area)).json),
  );
  app.get('/api-docs/:file', hide, async (req, reply) => {
    const file = (req.params as { file: string }).file;
    const m = /^(.+)\.md$/.exec(file);
    if (!m) throw new ApiError('route_not_found', 'API documents are <area>.md');
    const area = m[1] === 'public-v1' ? 'all' : areaOf(m[1]);
    return reply.type('text/markdown; charset=utf-8').send(get(area).markdown);
  });
}
