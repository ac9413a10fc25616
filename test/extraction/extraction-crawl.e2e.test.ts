import { afterAll, beforeAll, describe, expect, it } from 'vitest';
import { PublicErrorResponse, type CrawlItem } from '@trawl/contract';
import { allItems, startCrawl, waitForCrawl, withKey, type Caller } from '@trawl/test-support/crawl-client.ts';
import { MODES, startCrawlEnv, workerLogs, type CrawlEnv } from '@trawl/test-support/crawl-modes.ts';
import { startCrawlSite, type CrawlSite } from '@trawl/test-support/crawl-site.ts';
import { CATALOG_EXTRACTION, catalogV1, catalogV2, expectedRecords } from './catalog-pages.ts';

/**
 * Issue 14: json_css records on crawls, in both modes. A catalogue is learned on its v1 page, then its v2 redesign
 * is extracted by a later crawl (another worker process in cluster mode) from the remembered structure; another
 * team's crawl of the redesign has no memory to use. Selectors never come back in an item.
 */
let site: CrawlSite;
const HTML = 'text/html; charset=utf-8';

function scriptDrawn(html: string): string {
  // The light engine sees an empty grid; the cards exist only after the script runs.
  const main = html.slice(html.indexOf('<main>') + 6, html.indexOf('</main>'));
  return `<!DOCTYPE html><html><head><title>Catalogue</title></head><body><main id="root"></main>
<script>setTimeout(() => { document.getElementById('root').innerHTML = ${JSON.stringify(main)}; }, 150);</script></body></html>`;
}

beforeAll(async () => {
  site = await startCrawlSite();
  for (const mode of MODES) {
    site.page(site.url(`v1.${mode}.shop.test`), { body: catalogV1(), contentType: HTML });
    site.page(site.url(`v2.${mode}.shop.test`), { body: catalogV2(), contentType: HTML });
    site.page(site.url(`js.${mode}.render.test`), { body: scriptDrawn(catalogV1()), contentType: HTML });
  }
});
afterAll(async () => {
  await site?.close();
});

const origin = (url: string) => new URL(url).origin;

async function crawlOne(gw: Caller, url: string, extra: Record<string, unknown> = {}): Promise<CrawlItem> {
  const crawl = await startCrawl(gw, { urls: [url], max_depth: 0, extraction: CATALOG_EXTRACTION, ...extra });
  const done = await waitForCrawl(gw, crawl.id);
  expect(done.status).toBe('completed');
  const items = await allItems(gw, crawl.id);
  expect(items).toHaveLength(1);
  return items[0];
}

function leaksNoSelector(item: CrawlItem) {
  const text = JSON.stringify(item);
  for (const s of ['product-card', '.product-name', '.price', '.tags li', 'base_selector', 'fingerprint']) expect(text).not.toContain(s);
}

describe.each(MODES)('extraction on crawls (%s)', (mode) => {
  let env: CrawlEnv;
  beforeAll(async () => {
    env = await startCrawlEnv(mode, { workers: 1 });
  });
  afterAll(async () => {
    await env?.close();
  });

  it('extracts one record per card in document order, with every field type, transform and template', async () => {
    const url = site.url(`v1.${mode}.shop.test`);
    const item = await crawlOne(env.gw, url);
    expect(item.records).toEqual(expectedRecords(origin(url)));
    expect(item.diagnostics.adaptive_extraction).toMatchObject({ enabled: true, used: false, action: 'matched' });
    leaksNoSelector(item);
  });

  it('extracts the redesign from remembered structure in a later crawl, on another worker in cluster mode', async () => {
    if (mode === 'cluster') {
      // The worker that learned goes away; a fresh process has only what the shared store remembers.
      for (const w of env.workers) await w.stop();
      await env.addWorkers(1);
    }
    const url = site.url(`v2.${mode}.shop.test`);
    const item = await crawlOne(env.gw, url);
    expect(item.records, workerLogs(env)).toEqual(expectedRecords(origin(url)));
    const adaptive = item.diagnostics.adaptive_extraction;
    expect(adaptive).toMatchObject({ enabled: true, used: true, action: 'reused' });
    expect(adaptive.confidence).toBeGreaterThan(0.5);
    leaksNoSelector(item);
  });

  it("another team's crawl of the redesign gets no memory: nothing is guessed", async () => {
    const team = await env.gw.ctx.store.createTeam(`extraction-other-${mode}`);
    const { secret } = await env.gw.ctx.store.createApiKey(team.id, { label: 'x', scopes: ['crawl', 'runs'] });
    const item = await crawlOne(withKey(env.gw, secret), site.url(`v2.${mode}.shop.test`));
    expect(item.records).toEqual([]);
    expect(item.diagnostics.adaptive_extraction).toMatchObject({ used: false, action: 'no_memory' });
  });

  it('with adaptive off, a redesign is not relocated', async () => {
    const item = await crawlOne(env.gw, site.url(`v2.${mode}.shop.test`), {
      extraction: { ...CATALOG_EXTRACTION, adaptive: false },
    });
    expect(item.records).toEqual([]);
    expect(item.diagnostics.adaptive_extraction).toMatchObject({ enabled: false, used: false, action: 'disabled' });
  });

  it('extracts from the rendered DOM on a browser crawl', async () => {
    const url = site.url(`js.${mode}.render.test`);
    const item = await crawlOne(env.gw, url, { browser: { wait_for_selector: '.product-card' } });
    expect(item.records).toEqual(expectedRecords(origin(url)));
  });
});

