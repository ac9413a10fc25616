import { KEY } from './trawl-cases.ts';

/** Every item of a crawl through the public API (GET /v1/crawl/{id}/items, 100 at a time, following the cursor). */
export async function crawlItems(gatewayUrl: string, crawlId: string): Promise<Record<string, unknown>[]> {
  const out: Record<string, unknown>[] = [];
  let cursor: string | null = null;
  do {
    const q = new URLSearchParams({ limit: '100', ...(cursor ? { cursor } : {}) });
    const res = await fetch(`${gatewayUrl}/v1/crawl/${crawlId}/items?${q}`, { headers: { authorization: `Bearer ${KEY}` } });
    if (res.status !== 200) throw new Error(`GET items of ${crawlId}: ${res.status} ${(await res.text()).slice(0, 300)}`);
    const page = (await res.json()) as { items: Record<string, unknown>[]; next_cursor: string | null };
    out.push(...page.items);
    cursor = page.next_cursor;
  } while (cursor !== null);
  return out;
}

/** How many values occur more than once. */
export function duplicateCount(xs: string[]): number {
  return xs.length - new Set(xs).size;
}
