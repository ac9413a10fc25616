import { afterAll, beforeAll, describe, expect, it } from 'vitest';
import { PageRunResponse, PublicErrorResponse, RunResponse } from '@trawl/contract';
import { startTestGateway, type TestGateway } from '@trawl/test-support/gateway.ts';
import { startFixtureSite } from '@trawl/test-support/fixture-site.ts';

let site: Awaited<ReturnType<typeof startFixtureSite>>;
let gw: TestGateway;
const clock = { offset: 0 };
beforeAll(async () => {
  site = await startFixtureSite();
  gw = await startTestGateway({ TRAWL_FETCH_TIMEOUT_MS: '3000', TRAWL_ARTIFACT_RETENTION_S: '3600' }, () => Date.now() + clock.offset);
});
afterAll(async () => {
  await gw?.close();
  await site?.close();
});

const page = (path: string, host = 'site.test') => `${site.origin(host)}${path}`;

async function fetchOk(url: string) {
  const res = await gw.call('POST', '/v1/fetch', { url });
  expect(res.status, await res.clone().text()).toBe(200);
  return PageRunResponse.parse(await res.json());
}

async function fetchError(url: string) {
  const res = await gw.call('POST', '/v1/fetch', { url });
  return { status: res.status, error: PublicErrorResponse.parse(await res.json()).error };
}

