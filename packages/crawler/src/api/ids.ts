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

/** A cursor over positions of one list, tagged so a cursor of another list is refused. */
function positionCursor(tag: string) {
  return {
    encode: (pos: number): string => enc(`${tag}:${pos}`),
    decode(cursor: string): number | null {
      if (cursor.length > 64) return null;
      const m = /^([a-z]\d):(\d{1,9})$/.exec(dec(cursor));
      return m && m[1] === tag ? Number(m[2]) : null;
    },
  };
}

/** Items cursor: the next position to read. */
const itemsCursor = positionCursor('c1');
export const encodeCursor = itemsCursor.encode;
export const decodeCursor = itemsCursor.decode;
/** Webhook deliveries cursor: the next event (queueing position) to read. */
export const deliveriesCursor = positionCursor('w1');
