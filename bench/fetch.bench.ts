import { gotScraping } from 'got-scraping';
import { spawn } from 'node:child_process';
import { Agent, request } from 'node:http';
import { measure, type Measured } from './support/measure.ts';
import { startNodeProcess, stop } from './support/processes.ts';
import type { ScenarioResult } from './support/table.ts';

/**
 * POST /v1/fetch on a local 20 KB page, side by side with a direct got-scraping GET of the same page, at
 * concurrency 1 and 32. A third row runs our pipeline (light engine + content normalization) without the
 * gateway, in a process of its own, so the gateway's own overhead is the difference between it and /v1/fetch.
 */
const KEY = 'bench-key-0123456789abcdef';
const SECONDS = Number(process.env.BENCH_SECONDS ?? 8);

const median = (xs: number[]) => [...xs].sort((a, b) => a - b)[Math.floor(xs.length / 2)] ?? NaN;

/** Runs the pipeline without the gateway in a process of its own and collects its figures. */
function pipelineFigures(url: string, levels: number[]): Promise<Measured[]> {
  return new Promise((resolve, reject) => {
    const child = spawn(
      process.execPath,
      ['--import', 'tsx', new URL('./support/pipeline-runner.ts', import.meta.url).pathname, '--url', url, '--concurrency', levels.join(','), '--seconds', String(SECONDS)],
      { stdio: ['ignore', 'pipe', 'inherit'] },
    );
    let out = '';
    child.stdout!.on('data', (c: Buffer) => (out += c.toString()));
    child.once('exit', (code) => {
      if (code !== 0) return reject(new Error(`pipeline runner exited with ${code}`));
      resolve(
        out
          .trim()
          .split('\n')
          .map((l) => ({ ...(JSON.parse(l) as Measured), name: 'pipeline without gateway (light + content)' })),
      );
    });
  });
}

export default async function run(): Promise<ScenarioResult> {
  const serverTimes: number[] = [];
  const site = await startNodeProcess<{ port: number }>(new URL('./support/fixture-server.ts', import.meta.url).pathname);
  const gateway = await startNodeProcess<{ url: string }>(new URL('./support/gateway-server.ts', import.meta.url).pathname, {
    PORT: '0',
    TRAWL_BOOTSTRAP_KEY: KEY,
    TRAWL_ALLOW_PRIVATE: '127.0.0.1/32',
    TRAWL_HOST_RESOLVER_RULES: 'MAP *.test 127.0.0.1',
    LOG_LEVEL: 'info',
  }, [], (line) => {
    // Fastify's own "request completed" log line: the time the gateway spent on each request, server side.
    if (!line.includes('"responseTime"')) return;
    const t = (JSON.parse(line) as { responseTime?: number }).responseTime;
    if (typeof t === 'number') serverTimes.push(t);
  });
  const pageUrl = `http://127.0.0.1:${site.info.port}/bench-20kb`;
  const agent = new Agent({ keepAlive: true, maxSockets: 64 });

  const direct = async () => {
    const res = await gotScraping.get(pageUrl, { retry: { limit: 0 } });
    if (res.statusCode !== 200 || res.body.length < 15_000) throw new Error('direct GET failed');
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
  let serverP50 = NaN;
  try {
    for (const c of [1, 32]) {
      // Alternate the peers so drift in machine load hits both.
      results.push(await measure('direct got-scraping GET', c, SECONDS, direct));
      results.push(...(await pipelineFigures(pageUrl, [c])));
      const from = serverTimes.length;
      results.push(await measure('POST /v1/fetch', c, SECONDS, viaApi));
      if (c === 1) serverP50 = median(serverTimes.slice(from));
    }
  } finally {
    agent.destroy();
    await stop(gateway.child);
    await stop(site.child);
  }
  const at = (name: string, c: number) => results.find((r) => r.name === name && r.concurrency === c)!;
  const rows = results.map((r) => {
    const d = at('direct got-scraping GET', r.concurrency);
    return [r.name, r.concurrency, r.rps, r.p50, r.p99, r.rps / d.rps];
  });
  const overhead1 = at('POST /v1/fetch', 1).p50 - at('pipeline without gateway (light + content)', 1).p50;
  return {
    title: 'fetch: POST /v1/fetch vs direct got-scraping GET (20 KB page)',
    columns: ['case', 'concurrency', 'req/s', 'p50 ms', 'p99 ms', 'req/s ÷ direct'],
    rows,
    notes: [
      `gateway overhead at p50, concurrency 1 (POST /v1/fetch − pipeline without gateway): ${overhead1.toFixed(2)} ms (target < 2 ms)`,
      `the same, server side (the gateway's own response time p50, ${serverP50.toFixed(2)} ms, − pipeline without gateway): ${(serverP50 - at('pipeline without gateway (light + content)', 1).p50).toFixed(2)} ms; the rest is the HTTP round trip of a ~40 KB answer on the client side`,
      `/v1/fetch throughput ÷ direct GET at concurrency 32: ${(at('POST /v1/fetch', 32).rps / at('direct got-scraping GET', 32).rps).toFixed(2)} (target ≥ 0.60)`,
      'The direct GET runs in the benchmark process (which is also the HTTP client of /v1/fetch); the pipeline, the gateway and the fixture site each run in a process of their own (2 cores shared by all).',
    ],
  };
}
