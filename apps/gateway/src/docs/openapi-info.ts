/**
 * The parts of the public OpenAPI document that no route carries: what the API is, where it is served, its areas,
 * and how callers authenticate. Rendered at /docs (Swagger UI) and /api-docs/*.md; Markdown is welcome here.
 */
const DESCRIPTION = `Fetch one URL into clean Markdown, sanitized HTML, metadata and links; crawl a site asynchronously and read its pages back as items; ask Google Trends for the related queries of a query grain as a durable job.

**Authentication.** Every \`/v1\` route needs \`Authorization: Bearer <API key>\`. A key belongs to a team; runs, crawls, jobs and artifacts are visible to that team only.

**Errors.** Every error is \`{"error": {code, message, type, retryable, request_id, details}}\` with the HTTP status of its code. Retry only when \`retryable\` is true, honouring \`Retry-After\` when present. Store \`request_id\` (also the \`X-Request-Id\` header) with failed calls.

**Idempotency.** Creation operations take an optional \`Idempotency-Key\`: the same key and body within 24 hours replays the first answer (\`Idempotent-Replayed: true\`) and creates nothing new.

**Rate limits.** Authenticated answers carry \`RateLimit-Limit\`, \`RateLimit-Remaining\` and \`RateLimit-Reset\`; over the limit the answer is 429 \`rate_limited\` with \`Retry-After\`.

**Reaching private addresses.** Targets that resolve to loopback, private, link-local or cloud-metadata addresses are refused (403, \`block_reason: blocked_target\`) so that callers cannot make the service reach its own network; an operator can allow ranges with \`TRAWL_ALLOW_PRIVATE\`.

The operator's admin API (teams, keys, credits, limits, quotas, crawls across teams) is not part of this document: see [/docs/admin](/docs/admin). Markdown versions of this document: [/api-docs/public-v1.md](/api-docs/public-v1.md).`;

export const OPENAPI_BASE = {
  openapi: '3.1.0',
  info: {
    title: 'Trawl web data API',
    version: '1.0.0',
    description: DESCRIPTION,
    license: { name: 'Apache-2.0', identifier: 'Apache-2.0' },
  },
  servers: [
    // Relative: the gateway that served this document, whatever address or proxy it was reached through.
    { url: '/', description: 'The gateway serving this document' },
    {
      url: 'http://{host}:{port}',
      description: 'A gateway started with `npm start` (HOST and PORT)',
      variables: { host: { default: '127.0.0.1' }, port: { default: '8080' } },
    },
  ],
  tags: [
    { name: 'fetch', description: 'One URL, synchronously: Fetch (light engine first) and Browser scrape (Chromium).' },
    { name: 'crawl', description: 'Asynchronous crawls of 1 to 100 seeds within a scope: create, follow, pause, resume, read the items.' },
    { name: 'search-trends', description: 'Google Trends related queries of one query grain, as a durable job.' },
    { name: 'runs', description: 'Runs of your team and the artifacts of their pages (Markdown, HTML, screenshots, HAR).' },
  ],
  components: {
    securitySchemes: { bearerAuth: { type: 'http' as const, scheme: 'bearer', description: 'An API key of your team: `Authorization: Bearer <key>`.' } },
  },
};
