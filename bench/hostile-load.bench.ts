import { readFileSync } from 'node:fs';
import { Agent, request } from 'node:http';
import { ORDINARY_MARKER } from '@trawl/test-support/hostile-site.ts';
import { startNodeProcess, stop } from './support/processes.ts';
import type { ScenarioResult } from './support/table.ts';

/**
 * Sustained POST /v1/fetch load of ordinary pages (~12 KB articles) at 64 and 256 in flight, against a local
 * fixture site, once quiet and once with four hostile pages always in flight besides (300,000 and 500,000 nested
 * <div>s, the most links 10 MiB holds, 5 MiB of random bytes as text/html, one after another in four loops).
 * Ordinary pages are checked (200 and their own text, whole). Each phase runs on a fresh gateway process, so a
 * phase's leftovers (a stuck thread) and memory high-water mark do not carry into the next; quiet and hostile
 * phases alternate over several rounds, because on a small shared machine load drifts more than the effect.
 */
const KEY = 'bench-key-0123456789abcdef';
const SECONDS = Number(process.env.BENCH_SECONDS ?? 8);
/** Quiet and hostile phases alternate this many times per level: drift in the machine's load hits both alike. */
const ROUNDS = Number(process.env.BENCH_ROUNDS ?? 3);
/** A client-side bound: the gateway's deadline is 30 s; an answer later than this counts as an error. */
const CLIENT_TIMEOUT_MS = 90_000;
const HOSTILE = (process.env.BENCH_HOSTILE ?? '/deep?n=300000,/deep?n=500000,/links,/binary').split(',');
const LEVELS = (process.env.BENCH_CONCURRENCY ?? '64,256').split(',').map(Number);

interface Call {
  status: number;
  ms: number;
  body: string;
}

/** `keepBody` false: a 200's body is read and dropped (a hostile page's answer is megabytes this client need not hold). */
function post(agent: Agent, gateway: string, url: string, keepBody = true): Promise<Call> {
  const started = performance.now();
  return new Promise((resolve) => {
    const req = request(new URL('/v1/fetch', gateway), { method: 'POST', agent, timeout: CLIENT_TIMEOUT_MS, headers: { authorization: `Bearer ${KEY}`, 'content-type': 'application/json' } }, (res) => {
      const chunks: Buffer[] = [];
      const keep = keepBody || res.statusCode !== 200;
      res.on('data', (c: Buffer) => keep && chunks.push(c));
      res.on('end', () => resolve({ status: res.statusCode ?? 0, ms: performance.now() - started, body: Buffer.concat(chunks).toString() }));
      res.on('error', () => resolve({ status: -1, ms: performance.now() - started, body: '' }));
    });
    req.on('timeout', () => req.destroy(new Error('client timeout')));
    req.on('error', () => resolve({ status: -1, ms: performance.now() - started, body: '' }));
    req.end(JSON.stringify({ url }));
  });
}

function correct(c: Call, n: number): boolean {
  if (c.status !== 200) return false;
  const md = (JSON.parse(c.body) as { result: { content: { markdown: string } } }).result.content.markdown;
  return md.includes(`${ORDINARY_MARKER} ${n}`) && md.includes('Paragraph 24.');
}

const pct = (xs: number[], p: number) => {
  const s = [...xs].sort((a, b) => a - b);
  return s.length ? s[Math.min(s.length - 1, Math.floor((p / 100) * s.length))] : NaN;
};
const rssMb = (pid: number) => Number(/VmRSS:\s+(\d+) kB/.exec(readFileSync(`/proc/${pid}/status`, 'utf8'))?.[1] ?? 0) / 1024;

interface Phase {
  concurrency: number;
  hostile: boolean;
  ordinary: number[];
  correct: number;
  errors: number;
  hostileOutcomes: Map<string, number>;
  peakRss: number;
}

