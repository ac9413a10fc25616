import { leasedAt } from './lease-token.ts';
import type { CrawlCounters, HostLoad } from './types.ts';

/**
 * The reason counters of a crawl snapshot from its counts as every backend keeps them: fields `fail:<reason>`,
 * `block:<reason>` and `retry:<category>` (other fields are ignored, so a Redis meta hash can be passed whole).
 */
export function reasonCounters(
  counts: Iterable<[string, number | string]>,
): Pick<CrawlCounters, 'failed' | 'blocked' | 'block_reasons' | 'failure_reasons' | 'retry_categories'> {
  const out = { failed: 0, blocked: 0, block_reasons: {} as Record<string, number>, failure_reasons: {} as Record<string, number>, retry_categories: {} as Record<string, number> };
  for (const [k, v] of counts) {
    const n = Number(v);
    if (k.startsWith('fail:')) {
      out.failure_reasons[k.slice(5)] = n;
      out.failed += n;
    } else if (k.startsWith('block:')) {
      out.block_reasons[k.slice(6)] = n;
      out.blocked += n;
    } else if (k.startsWith('retry:')) {
      out.retry_categories[k.slice(6)] = n;
    }
  }
  return out;
}

/** A crawl's pages per host from its queue lengths and the leases it holds (crawl-host-loads-2.lua's twin). */
export function hostLoadsOf(queues: Iterable<{ host: string; queued: number }>, leases: Iterable<{ token: string; host: string }>): HostLoad[] {
  const loads = new Map<string, HostLoad>();
  for (const { host, queued } of queues) loads.set(host, { host, queued, leased: 0, oldest_leased_at: null });
  for (const { token, host } of leases) {
    let load = loads.get(host);
    if (!load) loads.set(host, (load = { host, queued: 0, leased: 0, oldest_leased_at: null }));
    load.leased += 1;
    const at = leasedAt(token);
    if (at !== null && (load.oldest_leased_at === null || at < load.oldest_leased_at)) load.oldest_leased_at = at;
  }
  return [...loads.values()];
}
