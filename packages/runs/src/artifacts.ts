import { ARTIFACT_CONTENT_TYPES, type Artifact } from '@trawl/contract';
import type { PageArtifact, ScrapedPage } from '@trawl/scrape';
import type { RunRecord, Store } from '@trawl/store';

/** The content artifacts every delivered page has (html only when the page has HTML), with their exact types. */
export const CONTENT_ARTIFACTS = {
  markdown: ARTIFACT_CONTENT_TYPES.markdown,
  html: ARTIFACT_CONTENT_TYPES.html,
} as const;
export type ContentArtifactKey = keyof typeof CONTENT_ARTIFACTS;

export function isContentArtifactKey(key: string): key is ContentArtifactKey {
  return Object.hasOwn(CONTENT_ARTIFACTS, key);
}

/** The download path of an artifact; a crawl page's names its crawl, and must be followed as returned. */
export function artifactUrl(runId: string, key: string, crawlId?: string): string {
  const base = `/v1/runs/${encodeURIComponent(runId)}/artifacts/${encodeURIComponent(key)}`;
  return crawlId ? `${base}?crawl_id=${encodeURIComponent(crawlId)}` : base;
}

export function artifactExpiry(createdAt: string, retentionS: number): string {
  return new Date(Date.parse(createdAt) + retentionS * 1000).toISOString();
}

export function artifactExpired(createdAt: string, retentionS: number, now: number): boolean {
  return Date.parse(createdAt) + retentionS * 1000 <= now;
}

function contentKeys(html: string | null): ContentArtifactKey[] {
  return html === null ? ['markdown'] : ['markdown', 'html'];
}

/**
 * A crawl page's artifacts: its Markdown and HTML are not stored twice but served from its item, under a page run
 * id that names the crawl (the crawler's ids).
 */
export function crawlPageArtifacts(pageRunId: string, crawlId: string, html: string | null, createdAt: string, retentionS: number): Artifact[] {
  const expires = artifactExpiry(createdAt, retentionS);
  return contentKeys(html).map((key) => ({
    key,
    url: artifactUrl(pageRunId, key, crawlId),
    content_type: CONTENT_ARTIFACTS[key],
    expires_at: expires,
  }));
}

/** Stores a page run's artifacts (Markdown, HTML, and any the engine made: screenshot, HAR) and lists them. */
export async function storePageArtifacts(
  store: Store,
  record: RunRecord,
  page: ScrapedPage,
  at: string,
  retentionS: number,
): Promise<Artifact[]> {
  const expires = artifactExpiry(at, retentionS);
  const texts: Record<ContentArtifactKey, string | null> = { markdown: page.content.markdown, html: page.content.html };
  const files: PageArtifact[] = [
    ...contentKeys(page.content.html).map((key) => ({ key, contentType: CONTENT_ARTIFACTS[key], body: Buffer.from(texts[key] ?? '', 'utf8') })),
    ...page.artifacts,
  ];
  const artifacts: Artifact[] = [];
  for (const f of files) {
    const meta = { run_id: record.run.id, key: f.key, team_id: record.team_id, content_type: f.contentType, crawl_id: record.crawl_id ?? null };
    await store.putArtifact({ ...meta, created_at: at, expires_at: expires }, f.body);
    artifacts.push({ key: f.key, url: artifactUrl(record.run.id, f.key, record.crawl_id), content_type: f.contentType, expires_at: expires });
  }
  return artifacts;
}
