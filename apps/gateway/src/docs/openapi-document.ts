import type { FastifyDynamicSwaggerOptions } from '@fastify/swagger';
import { jsonSchemaTransform, jsonSchemaTransformObject } from 'fastify-type-provider-zod';
import { z } from 'zod';
import { ARTIFACT_CONTENT_TYPES, type ErrorCode } from '@trawl/contract';
import { errorCodesOfResponse } from '../route-schema.ts';
import { errorExamples } from './error-examples.ts';
import { OPENAPI_BASE } from './openapi-info.ts';
import { pruneComponents } from './openapi-areas.ts';
import { OPERATION_DOCS, PARAMETER_DESCRIPTIONS } from './operation-docs.ts';
import { ALWAYS_SENT_HEADERS, DOWNLOAD_HEADERS, responseHeaders } from './response-headers.ts';

type Json = Record<string, any>;

/** What the per-route transform learned that the finished document needs: error codes per status, by operation. */
type RouteErrors = Map<string, Record<string, ErrorCode[]>>;

/**
 * The @fastify/swagger options of the public document: the contract's zod schemas turned into JSON Schema
 * (fastify-type-provider-zod), each answer's headers added per route, then the finished document given its
 * descriptions, examples and exact content types, and only the components it uses.
 */
export function openApiOptions(): FastifyDynamicSwaggerOptions {
  const routeErrors: RouteErrors = new Map();
  return {
    openapi: OPENAPI_BASE,
    transform: (input) => {
      const out = jsonSchemaTransform(input);
      const route = input.route as { config?: { rateClass?: string }; schema?: Json };
      const response = (out.schema as { response?: Record<string, Json> }).response;
      if (!response || route.schema?.hide) return out;
      const errors: Record<string, ErrorCode[]> = {};
      for (const [status, r] of Object.entries(response)) {
        // A route's own headers (the download's) come on top of those every answer of its kind has.
        r.headers = { ...responseHeaders({ rateClass: route.config?.rateClass, schema: route.schema }, status), ...(route.schema?.response?.[status]?.headers ?? {}) };
        const codes = errorCodesOfResponse(route.schema?.response?.[status]);
        if (codes) errors[status] = codes;
      }
      const operationId = route.schema?.operationId as string | undefined;
      if (operationId) routeErrors.set(operationId, errors);
      return out;
    },
    transformObject: (input) => finishDocument(jsonSchemaTransformObject(input) as Json, routeErrors),
  };
}

function finishDocument(doc: Json, routeErrors: RouteErrors): Json {
  for (const item of Object.values((doc.paths ?? {}) as Record<string, Json>)) {
    for (const op of Object.values(item) as Json[]) {
      const docs = OPERATION_DOCS[op.operationId];
      if (docs) op.description = docs.description;
      for (const p of (op.parameters ?? []) as Json[]) p.description ??= PARAMETER_DESCRIPTIONS[p.name];
      const body = op.requestBody?.content?.['application/json'];
      if (body && docs?.request) body.examples = docs.request;
      for (const [status, response] of Object.entries((op.responses ?? {}) as Record<string, Json>)) {
        const success = docs?.responses[Number(status)];
        if (success) {
          response.description = success.description;
          for (const [type, examples] of Object.entries(success.examples)) if (response.content?.[type]) response.content[type].examples = examples;
        }
        const codes = routeErrors.get(op.operationId)?.[status];
        const errorBody = response.content?.['application/json'];
        if (codes && errorBody) errorBody.examples = errorExamples(codes, docs?.pageOutcomes);
        for (const [name, header] of Object.entries((response.headers ?? {}) as Record<string, Json>)) {
          if (ALWAYS_SENT_HEADERS.has(name)) header.required = true;
        }
      }
    }
  }
  return pruneComponents(doc);
}

/** The 200 answer of the artifact download: one media type per artifact kind, with the headers every download has. */
export function artifactDownloadResponse() {
  const text = (description: string) => z.string().meta({ description });
  return {
    description: 'The artifact bytes',
    headers: DOWNLOAD_HEADERS,
    content: {
      [ARTIFACT_CONTENT_TYPES.markdown]: { schema: text('The page content as Markdown (`markdown`).') },
      [ARTIFACT_CONTENT_TYPES.html]: { schema: text('The page content as sanitized HTML (`html`).') },
      // OpenAPI 3.1 describes raw bytes by their media type alone.
      [ARTIFACT_CONTENT_TYPES.screenshot]: { schema: z.string().meta({ contentMediaType: ARTIFACT_CONTENT_TYPES.screenshot, description: 'A full-page PNG screenshot (`screenshot`).' }) },
      [ARTIFACT_CONTENT_TYPES.har]: {
        schema: z
          .looseObject({ log: z.looseObject({ version: z.string(), entries: z.array(z.looseObject({})) }) })
          .meta({ description: 'A HAR 1.2 recording of the render (`har`): no bodies, cookies and credentials redacted.' }),
      },
    },
  };
}
