import type { CrawlStore } from '@trawl/frontier';
import { signPayload, SIGNATURE_HEADER, type ClaimedDelivery } from '@trawl/webhooks';
import { itemId } from '../api/ids.ts';
import { decodeItem } from '../api/item-codec.ts';
import { crawlJobView, itemView } from '../api/views.ts';

/**
 * The body of one event, built when it is sent from what the crawl store holds (the outbox keeps references, not
 * bodies): the same bytes at every attempt, since an item and an ended crawl no longer change. null when the crawl
 * (or the item) has been forgotten since.
 */
export async function eventBody(crawls: CrawlStore, c: ClaimedDelivery, artifactRetentionS: number): Promise<string | null> {
  const { entry } = c;
  let data: Record<string, unknown>;
  if (entry.type === 'crawl.page') {
    const raw = entry.seq === null ? null : await crawls.item(c.crawl_id, entry.seq);
    if (raw === null) return null;
    const item = itemView(c.crawl_id, entry.seq!, decodeItem(raw), artifactRetentionS);
    data = { item: c.config.payload === 'thin' ? { id: itemId(c.crawl_id, entry.seq!), url: item.url, final_url: item.final_url } : item };
  } else {
    const snap = await crawls.getCrawl(c.crawl_id);
    if (!snap) return null;
    const job = crawlJobView(snap);
    data =
      entry.type === 'crawl.started'
        ? { status: 'running', started_at: job.started_at }
        : { status: job.status, failure: job.failure, completed_at: job.completed_at, progress: job.progress };
  }
  return JSON.stringify({ id: entry.id, type: entry.type, created_at: entry.created_at, crawl_id: c.crawl_id, data });
}

/** Headers of one attempt: the event, the attempt, and the signature over this attempt's timestamp and the body. */
export function eventHeaders(c: ClaimedDelivery, body: string, nowMs: number): Record<string, string> {
  return {
    'content-type': 'application/json',
    'user-agent': 'Trawl-Webhooks/1',
    'trawl-event-id': c.entry.id,
    'trawl-event': c.entry.type,
    'trawl-delivery-attempt': String(c.attempt),
    [SIGNATURE_HEADER]: signPayload(c.config.secret, Math.floor(nowMs / 1000), body),
  };
}
