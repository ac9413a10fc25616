import { z } from 'zod';

const csv = z
  .string()
  .transform((s) =>
    s
      .split(',')
      .map((p) => p.trim())
      .filter((p) => p !== ''),
  );

const intFrom = (min: number, max: number, def: number) => z.coerce.number().int().min(min).max(max).default(def);

/** Byte units of TRAWL_DATA_MAX_BYTES, case-insensitive: decimal (GB = 10⁹) and binary (GiB = 2³⁰), as disks and df print them. */
const BYTE_UNITS: Record<string, number> = { '': 1, b: 1, kb: 1e3, mb: 1e6, gb: 1e9, tb: 1e12, kib: 2 ** 10, mib: 2 ** 20, gib: 2 ** 30, tib: 2 ** 40 };
const BYTE_COUNT = 'must be a byte count such as 50000000000, 50GB or 40GiB';

/** A byte count, digits with an optional unit (`50GB`, `1.5TiB`), of at least `min` bytes. */
const byteCount = (min: number, minText: string) =>
  z.string().transform((s, ctx) => {
    const m = /^\s*(\d+(?:\.\d+)?)\s*([a-z]*)\s*$/i.exec(s);
    const unit = m ? BYTE_UNITS[m[2]!.toLowerCase()] : undefined;
    const n = m && unit !== undefined ? Math.floor(Number(m[1]) * unit) : NaN;
    if (!Number.isSafeInteger(n)) ctx.addIssue({ code: 'custom', message: BYTE_COUNT });
    else if (n < min) ctx.addIssue({ code: 'custom', message: `must be at least ${minText}` });
    return n;
  });

/**
 * Every environment variable Trawl reads, with its default. Parsed once at start-up; a bad value stops
 * start-up with a message naming the variable and the value's problem.
 */
