import type { RequestNote } from './driver.ts';

/**
 * The requests of one render that settling waits for, seen from the browser's network events. Only kinds that
 * can bring content count (documents, scripts, stylesheets, fetch/XHR); images, fonts, media, beacons, event
 * streams and WebSockets never hold a render. A request to an endpoint (RequestNote.endpoint) that has already
 * completed once in this render is a repeat: polling, which the long settle rule does not wait for.
 */
const CONTENT_KINDS = new Set(['document', 'script', 'stylesheet', 'xhr', 'fetch']);


interface InFlight {
  endpoint: string;
  startedAt: number;
}

export interface NetworkState {
  /** A content request is in flight. */
  busy: boolean;
  /** A content request to a new endpoint has been in flight for less than `youngMs`. */
  busyNew: boolean;
  /** ms since a content request last ended (its data is handed to the page's scripts then); Infinity if none. */
  sinceEnd: number;
  /**
   * ms since a content request to a new endpoint last ended (Infinity if none): its data is new to the page, which
   * may still be parsing and applying it however long the text has held still.
   */
  sinceEndNew: number;
}

export class NetworkActivity {
  private readonly inflight = new Map<object, InFlight>();
  private readonly completed = new Set<string>();
  private lastEnd = -Infinity;
  private lastEndNew = -Infinity;
  /** Every request the page made (diagnostics.browser_debug.network_event_count). */
  requests = 0;

  constructor(private readonly clock: () => number = Date.now) {}

  started(note: RequestNote): void {
    this.requests++;
    if (CONTENT_KINDS.has(note.kind)) this.inflight.set(note.token, { endpoint: note.endpoint, startedAt: this.clock() });
  }

  ended(token: object): void {
    const r = this.inflight.get(token);
    if (!r) return;
    this.inflight.delete(token);
    this.lastEnd = this.clock();
    if (!this.completed.has(r.endpoint)) this.lastEndNew = this.lastEnd;
    this.completed.add(r.endpoint);
  }

  state(youngMs: number): NetworkState {
    const now = this.clock();
    let busyNew = false;
    for (const r of this.inflight.values()) {
      if (now - r.startedAt < youngMs && !this.completed.has(r.endpoint)) busyNew = true;
    }
    return { busy: this.inflight.size > 0, busyNew, sinceEnd: now - this.lastEnd, sinceEndNew: now - this.lastEndNew };
  }
}

/**
 * Method, origin, path and query with cache-busting values (timestamps, random ids) masked: a poll repeats its
 * endpoint, another page of results (?from=3) does not. page-scripts/activity.js keys the page's own requests alike.
 */
export function endpointKey(method: string, url: string): string {
  try {
    const u = new URL(url);
    const q = Array.from(u.searchParams, ([k, v]) => `${k}=${VOLATILE.test(v) ? '*' : v}`).join('&');
    return `${method.toUpperCase()} ${u.origin}${u.pathname}?${q}`;
  } catch {
    return `${method} ${url}`;
  }
}
const VOLATILE = /^(\d{8,}|[0-9a-f-]{16,})$/i;
