import { Agent, request } from 'node:http';
import { randomPrefix, startRedisServer } from '@trawl/test-support/redis-server.ts';
import { measure, type Measured } from './support/measure.ts';
import { startNodeProcess, stop } from './support/processes.ts';
import type { ScenarioResult } from './support/table.ts';

/**
 * The rate limiter's cost per /v1 request: GET /v1/runs/{id} (a cheap authenticated read: the key lookup, the run
 * lookup, a small JSON answer) on gateways that differ only in their limits, embedded (memory) and cluster (Redis),
 * at concurrency 1 and 16. Three settings per mode: `off` (TRAWL_RATE_LIMITS=off, the limiter out of the path),
 * `unlimited` (limits on, reads default 0: one decision per request that only looks up the team's override), `on`
 * (reads limited to 1,000,000 a minute: every request decided and counted, none refused). Every answer is checked:
 * 200, the right run in the body, RateLimit headers present exactly when limited.
 */
const KEY = 'bench-key-0123456789abcdef';
const SECONDS = Number(process.env.BENCH_SECONDS ?? 5);
const LIMITS_ZERO = {
  TRAWL_RATE_LIMIT_FETCH_PER_MIN: '0',
  TRAWL_RATE_LIMIT_BROWSER_SCRAPE_PER_MIN: '0',
  TRAWL_RATE_LIMIT_CRAWL_CREATE_PER_MIN: '0',
  TRAWL_RATE_LIMIT_TRENDS_CREATE_PER_MIN: '0',
  TRAWL_RATE_LIMIT_READS_PER_MIN: '0',
};
const SETTINGS = {
  off: { ...LIMITS_ZERO, TRAWL_RATE_LIMITS: 'off' },
  unlimited: { ...LIMITS_ZERO, TRAWL_RATE_LIMITS: 'on' },
  on: { ...LIMITS_ZERO, TRAWL_RATE_LIMITS: 'on', TRAWL_RATE_LIMIT_READS_PER_MIN: '1000000' },
} as const;
type Setting = keyof typeof SETTINGS;

interface Tally {
  ok: number;
  wrong: number;
  first?: string;
}

