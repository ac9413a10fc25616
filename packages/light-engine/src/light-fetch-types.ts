import type { SsrfGuard } from '@trawl/net';

export interface LightEngineOptions {
  guard: SsrfGuard;
  /** http:// or https:// proxy tried first; unset = direct only. */
  proxyUrl?: string;
  /** Replaces the generated browser User-Agent (a request's own `user-agent` header still wins). */
  userAgent?: string;
}

export interface LightFetchRequest {
  url: string;
  /** Epoch ms; the whole fetch (all attempts, all redirects) ends by then. */
  deadline: number;
  /** Default 10 MiB, enforced while streaming; a larger declared Content-Length is refused at once. */
  maxBodyBytes?: number;
  /** Default 10: the 11th redirect fails with redirect_limit. */
  maxRedirects?: number;
  /** Crawl scope hook; false fails the fetch with out_of_scope_redirect. */
  allowRedirect?: (from: URL, to: URL) => boolean;
  /** Aborting ends the fetch with failure `timeout` (the caller ran out of time for it). */
  signal?: AbortSignal;
  headers?: Record<string, string>;
  /** Default GET. POST sends an empty body (an API that takes its parameters in the query, e.g. Google Trends explore). */
  method?: 'GET' | 'POST';
  /** Default true. False answers a 3xx as the response itself (its Location header tells where it pointed). */
  followRedirects?: boolean;
}

export interface LightAttempt {
  route: 'proxy' | 'direct';
  outcome: 'ok' | 'proxy_error' | 'network_error' | 'timeout' | 'blocked' | 'limit';
  elapsed_ms: number;
}

export interface FallbackEvent {
  kind: 'route';
  from: 'proxy';
  to: 'direct';
  reason: string;
  /** ISO timestamp */
  at: string;
}

interface Common {
  attempts: LightAttempt[];
  fallbackReasons: string[];
  fallbackEvents: FallbackEvent[];
  /** Redirects followed by the attempt that produced this outcome. */
  redirects: number;
}

export type LightFailure =
  | 'blocked_target'
  | 'body_size_limit'
  | 'redirect_limit'
  | 'out_of_scope_redirect'
  | 'network_error'
  | 'timeout';

export type LightFetchOutcome =
  | (Common & {
      ok: true;
      url: string;
      finalUrl: string;
      statusCode: number;
      contentType: string | null;
      headers: Record<string, string>;
      body: Buffer;
    })
  | (Common & { ok: false; failure: LightFailure; retryable: boolean; statusCode?: number });

export interface LightEngine {
  fetch(req: LightFetchRequest): Promise<LightFetchOutcome>;
  /**
   * Loads the HTTP library now (it loads with the first fetch otherwise, inside that fetch's deadline): for a
   * process about to take work, such as a worker process before it says it is running.
   */
  warm(): Promise<void>;
  /** Ends in-flight fetches (they fail with network_error) and closes pooled connections. */
  close(): Promise<void>;
}
