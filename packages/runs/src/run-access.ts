import type { PublicRun } from '@trawl/contract';
import type { RunRecord, Store } from '@trawl/store';
import { artifactExpired, CONTENT_ARTIFACTS, isContentArtifactKey } from './artifacts.ts';
import { liveCrawlRun, type CrawlRunState } from './crawl-runs.ts';

/** A crawl page as the crawler finds it by its page run id, for the team asking. */
export type CrawlPageLookup =
  | { kind: 'not_crawl_page' }
  | { kind: 'missing' }
  | { kind: 'page'; createdAt: string; markdown: string; html: string | null };

/** What run reads need from the crawler (which sits above this package): live crawl state and crawl pages. */
export interface CrawlRunSource {
  /** The team's crawl, null when it has none by that id. */
  crawlState(teamId: string, crawlId: string): Promise<CrawlRunState | null>;
  /** The crawl page a page run id names, only if `crawlId` is its crawl and the team owns that crawl. */
  crawlPage(teamId: string, pageRunId: string, crawlId: string | undefined): Promise<CrawlPageLookup>;
}

export interface RunAccessDeps {
  store: Store;
  crawls: CrawlRunSource;
  artifactRetentionS: number;
  now: () => number;
}

export type RunRead = { ok: true; run: PublicRun } | { ok: false; reason: 'not_found' };

export type ArtifactRead =
  | { ok: true; contentType: string; body: Buffer }
  | { ok: false; reason: 'not_found' | 'not_ready' }
  | { ok: false; reason: 'expired'; expiredAt: string | null };

async function ownRun(d: RunAccessDeps, teamId: string, runId: string): Promise<RunRecord | null> {
  const record = await d.store.getRun(runId);
  // Someone else's run is indistinguishable from a missing one.
  return record && record.team_id === teamId ? record : null;
}

/** A run of the team; a crawl's run shows its crawl's live state until the crawl is settled. */
export async function readRun(d: RunAccessDeps, teamId: string, runId: string): Promise<RunRead> {
  const record = await ownRun(d, teamId, runId);
  if (!record) return { ok: false, reason: 'not_found' };
  if (record.run.type !== 'crawl' || !record.crawl_id || record.run.completed_at) return { ok: true, run: record.run };
  const crawl = await d.crawls.crawlState(teamId, record.crawl_id);
  return { ok: true, run: crawl ? liveCrawlRun(record.run, crawl) : record.run };
}

/**
 * An artifact, only to the team that owns it: a crawl page's through the URL that names its crawl (served from the
 * crawl's item), any other from the store. Missing and foreign look the same; a run still working is not ready;
 * past retention it is expired.
 */
export async function readArtifact(
  d: RunAccessDeps,
  teamId: string,
  runId: string,
  key: string,
  crawlId: string | undefined,
): Promise<ArtifactRead> {
  const page = await d.crawls.crawlPage(teamId, runId, crawlId);
  if (page.kind === 'missing') return { ok: false, reason: 'not_found' };
  if (page.kind === 'page') {
    if (!isContentArtifactKey(key)) return { ok: false, reason: 'not_found' };
    if (artifactExpired(page.createdAt, d.artifactRetentionS, d.now())) return { ok: false, reason: 'expired', expiredAt: null };
    const text = key === 'markdown' ? page.markdown : page.html;
    if (text === null) return { ok: false, reason: 'not_found' };
    return { ok: true, contentType: CONTENT_ARTIFACTS[key], body: Buffer.from(text, 'utf8') };
  }
  const found = await d.store.getArtifact(runId, key);
  if (!found) {
    const record = await ownRun(d, teamId, runId);
    const working = record && (record.run.status === 'running' || record.run.status === 'queued');
    return { ok: false, reason: working ? 'not_ready' : 'not_found' };
  }
  const { meta, body } = found;
  // Crawl page artifacts are served only through the URL that names their crawl, and only to its team.
  if (meta.team_id !== teamId || (meta.crawl_id ?? undefined) !== crawlId) return { ok: false, reason: 'not_found' };
  if (body === null) return { ok: false, reason: 'expired', expiredAt: meta.expires_at };
  return { ok: true, contentType: meta.content_type, body };
}
