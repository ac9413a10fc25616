import { afterAll, beforeAll, describe, expect, it } from 'vitest';
import { ERROR_CODES, type ErrorCode } from '@trawl/contract';
import { startTestGateway, type TestGateway } from '@trawl/test-support/gateway.ts';
import { OpenApiCheck } from '@trawl/test-support/openapi-check.ts';

/**
 * Every operation of the public document is described and has a realistic example for its request and for every
 * answer, each of which validates against its own schema (as a tool trusting the document would check it).
 */
type Json = Record<string, any>;
let gw: TestGateway;
let doc: Json;
let check: OpenApiCheck;
beforeAll(async () => {
  gw = await startTestGateway({ LOG_LEVEL: 'warn', TRAWL_DATA_DIR: ':memory:', TRAWL_WORKERS: '0' });
  doc = (await (await fetch(`${gw.url}/api-docs/public-v1/openapi`)).json()) as Json;
  check = new OpenApiCheck(doc);
});
afterAll(async () => {
  await gw?.close();
});

function operations(): { method: string; path: string; op: Json }[] {
  return Object.entries(doc.paths as Record<string, Json>).flatMap(([path, item]) =>
    Object.entries(item).map(([method, op]) => ({ method, path, op: op as Json })),
  );
}

/** The codes an error answer lists in its description (`Error: \`a\`, \`b\`.`). */
const listedCodes = (description: string) => [...description.matchAll(/`([a-z_]+)`/g)].map((m) => m[1] as ErrorCode);

describe('OpenAPI examples', () => {
  it('describe every operation, under a tag the document defines', () => {
    const tags = new Set((doc.tags as Json[]).map((t) => t.name));
    for (const { method, path, op } of operations()) {
      expect(op.description?.length, `${method} ${path}`).toBeGreaterThan(60);
      for (const tag of op.tags) expect(tags.has(tag), `${method} ${path} tag ${tag}`).toBe(true);
    }
  });

  it('give every request body examples that its schema accepts', () => {
    let bodies = 0;
    for (const { method, path, op } of operations()) {
      const media = op.requestBody?.content?.['application/json'];
      if (!media) continue;
      bodies++;
      const examples = Object.entries((media.examples ?? {}) as Record<string, Json>);
      expect(examples.length, `${method} ${path}`).toBeGreaterThan(0);
      for (const [name, ex] of examples) {
        expect(ex.summary, `${method} ${path} ${name}`).toBeTruthy();
        expect(check.problems(['paths', path, method, 'requestBody', 'content', 'application/json', 'schema'], ex.value), `${method} ${path} ${name}`).toEqual([]);
      }
    }
    expect(bodies).toBeGreaterThanOrEqual(4);
  });

  it('give every answer examples that its schema accepts, and every listed error code an example of its own', () => {
    for (const { method, path, op } of operations()) {
      for (const [status, response] of Object.entries(op.responses as Record<string, Json>)) {
        for (const [type, media] of Object.entries((response.content ?? {}) as Record<string, Json>)) {
          const where = `${method} ${path} ${status} ${type}`;
          // Raw bytes (a PNG) have no example a document can show.
          if (media.schema?.contentMediaType) continue;
          const examples = Object.entries((media.examples ?? {}) as Record<string, Json>);
          expect(examples.length, where).toBeGreaterThan(0);
          for (const [name, ex] of examples) {
            expect(check.problems(['paths', path, method, 'responses', status, 'content', type, 'schema'], ex.value), `${where} ${name}`).toEqual([]);
          }
          if (Number(status) < 400) continue;
          const codes = listedCodes(response.description);
          expect(codes.length, where).toBeGreaterThan(0);
          const shown = examples.map(([, ex]) => ex.value.error.code as ErrorCode);
          expect(new Set(shown), where).toEqual(new Set(codes));
          for (const code of shown) expect(ERROR_CODES[code].status, `${where} ${code}`).toBe(Number(status));
        }
      }
    }
  });

  it('show the page outcomes of Fetch as their errors, with the run and block reason in details', () => {
    const examples = doc.paths['/v1/fetch'].post.responses['502'].content['application/json'].examples as Record<string, Json>;
    expect(Object.keys(examples).sort()).toEqual(
      ['fetch_failed.body_size_limit', 'fetch_failed.http_error', 'fetch_failed.network_error', 'fetch_failed.redirect_limit', 'fetch_failed.unsupported_content_type'].sort(),
    );
    expect(examples['fetch_failed.redirect_limit'].value.error).toMatchObject({
      code: 'fetch_failed',
      retryable: false,
      details: { block_reason: 'redirect_limit', run_id: expect.stringMatching(/^run_/) },
    });
    const forbidden = doc.paths['/v1/fetch'].post.responses['403'].content['application/json'].examples as Record<string, Json>;
    expect(forbidden['permission_denied.blocked_target'].value.error.details.block_reason).toBe('blocked_target');
  });
});