export const EnvSchema = z.object({
  PORT: intFrom(0, 65535, 8080),
  HOST: z.string().min(1).default('127.0.0.1'),
  REDIS_URL: z.url({ protocol: /^rediss?$/ }).optional(),
  // A Redis Cluster instead of one server: some of its nodes, comma-separated (README "Redis Cluster").
  REDIS_CLUSTER_NODES: csv
    .pipe(z.array(z.url({ protocol: /^rediss?$/, error: 'each node must be a redis:// or rediss:// URL' })).min(1, 'must name at least one node'))
    .optional(),
  REDIS_PREFIX: z.string().regex(/^[A-Za-z0-9:_-]*$/).default('trawl:'),
  // Embedded mode keeps its state on disk under this directory (README "Data directory"); `:memory:` keeps it in the
  // process instead (the same backends on an in-memory store, lost at exit). Ignored with REDIS_URL.
  TRAWL_DATA_DIR: z.string().min(1).default('./trawl-data'),
  // Once the embedded store holds this much (on disk, or in memory with `:memory:`), new work is refused (README
  // "Data directory"); unset: no limit. Below 1 MiB not even a fresh store with its first team fits comfortably.
  TRAWL_DATA_MAX_BYTES: byteCount(2 ** 20, '1 MiB (1048576)').optional(),
  TRAWL_BOOTSTRAP_KEY: z.string().min(16, 'must be at least 16 characters').optional(),
  TRAWL_ADMIN_TOKEN: z.string().min(16, 'must be at least 16 characters').optional(),
  TRAWL_ALLOW_PRIVATE: csv.default([]),
  TRAWL_PROXY_URL: z.url({ protocol: /^https?$/ }).optional(),
  TRAWL_ARTIFACT_RETENTION_S: intFrom(1, 10 * 365 * 86400, 86400),
  TRAWL_CHROMIUM_PATH: z.string().min(1).default('/usr/bin/chromium'),
  TRAWL_TRENDS_BASE_URL: z.url().default('https://trends.google.com'),
  TRAWL_BILLING_MODE: z.enum(['shadow', 'enforce']).default('shadow'),
  TRAWL_HOST_RESOLVER_RULES: z.string().default(''),
  TRAWL_FETCH_TIMEOUT_MS: intFrom(100, 600_000, 30_000),
  TRAWL_IDEMPOTENCY_TTL_S: intFrom(1, 30 * 86400, 86400),
  TRAWL_TEAM_CREDITS: intFrom(0, Number.MAX_SAFE_INTEGER, 1000),
  TRAWL_BROWSER_PAGES: z.coerce.number().int().min(1).max(256).optional(),
  TRAWL_BROWSER_RECYCLE_PAGES: intFrom(1, 100_000, 100),
  TRAWL_BROWSER_ACQUIRE_MS: intFrom(0, 60_000, 20),
  TRAWL_BROWSER_SETTLE_MAX_MS: intFrom(0, 120_000, 5_000),
  TRAWL_CONTENT_THREADS: z.coerce.number().int().min(0).max(64).optional(),
  TRAWL_CONTENT_SLOW_THREADS: intFrom(0, 64, 1),
  TRAWL_CONTENT_SLOW_BYTES: intFrom(1024, 64 * 1048576, 1048576),
  TRAWL_CONTENT_MAX_DEPTH: intFrom(32, 100_000, 512),
  TRAWL_CONTENT_MAX_ELEMENTS: intFrom(1000, 10_000_000, 100_000),
  TRAWL_CONTENT_MAX_LINKS: intFrom(1, 10_000_000, 50_000),
  TRAWL_WORKERS: z.coerce.number().int().min(0).max(64).optional(),
  TRAWL_WORKER_CONCURRENCY: intFrom(1, 1024, 32),
  TRAWL_HOST_CONCURRENCY: intFrom(1, 256, 4),
  TRAWL_LEASE_MS: intFrom(1000, 600_000, 15_000),
  TRAWL_HEARTBEAT_MS: intFrom(100, 60_000, 1_000),
  TRAWL_SHARD_TTL_MS: intFrom(500, 600_000, 5_000),
  TRAWL_CRAWL_TIMEOUT_S: intFrom(1, 7 * 86400, 3600),
  /** How long a worker keeps retrying a page's result (or a trends job's) while the store is unreachable. */
  TRAWL_STORE_OUTAGE_MS: intFrom(0, 600_000, 30_000),
  /** On SIGTERM: how long a worker lets the pages it holds run to their end before it gives its shards back. */
  TRAWL_SHUTDOWN_GRACE_S: intFrom(0, 3600, 30),
  // Crawl webhooks: one attempt's limit, attempts per event, backoff (doubling, jittered) and deliveries in flight per process.
  TRAWL_WEBHOOK_TIMEOUT_MS: intFrom(100, 120_000, 10_000),
  TRAWL_WEBHOOK_MAX_ATTEMPTS: intFrom(1, 50, 10),
  TRAWL_WEBHOOK_BACKOFF_MS: intFrom(10, 3_600_000, 1_000),
  TRAWL_WEBHOOK_BACKOFF_MAX_MS: intFrom(10, 86_400_000, 300_000),
  TRAWL_WEBHOOK_CONCURRENCY: intFrom(1, 1024, 32),
  /** How long a starting process waits for Redis before it stops with a clear message. */
  TRAWL_REDIS_STARTUP_TIMEOUT_MS: intFrom(100, 600_000, 5_000),
  /** Unset: the artifact retention plus the 7-day grace in which expired artifacts still answer 410. */
  TRAWL_CRAWL_RETENTION_S: z.coerce.number().int().min(1).max(10 * 365 * 86400).optional(),
  /** Adaptive extraction: how long a selector memory is kept unused (every page that reads it restarts the clock). */
  TRAWL_SELECTOR_MEMORY_TTL_S: intFrom(60, 365 * 86400, 30 * 86400),
  TRAWL_ROBOTS: z.enum(['true', 'false']).default('true').transform((v) => v === 'true'),
  /** Check every response against its documented schema before sending it (tests, development; costs CPU). */
  TRAWL_CHECK_RESPONSES: z.enum(['true', 'false']).default('false').transform((v) => v === 'true'),
  TRAWL_TRENDS_RPM: intFrom(1, 6000, 30),
  TRAWL_TRENDS_RATE_WINDOW_MS: intFrom(100, 3_600_000, 60_000),
  TRAWL_TRENDS_CACHE_S: intFrom(0, 30 * 86400, 3600),
  TRAWL_TRENDS_MAX_ATTEMPTS: intFrom(1, 20, 5),
  TRAWL_TRENDS_BACKOFF_MS: intFrom(10, 600_000, 5_000),
  TRAWL_TRENDS_BACKOFF_MAX_MS: intFrom(10, 3_600_000, 300_000),
  TRAWL_TRENDS_TIMEOUT_MS: intFrom(100, 600_000, 20_000),
  TRAWL_TRENDS_LEASE_MS: intFrom(500, 600_000, 15_000),
  TRAWL_TRENDS_CONCURRENCY: intFrom(1, 64, 4),
  TRAWL_TRENDS_JOB_RETENTION_S: intFrom(1, 10 * 365 * 86400, 7 * 86400),
  /**
   * Rate limits on /v1: requests per team in any 60 seconds, per route class (0 = unlimited). A team's override
   * (admin `limits.set`) wins over these defaults.
   */
  /** `off`: the limiter is out of the request path entirely (no counting, overrides ignored, no RateLimit headers). */
  TRAWL_RATE_LIMITS: z.enum(['on', 'off']).default('on'),
  TRAWL_RATE_LIMIT_FETCH_PER_MIN: intFrom(0, 1_000_000, 600),
  TRAWL_RATE_LIMIT_BROWSER_SCRAPE_PER_MIN: intFrom(0, 1_000_000, 60),
  TRAWL_RATE_LIMIT_CRAWL_CREATE_PER_MIN: intFrom(0, 1_000_000, 60),
  TRAWL_RATE_LIMIT_TRENDS_CREATE_PER_MIN: intFrom(0, 1_000_000, 60),
  TRAWL_RATE_LIMIT_READS_PER_MIN: intFrom(0, 1_000_000, 1200),
  /** `off`: no request is timed or counted and the gateway's /metrics is absent (for side-by-side overhead runs). */
  TRAWL_METRICS: z.enum(['on', 'off']).default('on'),
  /** Set: Prometheus metrics on a plain listener of their own (gateway and worker processes); 0 picks a free port. */
  TRAWL_METRICS_PORT: z.coerce.number().int().min(0).max(65535).optional(),
  TRAWL_METRICS_HOST: z.string().min(1).default('127.0.0.1'),
  LOG_LEVEL: z.enum(['fatal', 'error', 'warn', 'info', 'debug', 'trace', 'silent']).default('info'),
  /** `1`: human-readable log lines; `0`: JSON lines; unset: human-readable when stdout is a terminal, else JSON. */
  LOG_PRETTY: z.enum(['0', '1']).optional(),
}).superRefine((env, ctx) => {
  if (env.REDIS_URL !== undefined && env.REDIS_CLUSTER_NODES !== undefined) {
    ctx.addIssue({ code: 'custom', path: ['REDIS_CLUSTER_NODES'], message: 'names a cluster, REDIS_URL one server: set one of them' });
  }
  // A limit that could never apply would let an operator believe the disk is guarded: refused, not ignored.
  if (env.TRAWL_DATA_MAX_BYTES === undefined) return;
  if (env.REDIS_URL !== undefined || env.REDIS_CLUSTER_NODES !== undefined) {
    ctx.addIssue({
      code: 'custom',
      path: ['TRAWL_DATA_MAX_BYTES'],
      message: 'limits the embedded store (data directory or :memory:) only: unset it with REDIS_URL or REDIS_CLUSTER_NODES',
    });
  }
});
export type TrawlConfig = z.infer<typeof EnvSchema>;

/** Where the shared Redis is (REDIS_URL or REDIS_CLUSTER_NODES); null in embedded mode. */
export function redisTarget(config: Pick<TrawlConfig, 'REDIS_URL' | 'REDIS_CLUSTER_NODES'>): { url: string } | { clusterNodes: string[] } | null {
  if (config.REDIS_CLUSTER_NODES !== undefined) return { clusterNodes: config.REDIS_CLUSTER_NODES };
  return config.REDIS_URL === undefined ? null : { url: config.REDIS_URL };
}

export class ConfigError extends Error {
  override name = 'ConfigError';
}

/** Parses the environment (or any record of strings). Empty strings count as unset. */
export function loadConfig(env: Record<string, string | undefined> = process.env): TrawlConfig {
  const present: Record<string, string> = {};
  for (const key of Object.keys(EnvSchema.shape)) {
    const v = env[key];
    if (v !== undefined && v !== '') present[key] = v;
  }
  const parsed = EnvSchema.safeParse(present);
  if (!parsed.success) {
    const lines = parsed.error.issues.map((i) => `  ${i.path.join('.')}: ${i.message}`);
    throw new ConfigError(`invalid configuration:\n${lines.join('\n')}`);
  }
  return parsed.data;
}
