/** Splitting the generated OpenAPI document into per-area documents (by operation tag). */

export const AREAS = ['fetch', 'crawl', 'search-trends', 'runs'] as const;
export type Area = (typeof AREAS)[number];

type Json = Record<string, unknown>;
const METHODS = ['get', 'put', 'post', 'delete', 'patch', 'head', 'options'];

function refsIn(value: unknown, out: Set<string>): void {
  if (Array.isArray(value)) {
    for (const v of value) refsIn(v, out);
  } else if (value && typeof value === 'object') {
    for (const [k, v] of Object.entries(value)) {
      if (k === '$ref' && typeof v === 'string' && v.startsWith('#/components/schemas/')) {
        out.add(v.slice('#/components/schemas/'.length));
      } else refsIn(v, out);
    }
  }
}

/** The component schemas `paths` reach, directly or through other components, in name order. */
function reachedSchemas(paths: unknown, all: Record<string, unknown>): Json {
  const reached = new Set<string>();
  refsIn(paths, reached);
  // Follow references between components until nothing new is reached.
  for (let size = -1; size !== reached.size; ) {
    size = reached.size;
    for (const name of [...reached]) refsIn(all[name], reached);
  }
  const schemas: Json = {};
  for (const name of [...reached].sort()) if (all[name]) schemas[name] = all[name];
  return schemas;
}

/**
 * `doc` with only the component schemas its operations use: the zod transform registers an input and an output
 * variant of every named schema, and a document listing the unused half misleads readers and lint.
 */
export function pruneComponents(doc: Json): Json {
  const components = (doc.components ?? {}) as Json;
  const schemas = reachedSchemas(doc.paths ?? {}, (components.schemas ?? {}) as Record<string, unknown>);
  return { ...doc, components: { ...components, schemas } };
}

/** The part of `doc` whose operations carry `area` as a tag, with only the component schemas they reach. */
export function areaDocument(doc: Json, area: Area): Json {
  const paths: Json = {};
  for (const [path, item] of Object.entries((doc.paths ?? {}) as Record<string, Json>)) {
    const kept: Json = {};
    for (const [method, op] of Object.entries(item)) {
      if (METHODS.includes(method) && ((op as Json).tags as string[] | undefined)?.includes(area)) kept[method] = op;
    }
    if (Object.keys(kept).length > 0) paths[path] = kept;
  }
  const info = doc.info as Json;
  const tags = ((doc.tags ?? []) as Json[]).filter((t) => t.name === area);
  return pruneComponents({ ...doc, info: { ...info, title: `${info.title as string}: ${area}` }, tags, paths });
}
