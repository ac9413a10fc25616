import type { TrendsRelatedQuery, TrendsResult } from '@trawl/contract';
import { rankedLists } from './protocol.ts';
import { UpstreamError } from './upstream-error.ts';

/** Links always point at the public Google Trends site, whichever base URL the data came from (e.g. a simulator). */
export const TRENDS_PUBLIC_ORIGIN = 'https://trends.google.com';

/**
 * An absolute explore link from Google's relative one. Only its path and query are kept, so an absolute link to
 * another host in the data can never become a link we hand out.
 */
function absoluteLink(link: unknown, query: string): string {
  if (typeof link === 'string' && link !== '') {
    try {
      const u = new URL(link, TRENDS_PUBLIC_ORIGIN);
      return `${TRENDS_PUBLIC_ORIGIN}${u.pathname}${u.search}`;
    } catch {
      // fall through: an unusable link is rebuilt from the query
    }
  }
  return `${TRENDS_PUBLIC_ORIGIN}/trends/explore?${new URLSearchParams({ q: query }).toString()}`;
}

function item(raw: unknown): TrendsRelatedQuery {
  const r = (typeof raw === 'object' && raw !== null ? raw : {}) as Record<string, unknown>;
  if (typeof r.query !== 'string' || typeof r.value !== 'number' || !Number.isFinite(r.value)) {
    throw new UpstreamError('protocol', 'relatedsearches');
  }
  const formatted = typeof r.formattedValue === 'string' ? r.formattedValue : String(r.value);
  return {
    query: r.query,
    value: Math.round(r.value),
    formatted_value: formatted,
    breakout: formatted === 'Breakout',
    link: absoluteLink(r.link, r.query),
  };
}

/** The public result of a parsed relatedsearches answer. */
export function normalizeRelatedQueries(related: unknown): TrendsResult {
  const { top, rising } = rankedLists(related);
  return { top: top.map(item), rising: rising.map(item) };
}