describe('POST /v1/fetch', () => {
  it('turns an article into Markdown, sanitized HTML, metadata, links, audit and usage', async () => {
    const { run, result } = await fetchOk(page('/article'));
    expect(run.id).toMatch(/^run_/);
    expect(run.type).toBe('fetch');
    expect(run.status).toBe('completed');
    expect(run.cost_units).toBe(1);
    expect(run.quota).toEqual({ resource: 'scrape', quantity_reserved: 1 });
    expect(result.url).toBe(page('/article'));
    expect(result.final_url).toBe(page('/article'));
    expect(result.title.length).toBeGreaterThan(0);
    expect(result.content.markdown).toMatch(/^#{1,3} /m);
    expect(result.content.markdown).toContain('|');
    expect(result.content.markdown).toContain('```');
    expect(result.content.html).not.toMatch(/<script|onclick=|javascript:/i);
    expect(result.content.metadata.status_code).toBe(200);
    expect(result.content.metadata.content_type).toContain('text/html');
    expect(result.content.links.every((l) => /^https?:\/\//.test(l))).toBe(true);
    expect(new Set(result.content.links).size).toBe(result.content.links.length);
    expect(result.audit.engine_winner).toBe('light');
    expect(result.audit.engines_attempted).toEqual(['light']);
    expect(result.audit.retry_stats.total_attempts).toBe(1);
    expect(result.audit.block_reason).toBeNull();
    expect(result.audit.quality_score).toBeGreaterThan(0.5);
    expect(result.diagnostics.content_quality.score).toBe(result.audit.quality_score);
    expect(result.usage).toEqual({ cost_units: 1, budget_exhausted: false });
    expect(result.artifacts.map((a) => a.key).sort()).toEqual(['html', 'markdown']);
  });

  it('follows redirects and reports the final URL', async () => {
    const { result } = await fetchOk(page('/redirect/3'));
    expect(result.url).toBe(page('/redirect/3'));
    expect(result.final_url).toBe(page('/article'));
  });

  it('answers 502 fetch_failed, not retryable, after 10 redirects, with the run and block reason', async () => {
    for (const path of ['/redirect/11', '/loop']) {
      const { status, error } = await fetchError(page(path));
      expect(status).toBe(502);
      expect(error.code).toBe('fetch_failed');
      expect(error.retryable).toBe(false);
      expect(error.details.block_reason).toBe('redirect_limit');
      const run = await gw.call('GET', `/v1/runs/${error.details.run_id}`);
      const r = RunResponse.parse(await run.json()).run;
      expect(r.status).toBe('failed');
      expect(r.cost_units).toBe(0);
    }
  });

  it('stops an endless body at 10 MiB with body_size_limit', async () => {
    const { status, error } = await fetchError(page('/endless'));
    expect(status).toBe(502);
    expect(error.details.block_reason).toBe('body_size_limit');
    expect(error.retryable).toBe(false);
  });

  it('answers 408 timeout when the target is slower than the deadline', async () => {
    const { status, error } = await fetchError(page('/slow?ms=6000'));
    expect(status).toBe(408);
    expect(error.code).toBe('timeout');
    expect(error.retryable).toBe(true);
  });

  it('answers 403 permission_denied for a target the SSRF guard refuses', async () => {
    const { status, error } = await fetchError('http://127.0.0.2:9/');
    expect(status).toBe(403);
    expect(error.details.block_reason).toBe('blocked_target');
    expect(JSON.stringify(error)).not.toContain('127.0.0.2');
  });

  it('refuses content it cannot turn into Markdown with a reason', async () => {
    const { status, error } = await fetchError(page('/image.png'));
    expect(status).toBe(502);
    expect(error.retryable).toBe(false);
    expect(error.details.block_reason).toBe('unsupported_content_type');
    expect(error.details.reason).toContain('image/png');
  });

  it('reports an HTTP error status of the target', async () => {
    const notFound = await fetchError(page('/status/404'));
    expect(notFound.status).toBe(502);
    expect(notFound.error.details).toMatchObject({ block_reason: 'http_error', status_code: 404 });
    expect(notFound.error.retryable).toBe(false);
    const unavailable = await fetchError(page('/status/503'));
    expect(unavailable.error.retryable).toBe(true);
  });

  it('turns text/plain and JSON into Markdown', async () => {
    expect((await fetchOk(page('/plain.txt'))).result.content.markdown.length).toBeGreaterThan(0);
    const json = await fetchOk(page('/data.json'));
    expect(json.result.content.markdown).toContain('```json');
    expect(json.result.content.html).toBeNull();
    expect(json.result.artifacts.map((a) => a.key)).toEqual(['markdown']);
  });

  it('honours Shift_JIS and windows-1252 from the header and from <meta charset>', async () => {
    for (const path of ['/charset/sjis-header', '/charset/sjis-meta']) {
      expect((await fetchOk(page(path))).result.content.markdown).toMatch(/[\u3040-\u30ff\u4e00-\u9faf]/);
    }
    for (const path of ['/charset/1252-header', '/charset/1252-meta']) {
      const md = (await fetchOk(page(path))).result.content.markdown;
      expect(md).toMatch(/[“”é]/);
      expect(md).not.toContain('\ufffd');
    }
  });

  it('maps several hostnames through TRAWL_HOST_RESOLVER_RULES', async () => {
    for (const host of ['a.example.test', 'news.example.test']) {
      const { result } = await fetchOk(page('/echo-host', host));
      expect(result.content.markdown).toContain(host);
    }
  });
});

describe('runs and artifacts', () => {
  it('downloads exactly the listed content, owner only, and answers 410 after retention', async () => {
    const { run, result } = await fetchOk(page('/article'));
    const got = await gw.call('GET', `/v1/runs/${run.id}`);
    expect(RunResponse.parse(await got.json()).run).toEqual(run);
    for (const a of result.artifacts) {
      const res = await gw.call('GET', a.url);
      expect(res.status).toBe(200);
      expect(res.headers.get('content-type')).toBe(a.content_type);
      expect(await res.text()).toBe(a.key === 'markdown' ? result.content.markdown : result.content.html);
    }

    const team = await gw.ctx.store.createTeam('other');
    const { secret } = await gw.ctx.store.createApiKey(team.id, { label: 'x', scopes: ['runs', 'fetch'] });
    const other = { authorization: `Bearer ${secret}` };
    const foreignRun = await gw.call('GET', `/v1/runs/${run.id}`, undefined, other);
    expect(foreignRun.status).toBe(404);
    expect(PublicErrorResponse.parse(await foreignRun.json()).error.code).toBe('run_not_found');
    const foreignArtifact = await gw.call('GET', result.artifacts[0].url, undefined, other);
    expect(foreignArtifact.status).toBe(404);
    expect(PublicErrorResponse.parse(await foreignArtifact.json()).error.code).toBe('artifact_not_found');
    expect((await gw.call('GET', `/v1/runs/${run.id}/artifacts/screenshot`)).status).toBe(404);
    expect((await gw.call('GET', `${result.artifacts[0].url}?crawl_id=crawl_x`)).status).toBe(404);

    clock.offset = 3601_000;
    try {
      const expired = await gw.call('GET', result.artifacts[0].url);
      expect(expired.status).toBe(410);
      expect(PublicErrorResponse.parse(await expired.json()).error.code).toBe('artifact_expired');
    } finally {
      clock.offset = 0;
    }
  });
});