async function phase(sitePort: number, concurrency: number, hostile: boolean): Promise<Phase> {
  const gw = await startNodeProcess<{ url: string }>(new URL('./support/gateway-server.ts', import.meta.url).pathname, {
    PORT: '0',
    TRAWL_BOOTSTRAP_KEY: KEY,
    TRAWL_ALLOW_PRIVATE: '127.0.0.1/32',
    TRAWL_HOST_RESOLVER_RULES: 'MAP *.test 127.0.0.1',
    LOG_LEVEL: 'warn',
  });
  const agent = new Agent({ keepAlive: true, maxSockets: concurrency + 8 });
  const site = (p: string) => `http://hostile.test:${sitePort}${p}`;
  const result: Phase = { concurrency, hostile, ordinary: [], correct: 0, errors: 0, hostileOutcomes: new Map(), peakRss: 0 };
  const sampler = setInterval(() => (result.peakRss = Math.max(result.peakRss, rssMb(gw.child.pid!))), 100);
  try {
    // Warm up: content threads started, JIT warm (not measured).
    const warmEnd = Date.now() + 2000;
    await Promise.all(Array.from({ length: 8 }, async (_, w) => {
      for (let n = w; Date.now() < warmEnd; n += 8) await post(agent, gw.info.url, site(`/ordinary?n=${n}`));
    }));
    const end = Date.now() + SECONDS * 1000;
    let next = 0;
    const ordinaryLoop = async () => {
      while (Date.now() < end) {
        const n = next++;
        const c = await post(agent, gw.info.url, site(`/ordinary?n=${n}`));
        result.ordinary.push(c.ms);
        if (correct(c, n)) result.correct++;
        else result.errors++;
      }
    };
    const hostileLoop = async (i: number) => {
      for (let k = i; Date.now() < end; k++) {
        const c = await post(agent, gw.info.url, site(HOSTILE[k % HOSTILE.length]), false);
        const key = c.status === 200 ? '200' : c.status === -1 ? 'client-timeout' : `${c.status} ${(JSON.parse(c.body) as { error: { details: { block_reason?: string } } }).error.details.block_reason}`;
        result.hostileOutcomes.set(key, (result.hostileOutcomes.get(key) ?? 0) + 1);
      }
    };
    await Promise.all([
      ...Array.from({ length: concurrency }, ordinaryLoop),
      ...(hostile ? Array.from({ length: 4 }, (_, i) => hostileLoop(i)) : []),
    ]);
  } finally {
    clearInterval(sampler);
    agent.destroy();
    await stop(gw.child);
  }
  return result;
}

export default async function run(): Promise<ScenarioResult> {
  const site = await startNodeProcess<{ port: number }>(new URL('./support/hostile-server.ts', import.meta.url).pathname);
  const runs: Phase[] = [];
  try {
    for (const c of LEVELS) for (let r = 0; r < ROUNDS; r++) for (const hostile of [false, true]) runs.push(await phase(site.info.port, c, hostile));
  } finally {
    await stop(site.child);
  }
  // One row per level and condition: the rounds' answers pooled, the highest peak RSS.
  const phases: Phase[] = [];
  for (const r of runs) {
    const p = phases.find((q) => q.concurrency === r.concurrency && q.hostile === r.hostile);
    if (!p) {
      phases.push({ ...r, ordinary: [...r.ordinary], hostileOutcomes: new Map(r.hostileOutcomes) });
      continue;
    }
    p.ordinary.push(...r.ordinary);
    p.correct += r.correct;
    p.errors += r.errors;
    p.peakRss = Math.max(p.peakRss, r.peakRss);
    for (const [k, v] of r.hostileOutcomes) p.hostileOutcomes.set(k, (p.hostileOutcomes.get(k) ?? 0) + v);
  }
  const rows = phases.map((p) => {
    const quiet = phases.find((q) => q.concurrency === p.concurrency && !q.hostile)!;
    const total = p.ordinary.length;
    return [
      p.hostile ? 'ordinary + 4 hostile in flight' : 'ordinary only',
      p.concurrency,
      total,
      `${p.correct}/${total}`,
      p.errors,
      pct(p.ordinary, 50),
      pct(p.ordinary, 99),
      pct(p.ordinary, 99) / pct(quiet.ordinary, 99),
      Math.round(p.peakRss),
      p.hostile ? [...p.hostileOutcomes].map(([k, v]) => `${k}: ${v}`).join(', ') : '',
    ];
  });
  return {
    title: 'hostile-load: ordinary Fetches with and without hostile pages in flight',
    columns: ['load', 'concurrency', 'ordinary answers', 'correct', 'errors', 'p50 ms', 'p99 ms', 'p99 ÷ quiet p99', 'peak RSS MiB', 'hostile outcomes'],
    rows,
    notes: [
      `${ROUNDS} rounds per level of a quiet and a hostile phase, alternating, ${SECONDS} s each after a 2 s warm-up; each phase on a fresh gateway process (embedded mode, default settings: 30 s deadline, content threads sized by the default rule); rows pool the rounds.`,
      `hostile pages: ${HOSTILE.join(', ')} (/deep?n=: n nested <div>s, 11 bytes each; /links: ~640,000 links in 10 MiB; /binary: 5 MiB of random bytes as text/html); four loops keep four in flight, going round the list.`,
      'correct: 200 with the page\'s own heading and its last paragraph in the Markdown. errors: anything else (including answers later than 90 s).',
      'Gateway, fixture site and this client each run in a process of their own, on 2 shared cores.',
    ],
  };
}
