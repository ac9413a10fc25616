import { runAttempt, type AttemptResult } from './light-attempt.ts';
import { createGotScrapingClient } from './got-scraping-client.ts';
import type {
  LightAttempt,
  LightEngine,
  LightEngineOptions,
  LightFailure,
  LightFetchOutcome,
  LightFetchRequest,
} from './light-fetch-types.ts';

const DEFAULT_MAX_BODY_BYTES = 10 * 1024 * 1024;
const DEFAULT_MAX_REDIRECTS = 10;
/** A proxy that cannot even accept TCP within this is dead; don't spend the deadline on it. */
const PROXY_CONNECT_TIMEOUT_MS = 5_000;
/** Time kept back from the proxy attempt so a hanging proxy still leaves the direct retry a chance. */
const DIRECT_RESERVE_MAX_MS = 10_000;
const MAX_TIMER_MS = 2 ** 31 - 1;

type EndReason = 'deadline' | 'caller' | 'closed' | 'proxy_budget';

export function createLightEngine(opts: LightEngineOptions): LightEngine {
  if (opts.proxyUrl !== undefined && !/^https?:\/\//i.test(opts.proxyUrl)) {
    // got-scraping speaks only to http(s) proxies; a socks URL would silently fail over to direct on every fetch.
    throw new Error('light engine: the proxy URL must start with http:// or https://');
  }
  const client = createGotScrapingClient({ userAgent: opts.userAgent });
  const routes: ('proxy' | 'direct')[] = opts.proxyUrl ? ['proxy', 'direct'] : ['direct'];
  const inflight = new Set<AbortController>();
  let closed = false;

  async function fetch(req: LightFetchRequest): Promise<LightFetchOutcome> {
    if (closed) throw new Error('light engine is closed');
    let start: URL;
    try {
      start = new URL(req.url);
    } catch {
      throw new TypeError('LightFetchRequest.url is not an absolute URL');
    }
    const common = { attempts: [] as LightAttempt[], fallbackReasons: [] as string[], fallbackEvents: [] as LightFetchOutcome['fallbackEvents'], redirects: 0 };
    const failed = (failure: LightFailure, retryable: boolean, statusCode?: number): LightFetchOutcome =>
      statusCode === undefined ? { ...common, ok: false, failure, retryable } : { ...common, ok: false, failure, retryable, statusCode };
    if (start.protocol !== 'http:' && start.protocol !== 'https:') return failed('blocked_target', false);

    const ctl = new AbortController();
    inflight.add(ctl);
    const timer = setTimeout(() => ctl.abort('deadline' satisfies EndReason), clampTimer(req.deadline - Date.now()));
    const onCallerAbort = () => ctl.abort('caller' satisfies EndReason);
    if (req.signal?.aborted) onCallerAbort();
    else req.signal?.addEventListener('abort', onCallerAbort, { once: true });
    try {
      for (const route of routes) {
        const began = Date.now();
        const budget = route === 'proxy' ? childSignal(ctl.signal, proxyBudgetMs(req.deadline)) : null;
        let r: AttemptResult;
        try {
          r = await runAttempt(
            {
              guard: opts.guard,
              client,
              route,
              proxyUrl: opts.proxyUrl,
              headers: req.headers ?? {},
              maxBodyBytes: req.maxBodyBytes ?? DEFAULT_MAX_BODY_BYTES,
              maxRedirects: req.maxRedirects ?? DEFAULT_MAX_REDIRECTS,
              allowRedirect: req.allowRedirect,
              method: req.method,
              followRedirects: req.followRedirects,
              signal: budget?.signal ?? ctl.signal,
              connectTimeoutMs: route === 'proxy' ? PROXY_CONNECT_TIMEOUT_MS : undefined,
            },
            start,
          );
        } finally {
          budget?.dispose();
        }
        const ended = ctl.signal.aborted ? (ctl.signal.reason as EndReason) : null;
        common.attempts.push({ route, outcome: attemptOutcome(route, r, ended), elapsed_ms: Date.now() - began });
        common.redirects = r.redirects;
        if (r.kind === 'ok') {
          const { statusCode, headers, body } = r.response;
          return {
            ...common,
            ok: true,
            url: start.href,
            finalUrl: r.finalUrl.href,
            statusCode,
            contentType: headers['content-type'] ?? null,
            headers,
            body,
          };
        }
        if (r.kind === 'refused') return failed(r.failure, false, r.statusCode);
        if (ended !== null) return ended === 'closed' ? failed('network_error', true) : failed('timeout', true);
        if (route === 'proxy') {
          // A proxy that failed, hung past its share of the time, or broke the transfer: one direct retry.
          const reason = r.kind === 'aborted' || r.viaProxy ? 'proxy_error' : 'network_error';
          common.fallbackReasons.push(reason);
          common.fallbackEvents.push({ kind: 'route', from: 'proxy', to: 'direct', reason, at: new Date().toISOString() });
          continue;
        }
        return failed('network_error', true);
      }
      return failed('network_error', true); // unreachable: the direct route always returns
    } finally {
      clearTimeout(timer);
      req.signal?.removeEventListener('abort', onCallerAbort);
      inflight.delete(ctl);
    }
  }

  return {
    fetch,
    warm: () => client.warm(),
    async close() {
      closed = true;
      for (const ctl of inflight) ctl.abort('closed' satisfies EndReason);
      client.close();
    },
  };
}

function attemptOutcome(route: 'proxy' | 'direct', r: AttemptResult, ended: EndReason | null): LightAttempt['outcome'] {
  switch (r.kind) {
    case 'ok':
      return 'ok';
    case 'refused':
      return r.failure === 'blocked_target' || r.failure === 'out_of_scope_redirect' ? 'blocked' : 'limit';
    case 'aborted':
      return ended === 'closed' ? 'network_error' : 'timeout';
    case 'transport':
      if (ended === 'deadline' || ended === 'caller') return 'timeout';
      return route === 'proxy' && r.viaProxy ? 'proxy_error' : 'network_error';
  }
}

/** The proxy attempt may use the time left minus a reserve (at most 10 s, at most a third) for the direct retry. */
function proxyBudgetMs(deadline: number): number {
  const remaining = Math.max(0, deadline - Date.now());
  return remaining - Math.min(DIRECT_RESERVE_MAX_MS, remaining / 3);
}

function clampTimer(ms: number): number {
  return Math.min(Math.max(0, ms), MAX_TIMER_MS);
}

/** A signal that follows `parent` and also aborts on its own after `ms` (reason 'proxy_budget'). */
function childSignal(parent: AbortSignal, ms: number): { signal: AbortSignal; dispose(): void } {
  const ctl = new AbortController();
  const follow = () => ctl.abort(parent.reason);
  if (parent.aborted) follow();
  else parent.addEventListener('abort', follow, { once: true });
  const timer = setTimeout(() => ctl.abort('proxy_budget' satisfies EndReason), clampTimer(ms));
  return {
    signal: ctl.signal,
    dispose() {
      clearTimeout(timer);
      parent.removeEventListener('abort', follow);
    },
  };
}