describe('extraction validation', () => {
  let env: CrawlEnv;
  beforeAll(async () => {
    // Enforce mode: a crawl that got past validation would reserve a block of credit at once (a ledger entry).
    env = await startCrawlEnv('embedded', { workers: 0, env: { TRAWL_BILLING_MODE: 'enforce' } });
  });
  afterAll(async () => {
    await env?.close();
  });

  const base = CATALOG_EXTRACTION;
  const fields = base.schema.fields;
  const cases: [string, unknown, string][] = [
    ['invalid base CSS', { ...base, schema: { ...base.schema, base_selector: 'div[' } }, 'extraction.schema.base_selector'],
    ['invalid field CSS', { ...base, schema: { ...base.schema, fields: [fields[0], fields[1], { ...fields[2], selector: 'a:nope(' }] } }, 'extraction.schema.fields.2.selector'],
    ['attribute without attribute', { ...base, schema: { ...base.schema, fields: [fields[0], { name: 'img', selector: 'img', type: 'attribute' }] } }, 'extraction.schema.fields.1.attribute'],
    ['duplicate field names', { ...base, schema: { ...base.schema, fields: [fields[0], { ...fields[1], name: 'name' }] } }, 'extraction.schema.fields.1.name'],
    ['template naming an unknown field', { ...base, computed_fields: [{ name: 'x', operation: 'template', template: '{nope}' }] }, 'extraction.computed_fields.0.template'],
    ['computed field colliding with a field', { ...base, computed_fields: [{ name: 'price', operation: 'template', template: '{name}' }] }, 'extraction.computed_fields.0.name'],
  ];
  it.each(cases)('%s is 400 validation_error naming the path, and nothing is reserved', async (_name, extraction, path) => {
    const before = await env.gw.ctx.store.entries(env.gw.bootstrap!.teamId, 1_000);
    const res = await env.gw.call('POST', '/v1/crawl', { urls: ['http://v1.embedded.shop.test/'], extraction });
    expect(res.status).toBe(400);
    const error = PublicErrorResponse.parse(await res.json()).error;
    expect(error.code).toBe('validation_error');
    const paths = [error.details.field, ...((error.details.issues as { field: string }[] | undefined) ?? []).map((i) => i.field)];
    expect(paths).toContain(path);
    expect(JSON.stringify(error)).not.toMatch(/div\[|a:nope/);
    expect(await env.gw.ctx.store.entries(env.gw.bootstrap!.teamId, 1_000)).toEqual(before);
  });

  it('a valid extraction is accepted and reserves credit (the check above can fail)', async () => {
    const before = (await env.gw.ctx.store.entries(env.gw.bootstrap!.teamId, 1_000)).length;
    const res = await env.gw.call('POST', '/v1/crawl', { urls: ['http://v1.embedded.shop.test/'], extraction: CATALOG_EXTRACTION });
    expect(res.status).toBe(202);
    expect((await env.gw.ctx.store.entries(env.gw.bootstrap!.teamId, 1_000)).length).toBe(before + 1);
  });
});
