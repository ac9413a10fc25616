import fc from 'fast-check';
import { afterAll, beforeAll, describe, expect, it } from 'vitest';
import { PublicErrorResponse } from '@trawl/contract';
import { startTestGateway, TEST_KEY, type TestGateway } from '@trawl/test-support/gateway.ts';

// Property: whatever body and headers a caller sends to a /v1 route, the answer is a success or the contract's
// error object, never a 5xx but the contract's 502 for a target that fails. Targets are addresses the SSRF guard
// refuses (10.0.0.0/8) or a port nothing listens on, so a valid request ends quickly without touching any network.

let gw: TestGateway;
beforeAll(async () => {
  gw = await startTestGateway({ TRAWL_TRENDS_BASE_URL: 'http://127.0.0.1:9/' });
});
afterAll(async () => {
  await gw?.close();
});

const BASES: Record<string, Record<string, unknown>> = {
  '/v1/fetch': { url: 'http://10.0.0.1/page' },
  '/v1/browser-scrape': { url: 'http://10.0.0.2/page' },
  '/v1/crawl': { urls: ['http://10.0.0.3/'], max_pages: 2 },
  '/v1/search-trends/related-queries': {
    keyword: 'pizza', geo: '', timeframe: '2021-01-01 2021-12-31', category: 0, property: '', hl: 'en-US', tz: 360,
  },
};
const POST_PATHS = Object.keys(BASES);
const GET_PATHS = ['/v1/runs/', '/v1/crawl/', '/v1/search-trends/jobs/'];

// Values that break schemas in the ways callers do: wrong types, edge numbers, odd strings, deep nesting.
const oddString = fc.oneof(
  fc.string({ maxLength: 40 }),
  fc.string({ unit: 'grapheme', maxLength: 20 }),
  fc.constantFrom('', ' ', '\u0000', '\ud800', '../../etc/passwd', 'http://', 'javascript:alert(1)', 'http://[::1]/', 'http://0x7f.1/',
    'http://10.0.0.1:99999/', '%', 'a'.repeat(5000), '{"a":1}', '__proto__', 'constructor'),
);
const oddValue: fc.Arbitrary<unknown> = fc.oneof(
  oddString,
  fc.constantFrom(null, true, false, 0, -1, 1.5, 1e308, -0, Number.MAX_SAFE_INTEGER + 2),
  fc.integer(),
  fc.double({ noNaN: true }),
  fc.jsonValue({ maxDepth: 3 }),
  fc.array(oddString, { maxLength: 5 }),
);
/** A valid body with fields replaced, removed or added. */
const mutatedBody = (base: Record<string, unknown>) =>
  fc
    .record({
      replace: fc.dictionary(fc.constantFrom(...Object.keys(base)), oddValue, { maxKeys: 2 }),
      remove: fc.subarray(Object.keys(base), { maxLength: Math.min(2, Object.keys(base).length) }),
      add: fc.dictionary(fc.oneof(oddString, fc.constantFrom('__proto__', 'constructor', 'scope', 'engine', 'formats')), oddValue, {
        maxKeys: 2,
      }),
    })
    .map(({ replace, remove, add }) => {
      const body: Record<string, unknown> = { ...base, ...replace };
      for (const k of remove) delete body[k];
      for (const [k, v] of Object.entries(add)) Object.defineProperty(body, k, { value: v, enumerable: true });
      return JSON.stringify(body);
    });
