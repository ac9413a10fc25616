import type { TrendsGrain, TrendsResult } from '@trawl/contract';
import type { LightFetchOutcome, LightFetchRequest } from '@trawl/light-engine';
import { retryAfterMs } from '@trawl/scrape';
import { acquire, type UpstreamRateLimiter } from '../rate-limit/rate-limiter.ts';
import { normalizeRelatedQueries } from './normalize.ts';
import { cookieUrl, exploreUrl, parseJsonBody, pickRelatedQueriesWidget, relatedSearchesUrl, type RelatedQueriesWidget } from './protocol.ts';
import { UpstreamError, type TrendsEndpoint, type UpstreamFailure } from './upstream-error.ts';
import { recordTrendsCall } from '@trawl/metrics';

/** The light engine, or anything with its fetch (SSRF guard, proxy path and host rules come with it). */
export interface TrendsHttp {
  fetch(req: LightFetchRequest): Promise<LightFetchOutcome>;
}

export interface TrendsClientOptions {
  http: TrendsHttp;
  /** TRAWL_TRENDS_BASE_URL, e.g. https://trends.google.com or a local simulator. */
  baseUrl: string;
  limiter: UpstreamRateLimiter;
  /** Deadline of one upstream request. */
  timeoutMs: number;
  now?: () => number;
}

/** How long a NID cookie is reused. Google's lasts months; a shorter reuse spreads the cookie step's cost thinly. */
const COOKIE_REUSE_MS = 30 * 60 * 1000;
const NID = /(?:^|\n)\s*NID=([^;\n]*)/;
/** A redirect to this path is Google's "unusual traffic" block page. */
const SORRY = /^\/sorry(?:\/|$)/;
const JSON_ACCEPT = 'application/json, text/plain, */*';

type Ok = Extract<LightFetchOutcome, { ok: true }>;

/** What a light-engine failure means upstream. Redirects are not followed, so redirect limits cannot occur. */
const TRANSPORT_FAILURES: Record<Extract<LightFetchOutcome, { ok: false }>['failure'], UpstreamFailure> = {
  timeout: 'timeout',
  network_error: 'unreachable',
  blocked_target: 'refused',
  body_size_limit: 'protocol',
  redirect_limit: 'protocol',
  out_of_scope_redirect: 'protocol',
};

/** The upstream failure an HTTP answer means, or null when it is the answer we asked for. */
export function classifyStatus(endpoint: TrendsEndpoint, r: Ok, now: number): UpstreamError | null {
  const s = r.statusCode;
  // The cookie step is answered 404 (with the cookie) by Google itself.
  if ((s >= 200 && s < 300) || (endpoint === 'cookie' && s === 404)) return null;
  if (s >= 300 && s < 400) {
    let path = '';
    try {
      path = new URL(r.headers.location ?? '', r.finalUrl).pathname;
    } catch {
      // an unusable Location is still a redirect we did not ask for
    }
    return new UpstreamError(SORRY.test(path) ? 'blocked' : 'protocol', endpoint, s);
  }
  if (s === 429) return new UpstreamError('rate_limited', endpoint, s, retryAfterMs(r.headers['retry-after'], now));
  if (s >= 500) return new UpstreamError('unavailable', endpoint, s, retryAfterMs(r.headers['retry-after'], now));
  if (s === 401 && endpoint === 'relatedsearches') return new UpstreamError('token_rejected', endpoint, s);
  return new UpstreamError('rejected', endpoint, s);
}

/**
 * Google Trends related queries for one grain, the way the web client asks: the NID cookie step, explore (POST with
 * an empty body; params hl, tz, req), the RELATED_QUERIES widget, then relatedsearches with that widget's request
 * and token. Every request waits for the shared rate limiter first. A 401 on relatedsearches (stale token) restarts
 * from explore once. Redirects are never followed: a 302 to /sorry is a block to report, not a page to fetch.
 */
export class TrendsClient {
  private cookie: { value: string; until: number } | null = null;
  /** The cookie step in flight, shared by the jobs that need a cookie at the same moment. */
  private cookieStep: Promise<string | null> | null = null;
  private readonly now: () => number;

