import { Agent as HttpAgent } from 'node:http';
import { Agent as HttpsAgent } from 'node:https';
import type { LookupFunction as NodeLookupFunction } from 'node:net';
import type { HandlerFunction, Request } from 'got-scraping';
import type { LookupFunction } from '@trawl/net';

/**
 * The only file that imports got-scraping. It performs ONE HTTP exchange (no redirects, no retries) and streams
 * the body under a byte cap; routes, redirects, SSRF checks and the deadline belong to the light engine.
 *
 * got-scraping quirks handled here:
 * - Its header hook probes ALPN for every https URL with a raw tls.connect that ignores `dnsLookup`, so it would
 *   resolve and contact the host on its own. We hand it a `resolveProtocol` that answers "http/1.1" without any
 *   network (it reads `options.resolveProtocol`, although its typings put that field on `context`).
 * - With `http2: true` it routes https through http2-wrapper, whose process-wide ALPN cache and session pool are
 *   keyed by hostname and ignore `lookup`. We use HTTP/1.1 on our own keep-alive agents instead, so every socket
 *   of the direct route is opened through the pinned lookup the engine passes in.
 */

export type ExchangeRoute = { kind: 'direct'; lookup: LookupFunction } | { kind: 'proxy'; proxyUrl: string };

export interface ExchangeRequest {
  url: URL;
  /** Default GET; POST is sent with an empty body. */
  method?: 'GET' | 'POST';
  headers: Record<string, string>;
  route: ExchangeRoute;
  maxBodyBytes: number;
  /** Aborting destroys the exchange at once. */
  signal: AbortSignal;
  /** TCP connect limit (used on the proxy route so a dead proxy fails fast). */
  connectTimeoutMs?: number;
  /** 'drain' reads and drops up to 64 KiB of body (redirect responses), keeping the socket reusable. */
  bodyMode(statusCode: number): 'keep' | 'drain';
}

export interface ExchangeResponse {
  statusCode: number;
  headers: Record<string, string>;
  body: Buffer;
}

export type ExchangeFailure = 'body_size_limit' | 'aborted' | 'transport';

/** `code` is an errno-style code (ECONNREFUSED, blocked_target...), never a message with a URL in it. */
export class ExchangeError extends Error {
  constructor(
    readonly kind: ExchangeFailure,
    readonly code: string,
    /** Whether response headers had arrived (a failure before them on a proxy route is the proxy's). */
    readonly responseStarted: boolean,
    readonly statusCode?: number,
    /** The request went out on a kept-alive socket from an earlier exchange. */
    readonly reusedSocket = false,
  ) {
    super(`exchange failed: ${kind} (${code})`);
    this.name = 'ExchangeError';
  }
}

export interface HttpClient {
  exchange(req: ExchangeRequest): Promise<ExchangeResponse>;
  /** Loads the HTTP library now rather than with the first exchange. */
  warm(): Promise<void>;
  close(): void;
}

const DRAIN_LIMIT = 64 * 1024;
const http1Only = async () => ({ alpnProtocol: 'http/1.1' });

const noAlpnProbe: HandlerFunction = (options, next) => {
  (options as unknown as { resolveProtocol: typeof http1Only }).resolveProtocol = http1Only;
  return next(options);
};

type GotScrapingModule = typeof import('got-scraping');
let gotScrapingModule: Promise<GotScrapingModule> | undefined;
// got-scraping with its header generator is about a hundred modules (~0.4 s of CPU to load): a process loads
// it with its first light retrieval, not at start-up (a restart should answer reads at once).
const loadGotScraping = () => (gotScrapingModule ??= import('got-scraping'));

export function createGotScrapingClient(opts: { userAgent?: string } = {}): HttpClient {
  const httpAgent = new HttpAgent({ keepAlive: true, scheduling: 'lifo' });
  const httpsAgent = new HttpsAgent({ keepAlive: true, scheduling: 'lifo' });
  let built: Promise<ReturnType<typeof buildClient>> | undefined;
  const clientOf = () => (built ??= loadGotScraping().then((m) => buildClient(m, httpAgent, httpsAgent)));
  const baseHeaders: Record<string, string> = opts.userAgent ? { 'user-agent': opts.userAgent } : {};

  return {
    async exchange(req) {
      try {
        return await once(req);
      } catch (err) {
        // A kept-alive socket the server closed as it was reused: the request never reached it. Sent again on a
        // fresh socket once, as browsers do: a server closing idle sockets at its keep-alive timeout races the next
        // request on them (light-engine-keepalive.e2e.test.ts).
        if (err instanceof ExchangeError && err.kind === 'transport' && err.reusedSocket && !err.responseStarted && !req.signal.aborted) return once(req);
        throw err;
      }
    },
    warm: () => clientOf().then(() => undefined),
    close() {
      httpAgent.destroy();
      httpsAgent.destroy();
    },
  };

  async function once(req: ExchangeRequest): Promise<ExchangeResponse> {
    const { client, agent } = await clientOf();
    const routeOptions =
      req.route.kind === 'direct'
        ? { agent, dnsLookup: req.route.lookup as unknown as NodeLookupFunction }
        : { proxyUrl: req.route.proxyUrl };
    const stream = client.stream(req.url.href, {
      ...routeOptions,
      // got's POST stream waits for a body to be piped in; an empty string sends Content-Length: 0 at once.
      ...(req.method === 'POST' ? { method: 'POST' as const, body: '' } : {}),
      headers: { ...baseHeaders, ...req.headers },
      // got-scraping turns certificate checks off by default; a data API must not accept forged TLS peers.
      https: { rejectUnauthorized: true },
      timeout: req.connectTimeoutMs === undefined ? {} : { connect: req.connectTimeoutMs },
    });
    return readBounded(stream, req);
  }
}

