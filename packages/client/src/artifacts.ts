/** Artifact references and downloaded bodies. */

/** A run's artifact: its run id and key, plus the crawl id that crawl-page artifact URLs carry. */
export interface ArtifactRef {
  runId: string;
  key: string;
  crawlId?: string;
}

export interface ArtifactDownload {
  /** The Content-Type the API sent (e.g. `text/markdown; charset=utf-8`). */
  contentType: string;
  bytes: Uint8Array;
  /** The bytes decoded with the charset of contentType (UTF-8 when it names none). */
  text(): string;
}

const ARTIFACT_PATH = /^\/v1\/runs\/([^/]+)\/artifacts\/([^/]+)$/;

/**
 * An artifact URL as the API returned it (`/v1/runs/<run>/artifacts/<key>?crawl_id=…`, relative to the API's base
 * URL, or absolute under it) as a reference. Anything else is refused: the client would send its key there.
 */
export function artifactRefOf(url: string, baseUrl: string): ArtifactRef {
  let rest = url;
  if (/^[a-z][a-z0-9+.-]*:/i.test(url)) {
    if (!url.startsWith(`${baseUrl}/`)) throw new TypeError('artifact URL is not under the client’s base URL');
    rest = url.slice(baseUrl.length);
  }
  const parsed = new URL(rest, 'http://artifact.invalid');
  const m = ARTIFACT_PATH.exec(parsed.pathname);
  const params = [...parsed.searchParams.keys()];
  if (!rest.startsWith('/') || !m || params.some((p) => p !== 'crawl_id')) {
    throw new TypeError('not an artifact URL of this API (/v1/runs/<run_id>/artifacts/<key>)');
  }
  const crawlId = parsed.searchParams.get('crawl_id');
  return { runId: decodeURIComponent(m[1]), key: decodeURIComponent(m[2]), ...(crawlId ? { crawlId } : {}) };
}

export function artifactDownload(contentType: string, body: ArrayBuffer): ArtifactDownload {
  const bytes = new Uint8Array(body);
  return {
    contentType,
    bytes,
    text: () => new TextDecoder(charsetOf(contentType)).decode(bytes),
  };
}

function charsetOf(contentType: string): string {
  const m = /;\s*charset="?([^";\s]+)"?/i.exec(contentType);
  if (!m) return 'utf-8';
  try {
    return new TextDecoder(m[1]).encoding;
  } catch {
    return 'utf-8';
  }
}
