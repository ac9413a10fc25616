import { randomBytes } from 'node:crypto';
import { createServer, type IncomingMessage, type ServerResponse } from 'node:http';
import { isDeepStrictEqual } from 'node:util';
import { FaultQueues, faultProblem, type SimEndpoint, type SimFault, type Times } from './faults.ts';
import { loadRecordings, type Recordings } from './fixtures.ts';

export { ENDPOINTS, type SimEndpoint, type SimFault, type Times } from './faults.ts';

/**
 * A local stand-in for the Google Trends upstream, serving the recorded answers byte for byte:
 *   GET  /trends/explore/?geo=..                       404 with Set-Cookie: NID=... (the cookie step)
 *   POST|GET /trends/api/explore?hl=&tz=&req=          the recorded explore answer for 1 or 2 keywords
 *   GET  /trends/api/widgetdata/relatedsearches?req=&token=&tz=   the recorded answer of that widget token
 * Like Google it wants the NID cookie it issued (429 without), a known widget token sent with that widget's own
 * request (401 otherwise), and sane explore parameters (400 otherwise: at most 5 keywords of at most 100
 * characters, hourly ranges of at most 7 days). Faults for the next N calls of an endpoint are scripted through
 * `inject` or `POST /__simulator/faults`; every call is recorded with its time (`calls`, `GET /__simulator/calls`).
 */
export interface SimCall {
  endpoint: SimEndpoint;
  /** Arrival, epoch ms. */
  at: number;
  /** Status answered (0 while a slow answer is pending or when the client went away first). */
  status: number;
  /** The NID cookie the call carried, or null: tells apart clients (processes) that did their own cookie step. */
  nid: string | null;
}

export interface TrendsSimulatorOptions {
  port?: number;
  host?: string;
  /** Directory of the recordings; default apps/trends-simulator/recordings. */
  fixturesDir?: URL | string;
}

export interface TrendsSimulator {
  /** Base URL to use as TRAWL_TRENDS_BASE_URL. */
  url: string;
  port: number;
  inject(endpoint: SimEndpoint, fault: SimFault, times?: Times): void;
  calls(endpoint?: SimEndpoint): SimCall[];
  /** Drops scripted faults and the call record. */
  reset(): void;
  close(): Promise<void>;
}

const JSON_TYPE = 'application/json; charset=utf-8';
const HTML_TYPE = 'text/html; charset=UTF-8';
/** Headers Google sends with its prefixed JSON: a download, never a page or a script. */
const JSON_HEADERS = { 'x-content-type-options': 'nosniff', 'content-disposition': 'attachment; filename="json.txt"' };
const EMPTY: Record<'lists' | 'none', string> = {
  lists: `)]}',\n{"default":{"rankedList":[{"rankedKeyword":[]},{"rankedKeyword":[]}]}}`,
  none: `)]}',\n{"default":{"rankedList":[]}}`,
};
const HOURLY = /^(\d{4}-\d{2}-\d{2})T(\d{2}) (\d{4}-\d{2}-\d{2})T(\d{2})$/;
const WEEK_MS = 7 * 24 * 3600 * 1000;

function endpointOf(method: string, path: string): SimEndpoint | null {
  if (method === 'GET' && (path === '/trends/explore' || path === '/trends/explore/')) return 'cookie';
  if ((method === 'POST' || method === 'GET') && path === '/trends/api/explore') return 'explore';
  if (method === 'GET' && path === '/trends/api/widgetdata/relatedsearches') return 'relatedsearches';
  return null;
}

function send(res: ServerResponse, status: number, type: string, body: Buffer | string, headers: Record<string, string> = {}): number {
  res.writeHead(status, { 'content-type': type, 'content-length': Buffer.byteLength(body), ...headers });
  res.end(body);
  return status;
}

function errorPage(res: ServerResponse, status: number, headers: Record<string, string> = {}): number {
  const text = `<!DOCTYPE html><html lang=en><title>Error ${status}</title><p><b>${status}.</b> That’s an error.</p></html>`;
  return send(res, status, HTML_TYPE, text, headers);
}

function parseJson(value: string | null): unknown {
  if (value === null) return undefined;
  try {
    return JSON.parse(value) as unknown;
  } catch {
    return undefined;
  }
}

/** Explore's request problems Google answers 400 to. */
function exploreIsBad(url: URL): boolean {
  const { hl, tz } = Object.fromEntries(url.searchParams);
  const req = parseJson(url.searchParams.get('req')) as { comparisonItem?: unknown } | undefined;
  if (!hl || !tz || !/^-?\d+$/.test(tz) || !req || !Array.isArray(req.comparisonItem)) return true;
  const items = req.comparisonItem as { keyword?: unknown; time?: unknown }[];
  if (items.length < 1 || items.length > 5) return true;
  return items.some((item) => {
    if (typeof item?.keyword !== 'string' || [...item.keyword].length > 100 || typeof item.time !== 'string') return true;
    const h = HOURLY.exec(item.time);
    return h !== null && Date.parse(`${h[3]}T${h[4]}:00Z`) - Date.parse(`${h[1]}T${h[2]}:00Z`) > WEEK_MS;
  });
}

