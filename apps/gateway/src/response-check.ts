import type { FastifySerializerCompiler } from 'fastify';
import type { z } from 'zod';

/**
 * Serializers. Responses are built from contract types, so production sends them as they are; with
 * TRAWL_CHECK_RESPONSES (every test gateway) each body is first parsed with the schema its route documents for
 * that status, and one that breaks it fails the request with 500, which fails the test that made it.
 */
export const plainSerializer: FastifySerializerCompiler<unknown> = () => (data) => JSON.stringify(data);

export const checkingSerializer: FastifySerializerCompiler<unknown> = ({ schema, url, method, httpStatus }) => {
  const zod = schema as z.ZodType | undefined;
  return (data) => {
    if (zod && typeof (zod as { safeParse?: unknown }).safeParse === 'function') {
      const r = zod.safeParse(data);
      if (!r.success) {
        const where = r.error.issues.map((i) => `${i.path.join('.') || '(root)'}: ${i.message}`).join('; ');
        throw new Error(`response ${httpStatus} of ${method} ${url} breaks its documented schema: ${where}`);
      }
    }
    return JSON.stringify(data);
  };
};
