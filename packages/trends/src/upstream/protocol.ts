import type { TrendsGrain } from '@trawl/contract';
import { UpstreamError, type TrendsEndpoint } from './upstream-error.ts';

/**
 * The Google Trends wire protocol of related queries (shared/fixtures/google-trends/README.md): the URLs of the
 * three steps, the anti-XSSI prefix, the RELATED_QUERIES widget of an explore answer and the ranked lists of a
 * relatedsearches answer. Pure functions; the HTTP exchanges live in trends-client.ts.
 */

export const PATHS = {
  cookie: '/trends/explore/',
  explore: '/trends/api/explore',
  relatedsearches: '/trends/api/widgetdata/relatedsearches',
} as const;

export interface RelatedQueriesWidget {
  /** The widget's `request` object, sent back verbatim as relatedsearches' `req`. */
  request: unknown;
  token: string;
}

function endpointUrl(base: string, path: string, params: Record<string, string>): URL {
  const url = new URL(path, base);
  url.search = new URLSearchParams(params).toString();
  return url;
}

/** The NID cookie step: Google keys the cookie to a country, taken from the last two letters of hl. */
export function cookieUrl(base: string, hl: string): URL {
  return endpointUrl(base, PATHS.cookie, { geo: hl.slice(-2) });
}

export function exploreUrl(base: string, grain: TrendsGrain): URL {
  const req = {
    comparisonItem: [{ keyword: grain.keyword, time: grain.timeframe, geo: grain.geo }],
    category: grain.category,
    property: grain.property,
  };
  return endpointUrl(base, PATHS.explore, { hl: grain.hl, tz: String(grain.tz), req: JSON.stringify(req) });
}

export function relatedSearchesUrl(base: string, widget: RelatedQueriesWidget, tz: number): URL {
  return endpointUrl(base, PATHS.relatedsearches, { req: JSON.stringify(widget.request), token: widget.token, tz: String(tz) });
}

const PREFIX = ")]}'";

/**
 * JSON of an answer body. Google prefixes its JSON with `)]}'` (explore) or `)]}',` (relatedsearches) and a newline
 * so that it cannot be loaded as a script; everything up to the first newline goes.
 */
export function parseJsonBody(endpoint: TrendsEndpoint, body: Buffer): unknown {
  let text = body.toString('utf8');
  if (text.startsWith(PREFIX)) {
    const nl = text.indexOf('\n');
    text = nl === -1 ? '' : text.slice(nl + 1);
  }
  try {
    return JSON.parse(text) as unknown;
  } catch {
    throw new UpstreamError('protocol', endpoint);
  }
}

const isObject = (v: unknown): v is Record<string, unknown> => typeof v === 'object' && v !== null && !Array.isArray(v);

/**
 * The `index`-th widget whose id contains RELATED_QUERIES (one keyword: `RELATED_QUERIES`; several:
 * `RELATED_QUERIES_0`, `_1`...). Matched on id, never on title: titles are localised.
 */
export function pickRelatedQueriesWidget(explore: unknown, index = 0): RelatedQueriesWidget {
  const widgets = isObject(explore) && Array.isArray(explore.widgets) ? explore.widgets : null;
  if (!widgets) throw new UpstreamError('protocol', 'explore');
  const related = widgets.filter((w): w is Record<string, unknown> => isObject(w) && typeof w.id === 'string' && w.id.includes('RELATED_QUERIES'));
  const w = related[index];
  if (!w || typeof w.token !== 'string' || w.token === '' || !isObject(w.request)) throw new UpstreamError('protocol', 'explore');
  return { request: w.request, token: w.token };
}

/**
 * Top and Rising ranked keywords of a relatedsearches answer. Both empty shapes Google uses mean "no related
 * queries": two empty lists, and (since 2024) no lists at all.
 */
export function rankedLists(related: unknown): { top: unknown[]; rising: unknown[] } {
  const lists = isObject(related) && isObject(related.default) ? related.default.rankedList : undefined;
  if (!Array.isArray(lists)) throw new UpstreamError('protocol', 'relatedsearches');
  const keywords = (i: number): unknown[] => {
    const list = lists[i];
    if (list === undefined) return [];
    if (!isObject(list) || !Array.isArray(list.rankedKeyword)) throw new UpstreamError('protocol', 'relatedsearches');
    return list.rankedKeyword;
  };
  return { top: keywords(0), rising: keywords(1) };
}