export async function startTrendsSimulator(opts: TrendsSimulatorOptions = {}): Promise<TrendsSimulator> {
  const recordings: Recordings = loadRecordings(opts.fixturesDir);
  const faults = new FaultQueues();
  const calls: SimCall[] = [];
  const issuedCookies = new Set<string>();

  const nidOf = (req: IncomingMessage) => /(?:^|;\s*)NID=([^;]*)/.exec(req.headers.cookie ?? '')?.[1] ?? null;
  const hasCookie = (req: IncomingMessage) => issuedCookies.has(nidOf(req) ?? '');

  function answer(endpoint: SimEndpoint, fault: SimFault | null, req: IncomingMessage, url: URL, res: ServerResponse): number {
    if (fault?.kind === 'status') return errorPage(res, fault.status, fault.retryAfter ? { 'retry-after': fault.retryAfter } : {});
    if (fault?.kind === 'sorry') {
      const location = `https://www.google.com/sorry/index?continue=${encodeURIComponent(`https://trends.google.com${url.pathname}`)}&q=${randomBytes(12).toString('base64url')}`;
      return send(res, 302, HTML_TYPE, '<HTML><HEAD><TITLE>302 Moved</TITLE></HEAD><BODY>The document has moved.</BODY></HTML>', { location });
    }
    if (endpoint === 'cookie') {
      const nid = `511=${randomBytes(48).toString('base64url')}`;
      issuedCookies.add(nid);
      const expires = new Date(Date.now() + 183 * 86400_000).toUTCString();
      return send(res, 404, HTML_TYPE, '<!DOCTYPE html><html lang=en><title>Error 404 (Not Found)</title></html>', {
        'set-cookie': `NID=${nid}; expires=${expires}; path=/; domain=.google.com; HttpOnly`,
      });
    }
    // Google answers a client without its NID cookie with 429 sooner; the simulator does so at once.
    if (!hasCookie(req)) return errorPage(res, 429);
    if (endpoint === 'explore') {
      if (exploreIsBad(url)) return errorPage(res, 400);
      const items = (parseJson(url.searchParams.get('req')) as { comparisonItem: unknown[] }).comparisonItem.length;
      const body = recordings.explore.get(items);
      return body ? send(res, 200, JSON_TYPE, body, JSON_HEADERS) : errorPage(res, 400);
    }
    const recording = recordings.related.get(url.searchParams.get('token') ?? '');
    // A token is bound to its widget's request: an unknown token, or another request with it, is refused.
    if (!recording || !isDeepStrictEqual(parseJson(url.searchParams.get('req')), recording.request)) return errorPage(res, 401);
    if (!/^-?\d+$/.test(url.searchParams.get('tz') ?? '')) return errorPage(res, 400);
    const body = fault?.kind === 'empty' ? EMPTY[fault.shape] : recording.body;
    return send(res, 200, JSON_TYPE, body, JSON_HEADERS);
  }

  function admin(req: IncomingMessage, res: ServerResponse, path: string): void {
    if (req.method === 'GET' && path === '/__simulator/calls') {
      send(res, 200, JSON_TYPE, JSON.stringify({ calls }));
      return;
    }
    if (req.method === 'POST' && path === '/__simulator/reset') {
      sim.reset();
      res.writeHead(204).end();
      return;
    }
    if (req.method === 'POST' && path === '/__simulator/faults') {
      let body = '';
      req.on('data', (c: Buffer) => (body += c.toString('utf8')));
      req.on('end', () => {
        const b = (parseJson(body) ?? {}) as { endpoint?: unknown; fault?: unknown; times?: unknown };
        const times = b.times ?? 1;
        const problem = faultProblem(b.endpoint, b.fault, times);
        if (problem) return void send(res, 400, JSON_TYPE, JSON.stringify({ error: problem }));
        sim.inject(b.endpoint as SimEndpoint, b.fault as SimFault, times as Times);
        res.writeHead(204).end();
      });
      return;
    }
    errorPage(res, 404);
  }

  const server = createServer((req, res) => {
    const url = new URL(req.url ?? '/', 'http://simulator.invalid');
    if (url.pathname.startsWith('/__simulator/')) return admin(req, res, url.pathname);
    req.resume();
    const endpoint = endpointOf(req.method ?? 'GET', url.pathname);
    if (!endpoint) return void errorPage(res, 404);
    const call: SimCall = { endpoint, at: Date.now(), status: 0, nid: nidOf(req) };
    calls.push(call);
    const fault = faults.next(endpoint);
    const reply = () => {
      if (!res.destroyed) call.status = answer(endpoint, fault, req, url, res);
    };
    if (fault?.kind !== 'slow') return reply();
    const timer = setTimeout(reply, fault.delayMs);
    res.once('close', () => clearTimeout(timer));
  });
  await new Promise<void>((resolve, reject) => {
    server.once('error', reject);
    server.listen(opts.port ?? 0, opts.host ?? '127.0.0.1', () => resolve());
  });
  const address = server.address();
  if (address === null || typeof address === 'string') throw new Error('trends simulator has no TCP address');
  const host = opts.host ?? '127.0.0.1';
  const sim: TrendsSimulator = {
    url: `http://${host.includes(':') ? `[${host}]` : host}:${address.port}`,
    port: address.port,
    inject(endpoint, fault, times = 1) {
      const problem = faultProblem(endpoint, fault, times);
      if (problem) throw new Error(`trends simulator: ${problem}`);
      faults.add(endpoint, fault, times);
    },
    calls: (endpoint) => calls.filter((c) => endpoint === undefined || c.endpoint === endpoint).map((c) => ({ ...c })),
    reset() {
      faults.clear();
      calls.length = 0;
    },
    close: () =>
      new Promise<void>((resolve) => {
        server.closeAllConnections();
        server.close(() => resolve());
      }),
  };
  return sim;
}
