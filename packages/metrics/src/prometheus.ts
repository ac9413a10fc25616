import { Counter, Gauge, Histogram, Registry, collectDefaultMetrics } from 'prom-client';
import { BLOCK_REASON_NAMES, WEBHOOK_EVENTS, WEBHOOK_FAILURE_NAMES } from '@trawl/contract';

/**
 * The process's Prometheus metrics: the only module importing prom-client. Every label value comes from a fixed
 * vocabulary checked here (route patterns, engines, outcomes, block reasons, upstream failures); a value outside its
 * vocabulary is recorded as `other`, so no URL, host, team id or key can ever become a label.
 */
const registry = new Registry();
// Node's process metrics under their usual names (process_cpu_seconds_total, nodejs_heap_size_used_bytes, ...).
// The event-loop lag is sampled every 100 ms: at prom-client's default of 10 ms, that timer alone woke every
// process 100 times a second and cost an idle one about 6 ms of CPU per second.
collectDefaultMetrics({ register: registry, eventLoopMonitoringPrecision: 100 });

const ENGINES = new Set(['light', 'browser', 'none']);
const OUTCOMES = new Set(['completed', 'low_quality', 'failed']);
const BLOCK_REASONS = new Set<string>(['none', ...BLOCK_REASON_NAMES]);
const FALLBACK_REASONS = new Set(['script_only', 'empty_content', 'low_quality', 'browser_result_worse']);
const METHODS = new Set(['GET', 'POST', 'PUT', 'PATCH', 'DELETE', 'HEAD', 'OPTIONS']);
const TRENDS_ENDPOINTS = new Set(['cookie', 'explore', 'relatedsearches']);
const TRENDS_OUTCOMES = new Set([
  'ok', 'rate_limited', 'blocked', 'unavailable', 'timeout', 'unreachable', 'refused', 'token_rejected', 'rejected', 'protocol', 'error',
]);
const STORE_SOURCES = new Set(['request', 'connection', 'background']);
const WEBHOOK_EVENT_NAMES = new Set<string>(WEBHOOK_EVENTS);
const WEBHOOK_OUTCOMES = new Set(['delivered', 'retry', 'failed']);
const WEBHOOK_REASONS = new Set<string>(['none', ...WEBHOOK_FAILURE_NAMES]);
/** A /v1 route pattern as fastify names it (`/v1/runs/:run_id`): path segments and `:params`, nothing else. */
const ROUTE_PATTERN = /^\/v1(\/(:?[a-z_-]+|[a-z_-]+:[a-z_-]+))*$/;

const pick = (vocabulary: Set<string>, value: string): string => (vocabulary.has(value) ? value : 'other');

const requests = new Counter({
  name: 'trawl_http_requests_total',
  help: 'Requests to /v1 routes by route pattern, method and status',
  labelNames: ['route', 'method', 'status'] as const,
  registers: [registry],
});
const requestSeconds = new Histogram({
  name: 'trawl_http_request_duration_seconds',
  help: 'Latency of /v1 requests by route pattern, method and status',
  labelNames: ['route', 'method', 'status'] as const,
  buckets: [0.005, 0.01, 0.025, 0.05, 0.1, 0.25, 0.5, 1, 2.5, 5, 10, 30, 60],
  registers: [registry],
});
const pages = new Counter({
  name: 'trawl_pages_fetched_total',
  help: 'Pages fetched (Fetch, Browser scrape and crawl pages) by winning engine, outcome and block reason',
  labelNames: ['engine', 'outcome', 'reason'] as const,
  registers: [registry],
});
const fallbacks = new Counter({
  name: 'trawl_waterfall_fallbacks_total',
  help: 'Engine waterfall fallbacks (light to browser, and browser results that lost to the light page) by reason',
  labelNames: ['reason'] as const,
  registers: [registry],
});
const trendsCalls = new Counter({
  name: 'trawl_trends_upstream_calls_total',
  help: 'Requests to the search-trends upstream by endpoint and outcome',
  labelNames: ['endpoint', 'outcome'] as const,
  registers: [registry],
});
const storeErrors = new Counter({
  name: 'trawl_store_unavailable_errors_total',
  help: 'Redis commands or connections that failed because the store could not be reached, by where they were seen',
  labelNames: ['source'] as const,
  registers: [registry],
});

const webhookAttempts = new Counter({
  name: 'trawl_webhook_attempts_total',
  help: 'Crawl webhook delivery attempts by event, outcome (delivered, retry, failed = given up) and failure reason',
  labelNames: ['event', 'outcome', 'reason'] as const,
  registers: [registry],
});
const webhookSeconds = new Histogram({
  name: 'trawl_webhook_attempt_duration_seconds',
  help: 'Time from sending a crawl webhook delivery to its answer (or failure), by outcome',
  labelNames: ['outcome'] as const,
  buckets: [0.005, 0.01, 0.025, 0.05, 0.1, 0.25, 0.5, 1, 2.5, 5, 10, 30],
  registers: [registry],
});

/** One crawl webhook delivery attempt: its event, what came of it and why it failed (`null` when delivered). */
export function recordWebhookAttempt(event: string, outcome: string, reason: string | null, seconds: number): void {
  const o = pick(WEBHOOK_OUTCOMES, outcome);
  webhookAttempts.inc({ event: pick(WEBHOOK_EVENT_NAMES, event), outcome: o, reason: pick(WEBHOOK_REASONS, reason ?? 'none') });
  webhookSeconds.observe({ outcome: o }, seconds);
}

