import { spawn, type ChildProcess } from 'node:child_process';
import { randomBytes } from 'node:crypto';
import { mkdtempSync, rmSync } from 'node:fs';
import { createServer } from 'node:net';
import { tmpdir } from 'node:os';
import { join } from 'node:path';
import { parseArgs } from 'node:util';
import { BUNDLES, buildBundles, stale } from '../scripts/build.mjs';

/**
 * `npm run cluster -- --workers N`: Redis (started here unless REDIS_URL or REDIS_CLUSTER_NODES is given), one gateway and N worker
 * processes on this machine. Ctrl-C stops them all. For several machines see cluster/README.md.
 */
const { values } = parseArgs({
  options: { workers: { type: 'string', default: '2' }, port: { type: 'string' } },
  strict: true,
});
const workers = Number(values.workers);
if (!Number.isInteger(workers) || workers < 1 || workers > 64) {
  process.stderr.write('--workers must be an integer from 1 to 64\n');
  process.exit(2);
}
const root = new URL('../', import.meta.url).pathname;
const children: { name: string; child: ChildProcess }[] = [];
let stopping = false;

async function freePort(): Promise<number> {
  return new Promise((resolve, reject) => {
    const s = createServer().once('error', reject);
    s.listen(0, '127.0.0.1', () => {
      const a = s.address();
      s.close(() => resolve(typeof a === 'object' && a ? a.port : 0));
    });
  });
}

function start(name: string, args: string[], env: Record<string, string>): ChildProcess {
  const child = spawn(args[0], args.slice(1), { cwd: root, env: { ...process.env, ...env }, stdio: ['ignore', 'inherit', 'inherit'] });
  children.push({ name, child });
  child.once('exit', (code, signal) => {
    if (!stopping) process.stderr.write(`cluster: ${name} exited (${signal ?? code}); the others keep running\n`);
  });
  return child;
}

async function stopAll(): Promise<void> {
  if (stopping) return;
  stopping = true;
  // Workers and gateway first (they hand back leases), Redis last.
  const ordered = [...children].reverse();
  for (const { child } of ordered) {
    if (child.exitCode !== null || child.signalCode !== null) continue;
    const exited = new Promise((r) => child.once('exit', r));
    child.kill('SIGTERM');
    await Promise.race([exited, new Promise((r) => setTimeout(r, 10_000))]);
    if (child.exitCode === null && child.signalCode === null) child.kill('SIGKILL');
  }
}

let redisUrl = process.env.REDIS_URL;
// A Redis Cluster given by its nodes is used as it is (README "Redis Cluster").
const clusterNodes = process.env.REDIS_CLUSTER_NODES;
let redisDir: string | null = null;
if (!redisUrl && !clusterNodes) {
  const port = await freePort();
  redisDir = mkdtempSync(join(tmpdir(), 'trawl-cluster-redis-'));
  const redis = spawn('redis-server', ['--port', String(port), '--bind', '127.0.0.1', '--save', '', '--appendonly', 'no', '--dir', redisDir], {
    stdio: 'ignore',
  });
  redis.once('error', () => {
    process.stderr.write('cluster: redis-server not found; run `bash scripts/ensure-system-deps.sh` or set REDIS_URL\n');
    process.exit(1);
  });
  children.unshift({ name: 'redis-server', child: redis });
  redisUrl = `redis://127.0.0.1:${port}`;
  await new Promise((r) => setTimeout(r, 300));
  process.stdout.write(`cluster: redis-server on ${redisUrl}\n`);
}
const key = process.env.TRAWL_BOOTSTRAP_KEY ?? `trawl_dev_${randomBytes(18).toString('base64url')}`;
const common: Record<string, string> = { ...(clusterNodes ? { REDIS_CLUSTER_NODES: clusterNodes } : { REDIS_URL: redisUrl ?? '' }), TRAWL_BOOTSTRAP_KEY: key };
// Built once here (when a source is newer), then every process runs the bundle, as `npm start` would.
if (stale()) await buildBundles();
const node = [process.execPath, '--enable-source-maps'];
start('gateway', [...node, BUNDLES.gateway.out], { ...common, TRAWL_WORKERS: '0', ...(values.port ? { PORT: values.port } : {}) });
for (let i = 0; i < workers; i++) start(`worker ${i + 1}`, [...node, BUNDLES.worker.out], common);
if (!process.env.TRAWL_BOOTSTRAP_KEY) process.stdout.write(`cluster: API key ${key}\n`);
process.stdout.write(`cluster: gateway + ${workers} worker(s) started; Ctrl-C stops everything\n`);

for (const signal of ['SIGINT', 'SIGTERM'] as const) {
  process.once(signal, () => {
    stopAll().then(() => {
      if (redisDir) rmSync(redisDir, { recursive: true, force: true });
      process.exit(0);
    });
  });
}
