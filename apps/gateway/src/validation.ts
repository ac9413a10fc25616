import type { FastifySchemaCompiler } from 'fastify';
import type { z } from 'zod';
import { ApiError } from './api-error.ts';

type Issue = z.core.$ZodIssue;

function pathOf(path: PropertyKey[]): string {
  return path.map(String).join('.');
}

/**
 * Turns zod issues into the contract's error: unknown fields are `unsupported_feature` (v1 rejects what it
 * does not support rather than ignoring it); anything else is `validation_error`. Both name the field paths.
 */
export function issuesToError(part: string, issues: readonly Issue[]): ApiError {
  const unknown: string[] = [];
  for (const i of issues) {
    if (i.code === 'unrecognized_keys') for (const k of i.keys) unknown.push(pathOf([...i.path, k]));
  }
  const fields = issues
    .filter((i) => i.code !== 'unrecognized_keys')
    .map((i) => ({ field: pathOf(i.path) || '(root)', message: i.message }));
  if (unknown.length > 0) {
    return new ApiError('unsupported_feature', `unsupported field${unknown.length > 1 ? 's' : ''}: ${unknown.join(', ')}`, {
      details: { fields: unknown, location: part, ...(fields.length ? { issues: fields } : {}) },
    });
  }
  const first = fields[0];
  const where = first.field === '(root)' ? part : first.field;
  return new ApiError('validation_error', `${where}: ${first.message}`, {
    details: { field: first.field, location: part, issues: fields },
  });
}

/** Fastify validator backed by the contract's zod schemas. */
export const zodValidatorCompiler: FastifySchemaCompiler<z.ZodType> =
  ({ schema, httpPart }) =>
  (data: unknown) => {
    const r = schema.safeParse(data);
    if (r.success) return { value: r.data };
    return { error: issuesToError(httpPart ?? 'body', r.error.issues) };
  };
