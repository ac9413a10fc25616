import { ARTIFACT_CONTENT_TYPES, type Artifact, type ArtifactKey, type Diagnostics, type PageRunResponse, type PublicPageResult } from '@trawl/contract';
import { artifactUrl } from '@trawl/runs';

/**
 * Examples of Fetch, Browser scrape and runs for the OpenAPI document: a real answer of `POST /v1/fetch` on a page of
 * the bundled demo site (apps/demo-site, `npm run demo-site`), its host renamed to a public-looking one. Typed by
 * the contract, so a change of shape is a compile error here; apps/gateway/test/openapi-examples.e2e.test.ts checks each
 * against the document's own schemas.
 */
export const EXAMPLE_SITE = 'https://tidewater.example';
export const EXAMPLE_REQUEST_ID = 'req_q3L8vNwY2mKp9TzR5bXc';

const PAGE_URL = `${EXAMPLE_SITE}/journal/spring-count.html`;
const CREATED_AT = '2026-11-27T09:14:02.118Z';
const COMPLETED_AT = '2026-11-27T09:14:02.947Z';
const EXPIRES_AT = '2026-11-28T09:14:02.947Z';
export const FETCH_RUN_ID = 'run_uU4iRTvGT00wEC7kP6Jz1Q';
export const BROWSER_RUN_ID = 'run_H7wq2Lk9RcPz4VbN0tXeYA';

export const PAGE_MARKDOWN = `# The spring count is in

Three mornings of counting, four volunteers and one broken clicker later, the spring totals are in the ledger. The headline is the bar-tailed godwits: 1,240 birds on the mud at the peak, more than in any spring since we started counting.

Not everything went up. Redshank were down by about a fifth, which matches what other sites along the coast are reporting. Dunlin held steady, and the first whimbrel arrived two days earlier than last year.

## How we counted

We split the marsh into six blocks and counted each block at the same stage of the falling tide. Two people counted every block, and where their totals differed by more than a tenth we counted again.

See the [species list](${EXAMPLE_SITE}/species/) for the birds we count, or read [the notes after the storm](${EXAMPLE_SITE}/journal/storm-notes.html).`;

export const PAGE_HTML = `<main>
<article>
<h1>The spring count is in</h1>
<p>Three mornings of counting, four volunteers and one broken clicker later, the spring totals are in the ledger. The headline is the bar-tailed godwits: 1,240 birds on the mud at the peak, more than in any spring since we started counting.</p>
<p>Not everything went up. Redshank were down by about a fifth, which matches what other sites along the coast are reporting. Dunlin held steady, and the first whimbrel arrived two days earlier than last year.</p>
<h2>How we counted</h2>
<p>We split the marsh into six blocks and counted each block at the same stage of the falling tide. Two people counted every block, and where their totals differed by more than a tenth we counted again.</p>
<p>See the <a href="${EXAMPLE_SITE}/species/">species list</a> for the birds we count, or read <a href="${EXAMPLE_SITE}/journal/storm-notes.html">the notes after the storm</a>.</p>
</article>
</main>`;

/** The artifacts of a page run, as storePageArtifacts lists them (crawl pages name their crawl). */
export function exampleArtifacts(runId: string, keys: ArtifactKey[], crawlId?: string): Artifact[] {
  return keys.map((key) => ({ key, url: artifactUrl(runId, key, crawlId), content_type: ARTIFACT_CONTENT_TYPES[key], expires_at: EXPIRES_AT }));
}

export const LIGHT_DIAGNOSTICS: Diagnostics = {
  adaptive_extraction: { enabled: false, used: false, action: 'none', confidence: 0 },
  browser_debug: { enabled: false, network_event_count: 0, console_message_count: 0 },
  browser_failure: { present: false, category: 'none', stage: 'none', attempt_count: 0, browser_lease_acquired: null, error_code: null },
  content_quality: { score: 0.81, confidence: 'high' },
};

