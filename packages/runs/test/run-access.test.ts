import { describe, expect, it } from 'vitest';
import type { ScrapedPage } from '@trawl/scrape';
import { KvStore } from '@trawl/store';
import { CONTENT_ARTIFACTS } from '../src/artifacts.ts';
import { deliverPage, startPageRun, type RunServices } from '../src/page-runs.ts';
import { readArtifact, readRun, type CrawlRunSource } from '../src/run-access.ts';
import { memoryKv } from '@trawl/test-support/backends.ts';

// Runs that are not crawl pages: the crawler's side (crawl pages, live crawl state) is covered end to end by the
// gateway's crawl tests, since the crawler sits above this package.
const noCrawls: CrawlRunSource = {
  crawlState: async () => null,
  crawlPage: async () => ({ kind: 'not_crawl_page' }),
};

function page(html: string | null): ScrapedPage {
  return {
    url: 'http://a.test/',
    finalUrl: 'http://a.test/',
    status: 'completed',
    title: 't',
    content: { markdown: '# t', html, metadata: {}, links: [] },
    artifacts: [],
    audit: {},
    diagnostics: {},
  } as unknown as ScrapedPage;
}

async function setup(retentionS = 60) {
  let t = Date.parse('2026-11-25T00:00:00Z');
  const now = () => t;
  const store = new KvStore(memoryKv(now), '', now);
  const team = await store.createTeam('a');
  const other = await store.createTeam('b');
  const svc = { store, billingMode: 'shadow' as const, artifactRetentionS: retentionS, now };
  const access = { store, crawls: noCrawls, artifactRetentionS: retentionS, now };
  return { store, team, other, svc, access, advance: (ms: number) => (t += ms) };
}

async function openRun(svc: RunServices, teamId: string) {
  const started = await startPageRun(svc, teamId, 'fetch');
  if (!started.ok) throw new Error(`page run refused: ${started.reason}`);
  return started.record;
}

describe('run access', () => {
  it("another team's run looks missing", async () => {
    const { team, other, svc, access } = await setup();
    const record = await openRun(svc, team.id);
    expect(await readRun(access, team.id, record.run.id)).toMatchObject({ ok: true, run: { status: 'running' } });
    expect(await readRun(access, other.id, record.run.id)).toEqual({ ok: false, reason: 'not_found' });
  });

  it('an artifact of a run still working is not ready; once delivered it is served with its exact type', async () => {
    const { team, other, svc, access } = await setup();
    const record = await openRun(svc, team.id);
    expect(await readArtifact(access, team.id, record.run.id, 'markdown', undefined)).toEqual({ ok: false, reason: 'not_ready' });
    const { result } = await deliverPage(svc, record, page(null));
    expect(result.artifacts.map((a) => a.key)).toEqual(['markdown']);
    const r = await readArtifact(access, team.id, record.run.id, 'markdown', undefined);
    expect(r).toEqual({ ok: true, contentType: CONTENT_ARTIFACTS.markdown, body: Buffer.from('# t') });
    expect(await readArtifact(access, other.id, record.run.id, 'markdown', undefined)).toEqual({ ok: false, reason: 'not_found' });
    expect(await readArtifact(access, team.id, record.run.id, 'html', undefined)).toEqual({ ok: false, reason: 'not_found' });
  });

  it('an artifact asked for with a crawl_id it does not belong to looks missing', async () => {
    const { team, svc, access } = await setup();
    const record = await openRun(svc, team.id);
    await deliverPage(svc, record, page('<p>t</p>'));
    expect(await readArtifact(access, team.id, record.run.id, 'html', 'crawl_x')).toEqual({ ok: false, reason: 'not_found' });
  });

  it('past retention an artifact is expired and says when', async () => {
    const { team, svc, access, advance } = await setup(60);
    const record = await openRun(svc, team.id);
    const { result } = await deliverPage(svc, record, page(null));
    advance(61_000);
    const r = await readArtifact(access, team.id, record.run.id, 'markdown', undefined);
    expect(r).toEqual({ ok: false, reason: 'expired', expiredAt: result.artifacts[0].expires_at });
  });
});
