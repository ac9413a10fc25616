import { gotScraping } from 'got-scraping';
import { Agent, request } from 'node:http';
import { Bench } from 'tinybench';
import { createLightEngine } from '@trawl/engines';
import { HostResolverRules, SsrfGuard } from '@trawl/net';
import { normalizeContent } from '@trawl/content';
import { startNodeProcess, stop } from './support/processes.ts';
import type { ScenarioResult } from './support/table.ts';

/**
 * POST /v1/fetch on a local 20 KB page, side by side with a direct got-scraping GET of the same page, at
 * concurrency 1 and 32. A third row runs our pipeline (light engine + content normalization) in-process
 * without the gateway, so the gateway's own overhead is the difference between it and /v1/fetch.
 */
const KEY = 'bench-key-0123456789abcdef';
const SECONDS = Number(process.env.BENCH_SECONDS ?? 8);

interface Measured {
  name: string;
  concurrency: number;
  rps: number;
  p50: number;
  p99: number;
}

async function measure(name: string, concurrency: number, fn: () => Promise<void>): Promise<Measured> {
  const bench = new Bench({
    name,
    time: SECONDS * 1000,
    warmupTime: 1500,
    iterations: 0,
    ...(concurrency > 1 ? { concurrency: 'task' as const, threshold: concurrency } : { iterations: 64 }),
    retainSamples: false,
  });
  bench.add(name, fn);
  const started = performance.now();
  await bench.run();
  const wall = (performance.now() - started) / 1000;
  const task = bench.tasks[0];
  const r = task.result;
  if (r.state !== 'completed') throw new Error(`${name}: ${r.state} ${'error' in r ? r.error : ''}`);
  // tinybench's throughput is per iteration; with concurrent iterations the achieved rate is runs / time.
  const runs = task.runs;
  return { name, concurrency, rps: runs / Math.max(wall - 1.5, 0.001), p50: r.latency.p50, p99: r.latency.p99 };
}

export default async function run(): Promise<ScenarioResult> {
  const site = await startNodeProcess<{ port: number }>(new URL('./support/fixture-server.ts', import.meta.url).pathname);
  const gateway = await startNodeProcess<{ url: string }>(new URL('./support/gateway-server.ts', import.meta.url).pathname, {
    PORT: '0',
    TRAWL_BOOTSTRAP_KEY: KEY,
    TRAWL_ALLOW_PRIVATE: '127.0.0.1/32',
    TRAWL_HOST_RESOLVER_RULES: 'MAP *.test 127.0.0.1',
    LOG_LEVEL: 'info',
  });
  const pageUrl = `http://127.0.0.1:${site.info.port}/bench-20kb`;
  const agent = new Agent({ keepAlive: true, maxSockets: 64 });
  const guard = new SsrfGuard({ allowPrivate: ['127.0.0.1/32'], rules: HostResolverRules.parse('') });
  const light = createLightEngine({ guard });

  const direct = async () => {
    const res = await gotScraping.get(pageUrl, { retry: { limit: 0 } });
    if (res.statusCode !== 200 || res.body.length < 15_000) throw new Error('direct GET failed');
  };
  const pipeline = async () => {
    const r = await light.fetch({ url: pageUrl, deadline: Date.now() + 30_000 });
    if (!r.ok) throw new Error('pipeline fetch failed');
    normalizeContent({ body: r.body, contentType: r.contentType, url: r.finalUrl });
  };
  const body = JSON.stringify({ url: pageUrl });
  const target = new URL('/v1/fetch', gateway.info.url);
  const viaApi = () =>
    new Promise<void>((resolve, reject) => {
      const req = request(
        target,
        { method: 'POST', agent, headers: { authorization: `Bearer ${KEY}`, 'content-type': 'application/json' } },
        (res) => {
          const chunks: Buffer[] = [];
          res.on('data', (c: Buffer) => chunks.push(c));
          res.on('end', () =>
            res.statusCode === 200
              ? resolve()
              : reject(new Error(`/v1/fetch answered ${res.statusCode}: ${Buffer.concat(chunks).toString().slice(0, 200)}`)),
          );
          res.on('error', reject);
        },
      );
      req.on('error', reject);
      req.end(body);
    });

  const results: Measured[] = [];
  try {
    for (const c of [1, 32]) {
      // Alternate the peers so drift in machine load hits both.
      results.push(await measure('direct got-scraping GET', c, direct));
      results.push(await measure('pipeline in-process (light + content)', c, pipeline));
      results.push(await measure('POST /v1/fetch', c, viaApi));
    }
  } finally {
    await light.close();
    agent.destroy();
    await stop(gateway.child);
    await stop(site.child);
  }
  const at = (name: string, c: number) => results.find((r) => r.name === name && r.concurrency === c)!;
  const rows = results.map((r) => {
    const d = at('direct got-scraping GET', r.concurrency);
    return [r.name, r.concurrency, r.rps, r.p50, r.p99, r.rps / d.rps];
  });
  const overhead1 = at('POST /v1/fetch', 1).p50 - at('pipeline in-process (light + content)', 1).p50;
  return {
    title: 'fetch: POST /v1/fetch vs direct got-scraping GET (20 KB page)',
    columns: ['case', 'concurrency', 'req/s', 'p50 ms', 'p99 ms', 'req/s ÷ direct'],
    rows,
    notes: [
      `gateway overhead at p50, concurrency 1 (POST /v1/fetch − in-process pipeline): ${overhead1.toFixed(2)} ms (target < 2 ms)`,
      `/v1/fetch throughput ÷ direct GET at concurrency 32: ${(at('POST /v1/fetch', 32).rps / at('direct got-scraping GET', 32).rps).toFixed(2)} (target ≥ 0.60)`,
      'Direct GET and the in-process pipeline run in the benchmark process; the gateway and the fixture site each run in their own process (2 cores shared by all).',
    ],
  };
}
