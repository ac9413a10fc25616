import { mkdtempSync, rmSync } from 'node:fs';
import { tmpdir } from 'node:os';
import { join } from 'node:path';
import { afterAll, beforeAll } from 'vitest';
import { loadConfig } from '@trawl/config';
import { createLogger } from '@trawl/process';
import { startGateway, type RunningGateway } from '../../apps/gateway/src/start.ts';

export const TEST_KEY = 'test-key-0123456789abcdef';

/** Every rate-limit default at 0 (unlimited); apps/gateway/test/rate-limit.e2e.test.ts sets its own. */
export const RATE_LIMITS_OFF: Record<string, string> = {
  TRAWL_RATE_LIMIT_FETCH_PER_MIN: '0',
  TRAWL_RATE_LIMIT_BROWSER_SCRAPE_PER_MIN: '0',
  TRAWL_RATE_LIMIT_CRAWL_CREATE_PER_MIN: '0',
  TRAWL_RATE_LIMIT_TRENDS_CREATE_PER_MIN: '0',
  TRAWL_RATE_LIMIT_READS_PER_MIN: '0',
};

export interface TestGateway extends RunningGateway {
  /** Every log line the gateway wrote, as parsed JSON. */
  logs: Record<string, unknown>[];
  /** fetch() against the gateway with the bootstrap key (override with headers.authorization). */
  call(method: string, path: string, body?: unknown, headers?: Record<string, string>): Promise<Response>;
}

/**
 * A real gateway on a free loopback port. Hostnames under .test map to 127.0.0.1 and the SSRF guard lets
 * 127.0.0.1 through (only), as the fixture sites need. Rate limits are off unless `env` sets them.
 */
export async function startTestGateway(env: Record<string, string> = {}, now?: () => number): Promise<TestGateway> {
  // Embedded mode on a data directory of its own (removed at close), unless the test names one (or `:memory:`).
  const ownDir = env.TRAWL_DATA_DIR === undefined && env.REDIS_URL === undefined ? mkdtempSync(join(tmpdir(), 'trawl-test-data-')) : null;
  const config = loadConfig({
    ...(ownDir ? { TRAWL_DATA_DIR: ownDir } : {}),
    PORT: '0',
    TRAWL_BOOTSTRAP_KEY: TEST_KEY,
    TRAWL_ALLOW_PRIVATE: '127.0.0.1/32',
    TRAWL_HOST_RESOLVER_RULES: 'MAP *.test 127.0.0.1',
    LOG_LEVEL: 'info',
    TRAWL_CHECK_RESPONSES: 'true',
    // Closing a test gateway does not wait long for pages still in flight (hostile pages stall for a minute).
    TRAWL_SHUTDOWN_GRACE_S: '2',
    // Rate limits off unless a test sets them: suites poll runs, crawls and jobs faster than a person would.
    ...RATE_LIMITS_OFF,
    // Pages parsed in the gateway's own thread unless a test asks for content threads: booting a thread costs
    // about 1.5 s of CPU on this 2-core machine, paid by every gateway a test starts. The threads are tested where
    // they matter (packages/scrape content-pool and content-lanes, the hostile suites, and every spawned gateway and
    // worker process, which keep the default).
    TRAWL_CONTENT_THREADS: '0',
    ...env,
  });
  // Every line of the gateway's logger (requests, workers, faults) at the configured LOG_LEVEL, parsed.
  const logs: Record<string, unknown>[] = [];
  const stream = {
    write(chunk: string) {
      for (const line of chunk.split('\n')) if (line.trim()) logs.push(JSON.parse(line));
    },
  };
  let g: Awaited<ReturnType<typeof startGateway>>;
  try {
    g = await startGateway(config, { log: createLogger(config, { name: 'trawl-gateway', stream }), now });
  } catch (err) {
    if (ownDir) rmSync(ownDir, { recursive: true, force: true });
    throw err;
  }
  return {
    ...g,
    logs,
    async close() {
      await g.close();
      if (ownDir) rmSync(ownDir, { recursive: true, force: true });
    },
    call(method, path, body, headers = {}) {
      const h: Record<string, string> = { authorization: `Bearer ${TEST_KEY}`, ...headers };
      if (body !== undefined && !h['content-type']) h['content-type'] = 'application/json';
      return fetch(`${g.url}${path}`, {
        method,
        headers: h,
        body: body === undefined ? undefined : typeof body === 'string' ? body : JSON.stringify(body),
      });
    },
  };
}

/**
 * Two gateways on one backend (give `env` the same REDIS_URL and REDIS_PREFIX), started before the enclosing
 * suite's tests and closed after them; `env` is read when they start. `a` and `b` are valid inside tests.
 */
export function useGatewayPair(env: () => Record<string, string>): { readonly a: TestGateway; readonly b: TestGateway } {
  let pair: [TestGateway, TestGateway] | undefined;
  beforeAll(async () => {
    const shared = env();
    const a = await startTestGateway(shared);
    pair = [a, await startTestGateway(shared).catch(async (err: unknown) => {
      await a.close();
      throw err;
    })];
  });
  afterAll(async () => {
    await pair?.[0].close();
    await pair?.[1].close();
  });
  const get = (i: 0 | 1) => {
    if (!pair) throw new Error('useGatewayPair: used outside a test');
    return pair[i];
  };
  return {
    get a() {
      return get(0);
    },
    get b() {
      return get(1);
    },
  };
}
