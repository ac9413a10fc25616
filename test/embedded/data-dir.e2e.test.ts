import { mkdtempSync, rmSync } from 'node:fs';
import { tmpdir } from 'node:os';
import { join } from 'node:path';
import { afterAll, beforeAll, describe, expect, it } from 'vitest';
import { allItems, duplicates, getCrawl, startCrawl, waitForCrawl } from '@trawl/test-support/crawl-client.ts';
import { CRAWL_TEST_ENV } from '@trawl/test-support/crawl-modes.ts';
import { startCrawlSite, type CrawlSite } from '@trawl/test-support/crawl-site.ts';
import { spawnTrawl, startGatewayProcess, stopAllProcesses } from '@trawl/test-support/processes.ts';

/**
 * Issue 16: embedded mode on a data directory (TRAWL_DATA_DIR). The real `npm start` entry is killed in the middle
 * of a crawl (kill -9, then SIGTERM) and started again on the same directory: the crawl resumes and ends with every
 * page delivered once under its cap; runs, artifacts, keys and credits are still there. A second process on the
 * same directory refuses to start, naming the holder.
 */
let site: CrawlSite;
let dir: string;
const PAGES = 24;
const HOST = 'restart.example.test';

beforeAll(async () => {
  site = await startCrawlSite();
  const children = Array.from({ length: PAGES - 1 }, (_, i) => `/p${i + 1}`);
  site.page(site.url(HOST), { links: children });
  for (const p of children) site.page(site.url(HOST, p), { latencyMs: 150 });
  dir = mkdtempSync(join(tmpdir(), 'trawl-data-e2e-'));
});
afterAll(async () => {
  await stopAllProcesses();
  await site?.close();
  rmSync(dir, { recursive: true, force: true });
});

const env = () => ({ ...CRAWL_TEST_ENV, TRAWL_DATA_DIR: dir, TRAWL_WORKERS: '1', TRAWL_TEAM_CREDITS: '1000' });

describe('embedded mode on a data directory', () => {
  it('a crawl killed twice (kill -9, then SIGTERM) resumes on restart and delivers every page once; runs, artifacts and keys survive', async () => {
    let gw = await startGatewayProcess('gateway 1', env());
    const fetched = await gw.call('POST', '/v1/fetch', { url: site.url(HOST, '/p1') });
    expect(fetched.status).toBe(200);
    const { run, result } = (await fetched.json()) as { run: { id: string }; result: { artifacts: { key: string; url: string }[] } };
    const markdown = result.artifacts.find((a) => a.key === 'markdown')!;
    const markdownBefore = await (await gw.call('GET', markdown.url)).text();
    expect(markdownBefore.length).toBeGreaterThan(0);
    const crawl = await startCrawl(gw, { urls: [site.url(HOST)], max_depth: 1, max_pages: PAGES });
    await waitForCrawl(gw, crawl.id, { until: (j) => j.progress.pages_completed >= 3, intervalMs: 50, context: () => gw.output() });

    // A second process on the same directory refuses, naming the holder.
    const second = spawnTrawl('gateway on a held directory', 'apps/gateway/src/main.ts', { ...env(), PORT: '0' });
    await second.waitForLine(/in use by process \d+/, 30_000);
    expect(await second.waitForExit(15_000)).toBe(1);

    await gw.kill9();
    gw = await startGatewayProcess('gateway 2', env());
    await waitForCrawl(gw, crawl.id, { until: (j) => j.progress.pages_completed >= 10, intervalMs: 50, context: () => gw.output() });
    await gw.stop(10_000);
    gw = await startGatewayProcess('gateway 3', env());

    // Pages leased by the killed process come back after their lease (TRAWL_LEASE_MS) and the crawl ends.
    const done = await waitForCrawl(gw, crawl.id, { intervalMs: 100, timeoutMs: 60_000, context: () => gw.output() });
    expect(done.status).toBe('completed');
    expect(done.progress.pages_completed).toBe(PAGES);
    const items = await allItems(gw, crawl.id);
    expect(items).toHaveLength(PAGES);
    expect(duplicates(items.map((i) => i.url))).toEqual([]);
    expect((await getCrawl(gw, crawl.id)).progress.max_pages).toBe(PAGES);

    // What was stored before the first kill: the run and its artifact, read with the key (TRAWL_BOOTSTRAP_KEY) of
    // the team bootstrapped then (a new team would not own them: 404).
    const again = await gw.call('GET', `/v1/runs/${run.id}`);
    expect(again.status).toBe(200);
    expect(((await again.json()) as { run: { id: string; status: string } }).run).toMatchObject({ id: run.id, status: 'completed' });
    const artifact = await gw.call('GET', markdown.url);
    expect(artifact.status).toBe(200);
    expect(await artifact.text()).toBe(markdownBefore);
    // Four process starts (a gateway loads for seconds of CPU each): generous for a loaded machine.
  }, 180_000);

  it('without TRAWL_BOOTSTRAP_KEY the development key is made once and printed again at each start', async () => {
    const keyDir = mkdtempSync(join(tmpdir(), 'trawl-data-key-'));
    try {
      const keys: string[] = [];
      for (const name of ['first start', 'second start']) {
        const p = spawnTrawl(name, 'apps/gateway/src/main.ts', { ...CRAWL_TEST_ENV, TRAWL_DATA_DIR: keyDir, TRAWL_WORKERS: '0', PORT: '0' });
        const key = /Development API key: (\S+)/.exec(await p.waitForLine(/Development API key: /, 60_000))![1];
        const url = /Trawl listening on (\S+)/.exec(p.output())![1];
        expect((await fetch(`${url}/v1/runs/run_missing`, { headers: { authorization: `Bearer ${key}` } })).status).toBe(404);
        keys.push(key);
        await p.stop(10_000);
      }
      expect(keys[1]).toBe(keys[0]);
    } finally {
      rmSync(keyDir, { recursive: true, force: true });
    }
  });
});