/** Records one answered /v1 request. `route` is the route pattern (never the raw URL); unmatched paths are `unmatched`. */
export function recordRequest(route: string | undefined, method: string, status: number, seconds: number): void {
  const labels = {
    route: route === undefined ? 'unmatched' : ROUTE_PATTERN.test(route) ? route : 'other',
    method: pick(METHODS, method),
    status: status >= 100 && status <= 599 ? String(Math.trunc(status)) : 'other',
  };
  requests.inc(labels);
  requestSeconds.observe(labels, seconds);
}

/** One page's result: the engine that produced it (`none` when no engine delivered), its outcome and block reason. */
export function recordPage(engine: string, outcome: string, reason: string | null): void {
  pages.inc({ engine: pick(ENGINES, engine), outcome: pick(OUTCOMES, outcome), reason: pick(BLOCK_REASONS, reason ?? 'none') });
}

export function recordFallback(reason: string): void {
  fallbacks.inc({ reason: pick(FALLBACK_REASONS, reason) });
}

export function recordTrendsCall(endpoint: string, outcome: string): void {
  trendsCalls.inc({ endpoint: pick(TRENDS_ENDPOINTS, endpoint), outcome: pick(TRENDS_OUTCOMES, outcome) });
}

/** `request`: a /v1 request answered 503; `connection`: the connection's own error; `background`: worker or runner work. */
export function recordStoreUnavailable(source: 'request' | 'connection' | 'background'): void {
  storeErrors.inc({ source: pick(STORE_SOURCES, source) });
}

/** What a process reports when scraped: summed over every source registered (a test process may run several). */
export interface GaugeSample {
  browserPages?: number;
  browserBusy?: number;
  browserWaiting?: number;
  browserRejections?: number;
  frontierQueued?: number;
  workersAlive?: number;
  /** Embedded mode on disk: the data directory's bytes in use, its file, its limit (0: none). */
  dataDirUsedBytes?: number;
  dataDirFileBytes?: number;
  dataDirLimitBytes?: number;
}
type GaugeSource = () => Promise<GaugeSample> | GaugeSample;
const sources = new Set<GaugeSource>();
const SHARED = new Set<keyof GaugeSample>(['frontierQueued', 'workersAlive']);

/** Adds a source of gauge values read at each scrape; returns the function that removes it. */
export function registerGaugeSource(source: GaugeSource): () => void {
  sources.add(source);
  return () => void sources.delete(source);
}

async function sample(): Promise<Required<GaugeSample>> {
  const sum: Required<GaugeSample> = {
    browserPages: 0,
    browserBusy: 0,
    browserWaiting: 0,
    browserRejections: 0,
    frontierQueued: 0,
    workersAlive: 0,
    dataDirUsedBytes: 0,
    dataDirFileBytes: 0,
    dataDirLimitBytes: 0,
  };
  const all = await Promise.all([...sources].map(async (s) => {
    try {
      return await s();
    } catch {
      // A source that cannot answer (Redis down) leaves its part out of this scrape.
      return {};
    }
  }));
  for (const part of all) {
    for (const k of Object.keys(sum) as (keyof GaugeSample)[]) {
      // The frontier and the workers are the deployment's, seen alike by every runtime: not added up.
      sum[k] = SHARED.has(k) ? Math.max(sum[k], part[k] ?? 0) : sum[k] + (part[k] ?? 0);
    }
  }
  return sum;
}

/** One sample per scrape (metricsText starts a new one), shared by every gauge of that scrape. */
let current: Promise<Required<GaugeSample>> | null = null;
function sampleOnce(): Promise<Required<GaugeSample>> {
  current ??= sample();
  return current;
}

function sampledGauge(name: string, help: string, key: keyof GaugeSample): void {
  new Gauge({
    name,
    help,
    registers: [registry],
    async collect() {
      this.set((await sampleOnce())[key]);
    },
  });
}
sampledGauge('trawl_browser_pool_pages', 'Pages the Chromium pool may render at once', 'browserPages');
sampledGauge('trawl_browser_pool_busy', 'Renders holding a Chromium page now', 'browserBusy');
sampledGauge('trawl_browser_pool_waiting', 'Renders waiting for a free Chromium page', 'browserWaiting');
let rejectionsSeen = 0;
new Counter({
  name: 'trawl_browser_pool_rejections_total',
  help: 'Renders refused for capacity (browser_capacity_full)',
  registers: [registry],
  async collect() {
    const seen = (await sampleOnce()).browserRejections;
    if (seen > rejectionsSeen) this.inc(seen - rejectionsSeen);
    rejectionsSeen = seen;
  },
});
sampledGauge('trawl_frontier_queued_pages', 'Pages queued in the frontier of live crawls (the whole deployment)', 'frontierQueued');
sampledGauge('trawl_workers_alive', 'Crawl worker actors with a live heartbeat (the whole deployment)', 'workersAlive');
sampledGauge('trawl_data_dir_used_bytes', 'Bytes of the data directory holding live data (embedded mode on disk)', 'dataDirUsedBytes');
sampledGauge('trawl_data_dir_file_bytes', 'Bytes of the data file on disk (its high-water mark)', 'dataDirFileBytes');
sampledGauge('trawl_data_dir_limit_bytes', 'TRAWL_DATA_MAX_BYTES (0: no limit)', 'dataDirLimitBytes');

export const METRICS_CONTENT_TYPE = registry.contentType;

/** The Prometheus text exposition of every metric of this process. */
export function metricsText(): Promise<string> {
  current = null;
  return registry.metrics();
}
