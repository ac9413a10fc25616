import { initTRPC, TRPCError, type AnyRouter } from '@trpc/server';

/**
 * The only module importing @trpc/server: the router factory, the one procedure every admin call goes through
 * (the admin token check), the error formatter, the errors procedures throw, and reading a router's procedures for
 * the admin reference (catalog.ts).
 */

/** What the server knows of a caller: whether it presented the admin token (see `adminContextOf`). */
export interface AdminContext {
  admin: boolean;
}

/** What every procedure says of itself (`.meta({...})`), shown by the admin reference at /docs/admin. */
export interface AdminMeta {
  description: string;
  returns: string;
}

const t = initTRPC.context<AdminContext>().meta<AdminMeta>().create({
  // Never a stack or a server path in an answer, whatever NODE_ENV says; unexpected failures say nothing more.
  isDev: false,
  errorFormatter: ({ shape, error }) => ({
    ...shape,
    message: error.code === 'INTERNAL_SERVER_ERROR' ? 'internal error; retry later' : shape.message,
    data: { code: shape.data.code, httpStatus: shape.data.httpStatus, path: shape.data.path },
  }),
});

export const router = t.router;

/** Every admin procedure: UNAUTHORIZED unless the caller presented the admin token. Inputs fail as BAD_REQUEST. */
export const adminProcedure = t.procedure.use(({ ctx, next }) => {
  if (!ctx.admin) throw new TRPCError({ code: 'UNAUTHORIZED', message: 'admin token required' });
  return next();
});

/** The failures a procedure reports on purpose (anything else thrown is INTERNAL_SERVER_ERROR, said in no detail). */
export type AdminFailure = 'BAD_REQUEST' | 'NOT_FOUND' | 'CONFLICT';

export function adminError(code: AdminFailure, message: string): Error {
  return new TRPCError({ code, message });
}

/** One procedure as the admin reference lists it: tRPC keeps these in the router's definition, flat by path. */
export interface ProcedureDefinition {
  path: string;
  kind: 'query' | 'mutation';
  meta: AdminMeta | undefined;
  /** The input parsers (zod schemas), in the order `.input()` gave them. */
  inputs: unknown[];
}

export function procedureDefinitions(r: AnyRouter): ProcedureDefinition[] {
  const procedures = r._def.procedures as Record<string, { _def: { type: string; meta?: AdminMeta; inputs: unknown[] } }>;
  return Object.entries(procedures).map(([path, p]) => ({
    path,
    kind: p._def.type === 'mutation' ? 'mutation' : 'query',
    meta: p._def.meta,
    inputs: p._def.inputs,
  }));
}