export default async function run(): Promise<ScenarioResult> {
  const redis = await startRedisServer();
  const site = await startNodeProcess<{ port: number }>(new URL('./support/fixture-server.ts', import.meta.url).pathname);
  const agent = new Agent({ keepAlive: true, maxSockets: 64 });
  const gateways: { mode: string; setting: Setting; url: string; child: Awaited<ReturnType<typeof startNodeProcess>>['child'] }[] = [];
  const results: (Measured & { mode: string; setting: Setting; tally: Tally })[] = [];
  try {
    for (const mode of ['embedded', 'cluster'] as const) {
      for (const setting of Object.keys(SETTINGS) as Setting[]) {
        const g = await startNodeProcess<{ url: string }>(new URL('./support/gateway-server.ts', import.meta.url).pathname, {
          PORT: '0',
          TRAWL_BOOTSTRAP_KEY: KEY,
          TRAWL_ALLOW_PRIVATE: '127.0.0.1/32',
          LOG_LEVEL: 'warn',
          TRAWL_WORKERS: '0',
          ...(mode === 'cluster' ? { REDIS_URL: redis.url, REDIS_PREFIX: randomPrefix() } : {}),
          ...SETTINGS[setting],
        });
        gateways.push({ mode, setting, url: g.info.url, child: g.child });
      }
    }
    // One run per gateway to read back: a Fetch of a local page.
    const runIds = new Map<string, string>();
    for (const g of gateways) {
      const res = await fetch(`${g.url}/v1/fetch`, {
        method: 'POST',
        headers: { authorization: `Bearer ${KEY}`, 'content-type': 'application/json' },
        body: JSON.stringify({ url: `http://127.0.0.1:${site.info.port}/bench-20kb` }),
      });
      if (res.status !== 200) throw new Error(`setup fetch on ${g.mode}/${g.setting} answered ${res.status}`);
      runIds.set(g.url, ((await res.json()) as { run: { id: string } }).run.id);
    }
    for (const c of [1, 16]) {
      for (const mode of ['embedded', 'cluster']) {
        // Alternate the settings within a mode so drift in machine load hits all three.
        for (const g of gateways.filter((x) => x.mode === mode)) {
          const runId = runIds.get(g.url)!;
          const target = new URL(`/v1/runs/${runId}`, g.url);
          const limited = g.setting === 'on';
          const tally: Tally = { ok: 0, wrong: 0 };
          const read = () =>
            new Promise<void>((resolve, reject) => {
              const req = request(target, { agent, headers: { authorization: `Bearer ${KEY}` } }, (res) => {
                const chunks: Buffer[] = [];
                res.on('data', (b: Buffer) => chunks.push(b));
                res.on('end', () => {
                  const text = Buffer.concat(chunks).toString();
                  let right = res.statusCode === 200 && (res.headers['ratelimit-limit'] !== undefined) === limited;
                  if (right) {
                    const body = JSON.parse(text) as { run?: { id?: string; status?: string } };
                    right = body.run?.id === runId && body.run?.status === 'completed';
                  }
                  if (right) tally.ok++;
                  else {
                    tally.wrong++;
                    tally.first ??= `${res.statusCode} ${text.slice(0, 200)}`;
                  }
                  resolve();
                });
                res.on('error', reject);
              });
              req.on('error', reject);
              req.end();
            });
          const m = await measure(`${mode} ${g.setting}`, c, SECONDS, read);
          results.push({ ...m, mode, setting: g.setting, tally });
        }
      }
    }
  } finally {
    agent.destroy();
    for (const g of gateways) await stop(g.child);
    await stop(site.child);
    await redis.stop();
  }
  const base = (r: (typeof results)[number]) => results.find((x) => x.mode === r.mode && x.concurrency === r.concurrency && x.setting === 'off')!;
  const rows = results.map((r) => [
    r.mode,
    r.setting,
    r.concurrency,
    r.rps,
    r.p50,
    r.p99,
    r.rps / base(r).rps,
    r.p50 - base(r).p50,
    r.tally.wrong === 0 ? `${r.tally.ok}/${r.tally.ok}` : `${r.tally.ok}/${r.tally.ok + r.tally.wrong} (${r.tally.first})`,
  ]);
  const find = (mode: string, setting: Setting, c: number) => results.find((r) => r.mode === mode && r.setting === setting && r.concurrency === c)!;
  const allRight = results.every((r) => r.tally.wrong === 0);
  return {
    title: 'rate-limit: GET /v1/runs/{id} with the limiter off, unlimited and on (embedded and cluster)',
    columns: ['mode', 'limits', 'concurrency', 'req/s', 'p50 ms', 'p99 ms', 'req/s ÷ off', 'p50 − off (ms)', 'answers right'],
    rows,
    notes: [
      `every answer right (200, the run asked for, RateLimit headers exactly when limited): ${allRight ? 'yes' : 'NO'}`,
      `limiter cost at p50, concurrency 1: embedded ${(find('embedded', 'on', 1).p50 - find('embedded', 'off', 1).p50).toFixed(3)} ms, cluster ${(find('cluster', 'on', 1).p50 - find('cluster', 'off', 1).p50).toFixed(3)} ms (one EVALSHA round trip to Redis)`,
      `throughput with limits on ÷ off at concurrency 16: embedded ${(find('embedded', 'on', 16).rps / find('embedded', 'off', 16).rps).toFixed(2)}, cluster ${(find('cluster', 'on', 16).rps / find('cluster', 'off', 16).rps).toFixed(2)}`,
      '`off`: TRAWL_RATE_LIMITS=off. `unlimited`: limits on, every class 0 and no override (the decision only reads the team\'s overrides). `on`: reads limited to 1,000,000 a minute, so every request is decided and counted and none is refused.',
      'Six gateway processes (TRAWL_WORKERS=0), a fixture site and a redis-server run beside the benchmark client, all on the same 2 shared cores; only one gateway is loaded at a time.',
    ],
  };
}