  constructor(private readonly o: TrendsClientOptions) {
    this.now = o.now ?? Date.now;
  }

  async relatedQueries(grain: TrendsGrain, signal?: AbortSignal): Promise<TrendsResult> {
    const cookie = await this.nidCookie(grain.hl, signal);
    for (let restart = 0; ; restart++) {
      const widget = await this.explore(grain, cookie, signal);
      try {
        const r = await this.exchange('relatedsearches', relatedSearchesUrl(this.o.baseUrl, widget, grain.tz), cookie, signal, 'GET');
        return normalizeRelatedQueries(parseJsonBody('relatedsearches', r.body));
      } catch (err) {
        if (restart === 0 && err instanceof UpstreamError && err.failure === 'token_rejected') continue;
        throw err;
      }
    }
  }

  private async explore(grain: TrendsGrain, cookie: string | null, signal?: AbortSignal): Promise<RelatedQueriesWidget> {
    const r = await this.exchange('explore', exploreUrl(this.o.baseUrl, grain), cookie, signal, 'POST');
    return pickRelatedQueriesWidget(parseJsonBody('explore', r.body));
  }

  /** The NID cookie, fetched once and reused; null when Google set none (the next calls go without). */
  private async nidCookie(hl: string, signal?: AbortSignal): Promise<string | null> {
    if (this.cookie && this.cookie.until > this.now()) return this.cookie.value;
    // Shared, so it runs on no caller's signal (one caller giving up must not fail the others); each caller
    // still stops waiting on its own signal.
    this.cookieStep ??= this.exchange('cookie', cookieUrl(this.o.baseUrl, hl), null, undefined, 'GET')
      .then((r) => {
        const m = NID.exec(r.headers['set-cookie'] ?? '');
        this.cookie = m ? { value: `NID=${m[1]}`, until: this.now() + COOKIE_REUSE_MS } : null;
        return this.cookie?.value ?? null;
      })
      .finally(() => {
        this.cookieStep = null;
      });
    return untilAborted(this.cookieStep, signal);
  }

  private async exchange(endpoint: TrendsEndpoint, url: URL, cookie: string | null, signal: AbortSignal | undefined, method: 'GET' | 'POST'): Promise<Ok> {
    await acquire(this.o.limiter, signal);
    try {
      const r = await this.call(endpoint, url, cookie, signal, method);
      recordTrendsCall(endpoint, 'ok');
      return r;
    } catch (err) {
      recordTrendsCall(endpoint, err instanceof UpstreamError ? err.failure : 'error');
      throw err;
    }
  }

  /** One request upstream (the limiter already passed): the answer, or an UpstreamError saying what went wrong. */
  private async call(endpoint: TrendsEndpoint, url: URL, cookie: string | null, signal: AbortSignal | undefined, method: 'GET' | 'POST'): Promise<Ok> {
    const headers: Record<string, string> = endpoint === 'cookie' ? {} : { accept: JSON_ACCEPT };
    if (cookie) headers.cookie = cookie;
    const r = await this.o.http.fetch({
      url: url.href,
      method,
      headers,
      followRedirects: false,
      deadline: this.now() + this.o.timeoutMs,
      signal,
    });
    if (!r.ok) throw new UpstreamError(TRANSPORT_FAILURES[r.failure], endpoint, r.statusCode ?? null);
    const problem = classifyStatus(endpoint, r, this.now());
    if (problem) {
      // A throttled or blocked cookie is not worth keeping: the next attempt starts from a fresh one.
      if (problem.failure === 'rate_limited' || problem.failure === 'blocked') this.cookie = null;
      throw problem;
    }
    return r;
  }
}

/** `p`, or a rejection with the signal's reason as soon as `signal` aborts. */
function untilAborted<T>(p: Promise<T>, signal?: AbortSignal): Promise<T> {
  if (!signal) return p;
  return new Promise<T>((resolve, reject) => {
    if (signal.aborted) return reject(signal.reason);
    const onAbort = () => reject(signal.reason);
    signal.addEventListener('abort', onAbort, { once: true });
    p.then(resolve, reject).finally(() => signal.removeEventListener('abort', onAbort));
  });
}
