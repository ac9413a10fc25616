import { setTimeout as delay } from 'node:timers/promises';
import type { CrawlItem } from '@trawl/contract';
import { TERMINAL_STATUSES } from '@trawl/frontier';
import type { CrawlServices } from './crawl-service.ts';
import { decodeCursor, parsePageRunId } from './ids.ts';
import { decodeItem } from './item-codec.ts';
import { itemView } from './views.ts';

/** Items read from the store at once: what an export holds in memory, whatever the crawl's size. */
export const EXPORT_BATCH = 50;

export interface ExportOptions {
  /** Start at this items cursor (`next_cursor` of GET …/items). */
  cursor?: string;
  /** Start after this item (its `id`): how a broken download resumes from its last complete line. */
  after?: string;
  /** Keep the stream open while the crawl runs, sending items as they are delivered, until it ends. */
  follow: boolean;
  /** Between two reads that found nothing new while following. */
  pollMs: number;
  signal: AbortSignal;
}

export type ExportStart =
  | { ok: true; items: AsyncGenerator<CrawlItem, void, undefined> }
  | { ok: false; reason: 'not_found' }
  | { ok: false; reason: 'bad_position'; field: 'cursor' | 'after' };

/**
 * GET /v1/crawl/{id}/items.jsonl: every delivered item from a position, in delivery order, read a batch at a time
 * (constant memory). Without `follow` it ends at the last item delivered so far; with it, when the crawl has ended
 * and every item was sent. The team check and the position are judged before anything is sent.
 */
export async function exportItems(svc: CrawlServices, teamId: string, crawlId: string, o: ExportOptions): Promise<ExportStart> {
  const snap = await svc.crawls.getCrawl(crawlId);
  if (!snap || snap.plan.team_id !== teamId) return { ok: false, reason: 'not_found' };
  let from = 0;
  if (o.cursor !== undefined) {
    const at = decodeCursor(o.cursor);
    if (at === null) return { ok: false, reason: 'bad_position', field: 'cursor' };
    from = at;
  }
  if (o.after !== undefined) {
    const ref = o.after.startsWith('item_') ? parsePageRunId(`run_p${o.after.slice(5)}`) : null;
    if (!ref || ref.crawlId !== crawlId) return { ok: false, reason: 'bad_position', field: 'after' };
    from = Math.max(from, ref.seq + 1);
  }
  return { ok: true, items: walk(svc, crawlId, from, o) };
}

async function* walk(svc: CrawlServices, crawlId: string, start: number, o: ExportOptions): AsyncGenerator<CrawlItem, void, undefined> {
  let next = start;
  for (;;) {
    if (o.signal.aborted) return;
    const raw = await svc.crawls.items(crawlId, next, EXPORT_BATCH);
    for (const s of raw) yield itemView(crawlId, next++, decodeItem(s), svc.artifactRetentionS);
    if (raw.length === EXPORT_BATCH) continue;
    if (!o.follow) return;
    const snap = await svc.crawls.getCrawl(crawlId);
    // Ended (or forgotten) and read to its last item: done. Items are written before the end is, so none is missed.
    if (!snap || (TERMINAL_STATUSES.includes(snap.status) && next >= snap.counters.completed)) return;
    await delay(o.pollMs, undefined, { signal: o.signal }).catch(() => undefined);
  }
}
