import { z } from 'zod';

/**
 * Newest-first indexes of records (crawls, trends jobs) for the operator's listings. An index key is the record's
 * creation time (epoch ms, fixed width) then its id, so keys sort like the records and a key alone is a cursor
 * position. The indexes themselves live with their backends: `@trawl/kv` KvRecordIndex and `@trawl/redis`
 * RedisRecordIndex (same key format).
 */
const KEY = /^(\d{15}):([A-Za-z0-9_-]{1,200})$/;

export function indexKey(createdAt: string, id: string): string {
  return `${String(Math.max(0, Date.parse(createdAt))).padStart(15, '0')}:${id}`;
}

/** The record id of an index key, or null when the string is not one. */
export function idOfIndexKey(key: string): string | null {
  return KEY.exec(key)?.[2] ?? null;
}

/** An entry of an index: the record's id and its key (the position to pass as `after` for the next page). */
export interface IndexEntry {
  key: string;
  id: string;
}

/** A record that the store will forget at `expires_at` (epoch ms). */
export interface ExpiringEntry {
  id: string;
  team_id: string;
  expires_at: number;
}

/** Entries of index keys as a Redis index returns them (anything that is not an index key is skipped). */
export function indexEntries(keys: string[]): IndexEntry[] {
  const out: IndexEntry[] = [];
  for (const key of keys) {
    const id = idOfIndexKey(key);
    if (id !== null) out.push({ key, id });
  }
  return out;
}

/** Expiring entries from a Redis index's rows (index key, team, forget time). */
export function expiringEntries(rows: { key: string; team: string; at: number }[]): ExpiringEntry[] {
  const out: ExpiringEntry[] = [];
  for (const r of rows) {
    const id = idOfIndexKey(r.key);
    if (id !== null) out.push({ id, team_id: r.team, expires_at: r.at });
  }
  return out;
}

/** An id of a record (crawl, job, team) in an operator's input. */
export const RecordId = z.string().min(1).max(200);

/** The fields every operator listing takes, besides its own filter: one team or all, a cursor, a page size. */
export const LIST_QUERY_FIELDS = {
  team_id: RecordId.optional(),
  cursor: z.string().min(1).max(400).optional(),
  limit: z.int().min(1).max(100).default(20),
};

/** Opaque cursor of an operator listing: the last index key the previous page looked at. */
export function encodeListCursor(key: string): string {
  return Buffer.from(`l1:${key}`, 'utf8').toString('base64url');
}
export function decodeListCursor(cursor: string): string | null {
  if (cursor.length > 400) return null;
  const s = Buffer.from(cursor, 'base64url').toString('utf8');
  return s.startsWith('l1:') && idOfIndexKey(s.slice(3)) !== null ? s.slice(3) : null;
}

/** How many index entries one listing page looks at, at most, when a filter keeps few of them. */
export const MAX_EXAMINED_PER_PAGE = 1_000;

/**
 * One page of a filtered newest-first listing. `fetch` reads index entries after a key; `load` turns a batch into
 * records, null for those the filter rejects (or that are gone). A page stops when full, when the index ends, or
 * after MAX_EXAMINED_PER_PAGE entries (then it may be short, with a cursor to go on from): a rare status never
 * makes one call read the whole index. null when the cursor is not one of ours.
 */
export async function filteredPage<T>(opts: {
  /** The cursor the caller sent (from a previous page), if any. */
  cursor: string | undefined;
  limit: number;
  fetch(after: string | undefined, n: number): Promise<IndexEntry[]>;
  load(batch: IndexEntry[]): Promise<(T | null)[]>;
}): Promise<{ items: T[]; next_cursor: string | null } | null> {
  const items: T[] = [];
  let after = opts.cursor === undefined ? undefined : decodeListCursor(opts.cursor);
  if (after === null) return null;
  let examined = 0;
  while (examined < MAX_EXAMINED_PER_PAGE) {
    const want = Math.min(MAX_EXAMINED_PER_PAGE - examined, Math.max(opts.limit - items.length, 50));
    const batch = await opts.fetch(after, want);
    if (batch.length === 0) return { items, next_cursor: null };
    const loaded = await opts.load(batch);
    for (let i = 0; i < batch.length; i++) {
      examined += 1;
      after = batch[i].key;
      const v = loaded[i];
      if (v !== null) items.push(v);
      if (items.length === opts.limit) return { items, next_cursor: encodeListCursor(after) };
    }
    if (batch.length < want) return { items, next_cursor: null };
  }
  return { items, next_cursor: after === undefined ? null : encodeListCursor(after) };
}