export const PAGE_RESULT: PublicPageResult = {
  url: PAGE_URL,
  final_url: PAGE_URL,
  status: 'completed',
  title: 'The spring count is in · Tidewater Field Station',
  content: {
    markdown: PAGE_MARKDOWN,
    html: PAGE_HTML,
    metadata: {
      title: 'The spring count is in · Tidewater Field Station',
      description: 'A record spring for bar-tailed godwits, and fewer redshank than last year.',
      language: 'en',
      canonical_url: null,
      status_code: 200,
      content_type: 'text/html; charset=utf-8',
      open_graph: {},
      twitter: {},
    },
    links: [
      `${EXAMPLE_SITE}/`,
      `${EXAMPLE_SITE}/journal/`,
      `${EXAMPLE_SITE}/species/`,
      `${EXAMPLE_SITE}/visit.html`,
      `${EXAMPLE_SITE}/about.html`,
      `${EXAMPLE_SITE}/journal/storm-notes.html`,
    ],
  },
  artifacts: exampleArtifacts(FETCH_RUN_ID, ['markdown', 'html']),
  audit: {
    engine_winner: 'light',
    engines_attempted: ['light'],
    fallback_reasons: [],
    fallback_events: [],
    retry_stats: { total_attempts: 1 },
    quality_score: 0.81,
    block_reason: null,
  },
  usage: { cost_units: 1, budget_exhausted: false },
  diagnostics: LIGHT_DIAGNOSTICS,
};

export const FETCH_RESPONSE: PageRunResponse = {
  run: {
    id: FETCH_RUN_ID,
    type: 'fetch',
    status: 'completed',
    created_at: CREATED_AT,
    completed_at: COMPLETED_AT,
    cost_units: 1,
    quota: { resource: 'scrape', quantity_reserved: 1 },
  },
  result: PAGE_RESULT,
};

/** The same page rendered in Chromium with a screenshot and a HAR recording. */
export const BROWSER_SCRAPE_RESPONSE: PageRunResponse = {
  run: { ...FETCH_RESPONSE.run, id: BROWSER_RUN_ID, type: 'browser_scrape', completed_at: '2026-11-27T09:14:04.310Z', quota: { resource: 'browser_scrape', quantity_reserved: 1 } },
  result: {
    ...PAGE_RESULT,
    artifacts: exampleArtifacts(BROWSER_RUN_ID, ['markdown', 'html', 'screenshot', 'har']),
    audit: { ...PAGE_RESULT.audit, engine_winner: 'browser', engines_attempted: ['browser'], quality_score: 0.83 },
    diagnostics: {
      ...LIGHT_DIAGNOSTICS,
      browser_debug: { enabled: true, network_event_count: 4, console_message_count: 0, settle_ms: 212, settle_reason: 'selector' },
      browser_failure: { ...LIGHT_DIAGNOSTICS.browser_failure, attempt_count: 1, browser_lease_acquired: true },
      content_quality: { score: 0.83, confidence: 'high' },
    },
  },
};

/** The start of a recorded HAR (no bodies; cookies and credentials redacted). */
export const HAR_EXAMPLE = {
  log: {
    version: '1.2',
    creator: { name: 'Playwright', version: '1.65.1' },
    pages: [{ id: 'page@1', title: 'The spring count is in · Tidewater Field Station', startedDateTime: '2026-11-27T09:14:03.021Z', pageTimings: {} }],
    entries: [
      {
        pageref: 'page@1',
        startedDateTime: '2026-11-27T09:14:03.024Z',
        time: 41.2,
        request: { method: 'GET', url: PAGE_URL, httpVersion: 'HTTP/1.1', headers: [], cookies: [], queryString: [], headersSize: -1, bodySize: 0 },
        response: { status: 200, statusText: 'OK', httpVersion: 'HTTP/1.1', headers: [], cookies: [], content: { size: 2104, mimeType: 'text/html; charset=utf-8' }, redirectURL: '', headersSize: -1, bodySize: 2104 },
        cache: {},
        timings: { send: 0.1, wait: 38.9, receive: 2.2 },
      },
    ],
  },
};
