/**
 * Derived identifiers of crawl output. Items are stored by position; their ids, page run ids and cursors encode
 * (crawl, position) so no index has to be written per page. They stay opaque strings for callers.
 */
const enc = (s: string) => Buffer.from(s, 'utf8').toString('base64url');
const dec = (s: string) => Buffer.from(s, 'base64url').toString('utf8');

function decodePair(prefix: string, id: string): { crawlId: string; seq: number } | null {
  if (!id.startsWith(prefix) || id.length > 200) return null;
  const m = /^(crawl_[A-Za-z0-9_-]+)\.(\d{1,9})$/.exec(dec(id.slice(prefix.length)));
  return m ? { crawlId: m[1], seq: Number(m[2]) } : null;
}

export function pageRunId(crawlId: string, seq: number): string {
  return `run_p${enc(`${crawlId}.${seq}`)}`;
}
export function parsePageRunId(id: string): { crawlId: string; seq: number } | null {
  return decodePair('run_p', id);
}
export function itemId(crawlId: string, seq: number): string {
  return `item_${enc(`${crawlId}.${seq}`)}`;
}

/** Items cursor: the next position to read. */
export function encodeCursor(seq: number): string {
  return enc(`c1:${seq}`);
}
export function decodeCursor(cursor: string): number | null {
  if (cursor.length > 64) return null;
  const m = /^c1:(\d{1,9})$/.exec(dec(cursor));
  return m ? Number(m[1]) : null;
}
