import { BlockedTargetError, HostResolutionError, type SsrfGuard } from '@trawl/net';
import { ExchangeError, type ExchangeResponse, type ExchangeRoute, type HttpClient } from './got-scraping-client.ts';

/** One attempt = one route (proxy or direct) walking the redirect chain from the requested URL. */
export interface AttemptContext {
  guard: SsrfGuard;
  client: HttpClient;
  route: 'proxy' | 'direct';
  proxyUrl?: string;
  headers: Record<string, string>;
  maxBodyBytes: number;
  maxRedirects: number;
  allowRedirect?: (from: URL, to: URL) => boolean;
  method?: 'GET' | 'POST';
  /** False: a 3xx is the answer, not a hop to follow. */
  followRedirects?: boolean;
  signal: AbortSignal;
  connectTimeoutMs?: number;
}

export type AttemptResult = { redirects: number } & (
  | { kind: 'ok'; finalUrl: URL; response: ExchangeResponse }
  | { kind: 'refused'; failure: 'blocked_target' | 'body_size_limit' | 'redirect_limit' | 'out_of_scope_redirect'; statusCode?: number }
  /** `viaProxy`: the failure happened while talking to the proxy, before the target answered. */
  | { kind: 'transport'; viaProxy: boolean }
  | { kind: 'aborted' }
);

const REDIRECT_STATUSES = new Set([301, 302, 303, 307, 308]);
/** Answers that on a proxy route mean the proxy failed us: auth required, bad gateway, unavailable. */
const PROXY_FAILURE_STATUSES = new Set([407, 502, 503]);
/** Credentials the caller meant for the first origin only. */
const ORIGIN_BOUND_HEADERS = ['authorization', 'cookie', 'proxy-authorization'];

const isRedirect = (status: number) => REDIRECT_STATUSES.has(status);
const bodyMode = (status: number) => (isRedirect(status) ? 'drain' : 'keep');

export async function runAttempt(ctx: AttemptContext, start: URL): Promise<AttemptResult> {
  let current = start;
  let headers = ctx.headers;
  let method = ctx.method;
  let redirects = 0;
  for (;;) {
    // Every hop is judged before anything is sent. On the direct route the socket is then opened through a
    // lookup pinned to the judged address. On the proxy route the proxy resolves the name again itself: we
    // cannot stop it from seeing a different answer (or a private address on its own network); the check here
    // only ensures we never ask a proxy for a target the guard refuses locally.
    let route: ExchangeRoute;
    try {
      const target = await ctx.guard.resolve(current.hostname, effectivePort(current));
      route =
        ctx.route === 'direct'
          ? { kind: 'direct', lookup: ctx.guard.pinnedLookupFn(current.hostname, target) }
          : { kind: 'proxy', proxyUrl: ctx.proxyUrl as string };
    } catch (err) {
      if (err instanceof BlockedTargetError) return { kind: 'refused', failure: 'blocked_target', redirects };
      if (err instanceof HostResolutionError) return { kind: 'transport', viaProxy: false, redirects };
      throw err;
    }
    if (ctx.signal.aborted) return { kind: 'aborted', redirects };

    let response: ExchangeResponse;
    try {
      response = await ctx.client.exchange({
        url: current,
        method,
        headers,
        route,
        maxBodyBytes: ctx.maxBodyBytes,
        signal: ctx.signal,
        connectTimeoutMs: ctx.connectTimeoutMs,
        bodyMode,
      });
    } catch (err) {
      if (!(err instanceof ExchangeError)) throw err;
      if (err.kind === 'aborted') return { kind: 'aborted', redirects };
      if (err.kind === 'body_size_limit') return { kind: 'refused', failure: 'body_size_limit', statusCode: err.statusCode, redirects };
      if (err.code === 'blocked_target') return { kind: 'refused', failure: 'blocked_target', redirects };
      return { kind: 'transport', viaProxy: ctx.route === 'proxy' && !err.responseStarted, redirects };
    }

    // For a forwarded http:// request a 502/503 may come from the origin rather than the proxy; we cannot tell,
    // so we treat it as the proxy's and let the direct retry report the origin's real answer.
    if (ctx.route === 'proxy' && PROXY_FAILURE_STATUSES.has(response.statusCode)) {
      return { kind: 'transport', viaProxy: true, redirects };
    }

    const location = isRedirect(response.statusCode) && ctx.followRedirects !== false ? response.headers.location : undefined;
    if (location === undefined) return { kind: 'ok', finalUrl: current, response, redirects };
    let next: URL;
    try {
      next = new URL(location, current);
    } catch {
      return { kind: 'ok', finalUrl: current, response, redirects }; // unusable Location: the 3xx is the answer
    }
    const statusCode = response.statusCode;
    if (next.protocol !== 'http:' && next.protocol !== 'https:') return { kind: 'refused', failure: 'blocked_target', statusCode, redirects };
    if (redirects >= ctx.maxRedirects) return { kind: 'refused', failure: 'redirect_limit', statusCode, redirects };
    if (ctx.allowRedirect && !ctx.allowRedirect(current, next)) {
      return { kind: 'refused', failure: 'out_of_scope_redirect', statusCode, redirects };
    }
    if (next.origin !== current.origin) headers = withoutOriginBound(headers);
    // Browsers follow a 301/302/303 with GET; only 307/308 repeat the method.
    if (statusCode !== 307 && statusCode !== 308) method = 'GET';
    redirects++;
    current = next;
  }
}

function effectivePort(url: URL): number {
  if (url.port !== '') return Number(url.port);
  return url.protocol === 'https:' ? 443 : 80;
}

function withoutOriginBound(headers: Record<string, string>): Record<string, string> {
  const out: Record<string, string> = {};
  for (const [name, value] of Object.entries(headers)) {
    if (!ORIGIN_BOUND_HEADERS.includes(name.toLowerCase())) out[name] = value;
  }
  return out;
}