const rawBody = fc.oneof(
  fc.jsonValue({ maxDepth: 4 }).map((v) => JSON.stringify(v)),
  fc.string({ maxLength: 200 }),
  fc.constantFrom('', '{', '[]', 'null', '{"url":', '\u0000', '{"a":'.repeat(2000)),
  fc.nat({ max: 300 }).map((depth) => '['.repeat(depth * 20) + ']'.repeat(depth * 20)),
);
// Mostly a caller who gets the framing right, so that the body reaches validation and the routes.
const headers = fc.record(
  {
    'content-type': fc.oneof(
      { weight: 6, arbitrary: fc.constant('application/json') },
      { weight: 1, arbitrary: fc.constantFrom('application/json; charset=utf-8', 'text/plain', 'application/x-www-form-urlencoded', '', 'application/json; charset=latin1', 'APPLICATION/JSON') },
    ),
    'idempotency-key': fc.oneof(fc.stringMatching(/^[A-Za-z0-9_-]{8,40}$/), fc.string({ maxLength: 300 })),
    'x-request-id': fc.string({ maxLength: 200 }),
    authorization: fc.oneof(
      { weight: 6, arbitrary: fc.constant(`Bearer ${TEST_KEY}`) },
      { weight: 1, arbitrary: fc.constantFrom('Bearer ', 'Basic eA==', `bearer ${TEST_KEY}`, '', `Bearer ${TEST_KEY}x`) },
    ),
    accept: fc.constantFrom('*/*', 'text/html', 'application/xml'),
  },
  { requiredKeys: ['authorization', 'content-type'] },
);

/** Header values fetch() accepts: printable Latin-1 without CR/LF (others cannot be sent by a client at all). */
function sendable(h: Record<string, string>): Record<string, string> {
  const out: Record<string, string> = {};
  for (const [k, v] of Object.entries(h)) out[k] = v.replace(/[^\x20-\x7e]/g, '').trim();
  return out;
}

/** 5xx answers the contract gives for a target that fails (an allowed loopback address with nothing listening). */
const TARGET_FAILURES = new Set(['fetch_failed', 'render_failed']);

async function expectContractAnswer(res: Response, what: string): Promise<void> {
  const text = await res.text();
  if (res.status < 400) return;
  const parsed = PublicErrorResponse.safeParse(JSON.parse(text));
  expect(parsed.success, `${what}: ${text.slice(0, 300)}`).toBe(true);
  if (res.status >= 500) expect(TARGET_FAILURES.has(parsed.data!.error.code), `${what}: ${text.slice(0, 300)}`).toBe(true);
  expect(res.headers.get('x-request-id'), what).toBe(parsed.data?.error.request_id);
}

describe('/v1 under random bodies and headers', () => {
  it('answers every POST body with a success or the contract error object, never a 5xx', { timeout: 120_000 }, async () => {
    await fc.assert(
      fc.asyncProperty(
        fc.constantFrom(...POST_PATHS).chain((path) => fc.tuple(fc.constant(path), fc.oneof({ weight: 3, arbitrary: mutatedBody(BASES[path]) }, { weight: 1, arbitrary: rawBody }), headers)),
        async ([path, body, h]) => {
          const res = await fetch(`${gw.url}${path}`, { method: 'POST', headers: sendable(h), body });
          await expectContractAnswer(res, `POST ${path} ${body.slice(0, 120)}`);
        },
      ),
      { numRuns: 400 },
    );
  });

  it('answers every read with odd ids and query strings in the contract shape', { timeout: 60_000 }, async () => {
    await fc.assert(
      fc.asyncProperty(
        fc.constantFrom(...GET_PATHS),
        oddString,
        // Percent-encodings that decode to nothing valid.
        fc.option(fc.constantFrom('%', '%zz', '%ff', '%C0%AF', '%ED%A0%80', '..%2F..', 'run_%00'), { freq: 3 }),
        fc.dictionary(fc.constantFrom('cursor', 'limit', 'status', 'x'), oddString, { maxKeys: 3 }),
        async (path, id, rawSegment, query) => {
          const qs = new URLSearchParams(query).toString();
          const segment = rawSegment ?? (Buffer.from(id).toString('hex').replace(/../g, '%$&') || 'x');
          const url = `${gw.url}${path}${segment}${path === '/v1/crawl/' && qs ? '/items' : ''}${qs ? `?${qs}` : ''}`;
          const res = await fetch(url, { headers: { authorization: `Bearer ${TEST_KEY}` } });
          await expectContractAnswer(res, `GET ${path}`);
        },
      ),
      { numRuns: 300 },
    );
  });
});