function buildClient({ gotScraping, TransformHeadersAgent, hooks }: GotScrapingModule, httpAgent: HttpAgent, httpsAgent: HttpsAgent) {
  // got-scraping wraps agents to order and case headers like a browser; keep that on our agents too.
  const agent = { http: new TransformHeadersAgent(httpAgent), https: new TransformHeadersAgent(httpsAgent) };
  const client = gotScraping.extend({
    // Only so the validation hook can be taken out below; nothing else changes the defaults after this.
    mutableDefaults: true,
    handlers: [noAlpnProbe],
    // One generated browser identity per engine: got-scraping otherwise runs its header generator (a Bayesian
    // network) on every request, a measurable share of a page's CPU, and a stable identity is more plausible.
    sessionToken: {},
    http2: false,
    followRedirect: false,
    retry: { limit: 0 },
    throwHttpErrors: false,
    decompress: true,
    // The engine owns the deadline; got-scraping's own 60 s request timeout must not cut long deadlines short.
    timeout: { request: undefined },
  });
  // got-scraping's init hook validates every request's options with `ow`, which captures a stack trace each time
  // (3% of a crawl's main-thread CPU in a profile). Our options are built here, from one fixed shape, never from a
  // caller: nothing for it to catch.
  const init = client.defaults.options.hooks.init;
  const validation = init.indexOf(hooks.optionsValidationHandler);
  if (validation >= 0) init.splice(validation, 1);
  return { client, agent };
}

function readBounded(stream: Request, req: ExchangeRequest): Promise<ExchangeResponse> {
  return new Promise((resolve, reject) => {
    let settled = false;
    let statusCode = 0;
    let headers: Record<string, string> = {};
    let mode: 'keep' | 'drain' = 'keep';
    let size = 0;
    let reused = false;
    const chunks: Buffer[] = [];

    const settle = () => {
      settled = true;
      req.signal.removeEventListener('abort', onAbort);
    };
    const fail = (kind: ExchangeFailure, code: string) => {
      if (settled) return;
      settle();
      stream.destroy();
      reject(new ExchangeError(kind, code, statusCode !== 0, statusCode || undefined, reused));
    };
    const finish = () => {
      if (settled) return;
      settle();
      if (!stream.readableEnded) stream.destroy();
      resolve({ statusCode, headers, body: mode === 'keep' ? Buffer.concat(chunks, size) : Buffer.alloc(0) });
    };
    const onAbort = () => fail('aborted', 'ABORTED');

    if (req.signal.aborted) return onAbort();
    req.signal.addEventListener('abort', onAbort, { once: true });
    stream.once('request', (r: { reusedSocket?: boolean }) => (reused = r.reusedSocket === true));
    stream.once('response', (res: { statusCode: number; headers: Record<string, string | string[] | undefined> }) => {
      statusCode = res.statusCode;
      headers = flattenHeaders(res.headers);
      mode = req.bodyMode(statusCode);
      const declared = Number(headers['content-length']);
      if (mode === 'keep' && declared > req.maxBodyBytes) fail('body_size_limit', 'DECLARED_TOO_LARGE');
    });
    stream.on('data', (chunk: Buffer) => {
      if (settled) return;
      size += chunk.length;
      if (mode === 'drain') {
        if (size > DRAIN_LIMIT) finish();
        return;
      }
      if (size > req.maxBodyBytes) return fail('body_size_limit', 'BODY_TOO_LARGE');
      chunks.push(chunk);
    });
    stream.once('end', finish);
    // Stays attached after settling: a late 'error' from a destroyed stream must not become an uncaught one.
    stream.on('error', (err: NodeJS.ErrnoException) => fail('transport', typeof err.code === 'string' ? err.code : 'ERR_TRANSPORT'));
  });
}

function flattenHeaders(raw: Record<string, string | string[] | undefined>): Record<string, string> {
  const out: Record<string, string> = {};
  for (const [name, value] of Object.entries(raw)) {
    if (value === undefined) continue;
    // Set-Cookie values may contain commas (Expires=...), so they are joined by newlines instead.
    out[name] = Array.isArray(value) ? value.join(name === 'set-cookie' ? '\n' : ', ') : value;
  }
  return out;
}
