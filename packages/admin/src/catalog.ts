import { z } from 'zod';
import type { AdminRouter } from './router.ts';
import { procedureDefinitions } from './trpc.ts';

/**
 * The admin API as data, for its reference page (/docs/admin): each procedure's name, kind, what it does and answers,
 * and its input as JSON Schema, read from the router itself, so the page lists what the server runs.
 */
export interface AdminProcedureReference {
  /** `area.verb`, as in /admin/<path> and `trawl admin <path>`. */
  path: string;
  /** A query is a GET with `?input=<JSON>`; a mutation a POST with the JSON body. */
  kind: 'query' | 'mutation';
  description: string;
  returns: string;
  /** The input's JSON Schema (as the caller writes it: defaults optional), or null for a procedure without input. */
  input: Record<string, unknown> | null;
}

export function adminReference(router: AdminRouter): AdminProcedureReference[] {
  return procedureDefinitions(router).map((p) => {
    const schema = p.inputs[0];
    return {
      path: p.path,
      kind: p.kind,
      description: p.meta?.description ?? '',
      returns: p.meta?.returns ?? '',
      input: schema instanceof z.ZodType ? (z.toJSONSchema(schema, { io: 'input', unrepresentable: 'any' }) as Record<string, unknown>) : null,
    };
  });
}
